import { InferenceElement, decodeYolo, mapBoxes, nms, readLabelFile, z, type InferenceBatch, type TensorHandle } from "ds-element";

/**
 * The element's properties, declared once: gst-inspect-1.0's text, the validation of values
 * set from gst-launch-1.0 or application code, and the type of `this.props` all come from this
 * schema. Names are camelCase here and kebab-case in GStreamer (`labelsFile` is `labels-file`).
 */
const properties = z.object({
  model: z.string().describe("Model file: a YOLOv8/YOLO11-layout ONNX export (.onnx, ONNX Runtime on the CPU) or a TensorRT engine (.engine)"),
  labelsFile: z.string().default("").describe("Labels file, one class name per line in class-id order (nvinfer's labelfile-path); empty: use labels"),
  labels: z.array(z.string()).default([]).describe("Class names in class-id order, when there is no labels-file"),
  confidenceThreshold: z.number().min(0).max(1).default(0.25).describe("Minimum class score of a detection (nvinfer's pre-cluster-threshold)"),
  iouThreshold: z.number().min(0).max(1).default(0.45).describe("Boxes of one class overlapping more than this are merged (NMS)"),
  classIds: z.array(z.number().int().min(0)).default([]).describe("Class ids to keep; empty: all"),
  uniqueComponentId: z.number().int().min(0).default(1).describe("unique_component_id of the objects written (nvinfer's gie-unique-id)"),
});

/**
 * Runs a YOLOv8/YOLO11-layout detector (output `[batch, 4 + classes, candidates]`) on every
 * frame and attaches what it finds as object metadata, where nvinfer would put it: boxes in
 * frame pixels, class id, label, confidence, unique_component_id.
 *
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=90 ! video/x-raw,format=RGB,width=640,height=480 ! \
 *   template-element-name model=model.onnx labels-file=labels.txt ! dsmetadump ! fakesink
 */
export default class Detector extends InferenceElement.define({
  name: "template-element-name",
  longName: "YOLO detector",
  klass: "Filter/Analyzer/Video",
  description: "Runs a YOLOv8/YOLO11-layout detector (ONNX Runtime or TensorRT) and attaches its detections as object metadata",
  author: "Your Name <you@example.com>",
  caps: "video/x-raw, format=(string){ RGB, RGBA, BGR, BGRx }",
  properties,
}) {
  /** Per run: the class names, read in start() (from labels-file when it is set). */
  private classNames: readonly string[] = [];

  start() {
    // The model is loaded before start() runs (this.runner); the labels are ours to read.
    this.classNames = this.props.labelsFile !== "" ? readLabelFile(this.props.labelsFile) : this.props.labels;
  }

  postprocess(inference: InferenceBatch, [output]: TensorHandle[]) {
    // A TensorRT output on the GPU is copied to the host for the decode (and freed after).
    const images = decodeYolo(output!, {
      confidenceThreshold: this.props.confidenceThreshold,
      classes: this.props.classIds.length > 0 ? this.props.classIds : undefined,
    });
    for (const [i, frame] of inference.frames.entries()) {
      // Boxes come in network pixels of the letterboxed input: map them back to the frame (clipped to it).
      const transform = inference.transforms[i]!;
      const kept = nms(images[i]!, { iouThreshold: this.props.iouThreshold });
      const boxes = mapBoxes(kept, transform);
      // What nvinfer writes (docs/metadata.md): untracked objects, a 3 px red border, the label as text above the box.
      // The shared values apart from the boxes: `{ ...boxes, labels }` would cost a copy per frame.
      frame.addObjects(boxes, { labels: this.classNames, uniqueComponentId: this.props.uniqueComponentId });
    }
  }
}
