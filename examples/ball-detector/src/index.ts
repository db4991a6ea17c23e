import {
  InferenceElement,
  decodeYolo,
  mapBoxes,
  nms,
  z,
  type InferenceBatch,
  type TensorHandle,
} from "ds-element";

/**
 * Runs a YOLOv8-style detector (output `[batch, 4 + classes, candidates]`) on every frame and
 * attaches what it finds as object metadata, where nvinfer would put it. With the test model of
 * scripts/make-ball-model.mjs it finds the ball of `videotestsrc pattern=ball`:
 *
 *   gst-launch-1.0 videotestsrc pattern=ball num-buffers=300 ! video/x-raw,format=RGB,width=640,height=480 ! \
 *     balldetector model=model/ball.onnx ! dsmetadump ! fakesink
 */
export default class BallDetector extends InferenceElement.define({
  name: "balldetector",
  longName: "Ball detector",
  klass: "Filter/Analyzer/Video",
  description: "Runs a YOLOv8-layout detector (ONNX Runtime or TensorRT) and attaches its detections as object metadata",
  author: "ds-element authors",
  caps: "video/x-raw, format=(string){ RGB, RGBA, BGR, BGRx }",
  properties: z.object({
    model: z.string().describe("Model file: a YOLOv8-layout .onnx (CPU) or TensorRT .engine"),
    confidenceThreshold: z.number().min(0).max(1).default(0.25).describe("Minimum class score of a detection"),
    iouThreshold: z.number().min(0).max(1).default(0.45).describe("Boxes of one class overlapping more than this are merged (NMS)"),
    labels: z.array(z.string()).default(["ball", "not-ball"]).describe("Class labels, in class-id order"),
    uniqueComponentId: z.number().int().min(0).default(1).describe("unique_component_id of the objects written (gie-unique-id)"),
  }),
}) {
  postprocess(inference: InferenceBatch, [output]: TensorHandle[]) {
    const host = output!.device.type === "cuda" ? output!.toHost() : output!;
    try {
      const images = decodeYolo(
        { data: host.toTypedArray() as Float32Array, dims: host.shape },
        { confidenceThreshold: this.props.confidenceThreshold },
      );
      for (const [i, frame] of inference.frames.entries()) {
        const transform = inference.transforms[i]!;
        const kept = nms(images[i]!, { iouThreshold: this.props.iouThreshold });
        const boxes = mapBoxes(kept, transform, { frameWidth: transform.sourceWidth, frameHeight: transform.sourceHeight });
        frame.addObjects({ ...boxes, labels: this.props.labels, uniqueComponentId: this.props.uniqueComponentId });
      }
    } finally {
      if (host !== output) host.dispose();
    }
  }
}
