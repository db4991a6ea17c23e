import {
  InferenceElement,
  decodeYolo,
  mapBoxes,
  nms,
  z,
  type InferenceBatch,
  type TensorHandle,
} from "ds-element";

const BORDER_COLOR = { red: 0, green: 1, blue: 0.3, alpha: 1 };
const LABEL_FONT = { name: "Sans", size: 14, color: { red: 1, green: 1, blue: 1, alpha: 1 } };
const LABEL_BACKGROUND = { red: 0, green: 0.35, blue: 0.1, alpha: 0.8 };
/** About the height of a 14 pt label (19 px of text, and its line spacing). */
const LABEL_HEIGHT = 23;

/**
 * Runs a YOLOv8-style detector (output `[batch, 4 + classes, candidates]`) on every frame and
 * attaches what it finds as object metadata, where nvinfer would put it: with a border and a
 * label ("ball 0.97") for nvdsosd or dsosd to draw. With the test model of
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
    const images = decodeYolo(output!, { confidenceThreshold: this.props.confidenceThreshold });
    for (const [i, frame] of inference.frames.entries()) {
      const transform = inference.transforms[i]!;
      const kept = nms(images[i]!, { iouThreshold: this.props.iouThreshold });
      const boxes = mapBoxes(kept, transform);
      // A border and a label on each, as nvinfer writes them, for nvdsosd (or dsosd) to draw.
      const added = frame.addObjects({
        ...boxes,
        labels: this.props.labels,
        uniqueComponentId: this.props.uniqueComponentId,
        borderWidth: 3,
        borderColor: BORDER_COLOR,
      });
      for (const object of frame.objectItems.slice(frame.objectItems.length - added)) {
        object.textParams = {
          displayText: `${object.label} ${object.confidence.toFixed(2)}`,
          xOffset: Math.max(0, Math.round(object.rectParams.left)),
          yOffset: Math.max(0, Math.round(object.rectParams.top) - LABEL_HEIGHT),
          font: LABEL_FONT,
          setBgColor: true,
          bgColor: LABEL_BACKGROUND,
        };
      }
    }
  }
}
