import {
  InferenceElement,
  readLabelFile,
  z,
  type FrameMeta,
  type InferenceBatch,
  type PreprocessOptions,
  type Runner,
  type TensorHandle,
} from "ds-element";
import { classify, selected } from "./selection.js";

/**
 * The element's properties, declared once: gst-inspect-1.0's text, the validation of values
 * set from gst-launch-1.0 or application code, and the type of `this.props` all come from this
 * schema. Names are camelCase here and kebab-case in GStreamer, after nvinfer's config keys.
 */
const properties = z.object({
  model: z.string().describe("Model file: a classifier (.onnx on the CPU, or a TensorRT .engine) with one output [batch, classes] of probabilities"),
  labelsFile: z.string().default("").describe("Labels file, one class name per line in class-id order (nvinfer's labelfile-path); empty: use labels"),
  labels: z.array(z.string()).default([]).describe("Class names in class-id order, when there is no labels-file"),
  classifierType: z.string().default("template-element-name").describe("classifier_type of the classifier metadata written (nvinfer's classifier-type)"),
  classifierThreshold: z.number().min(0).max(1).default(0.5).describe("Minimum probability of the best class; below it the object gets no result (nvinfer's classifier-threshold)"),
  operateOnClassIds: z.array(z.number().int().min(0)).default([]).describe("Classify objects of these class ids only (nvinfer's operate-on-class-ids); empty: all"),
  operateOnComponentId: z.number().int().min(-1).default(-1).describe("Classify objects of this unique_component_id only (nvinfer's operate-on-gie-id); -1: any"),
  minObjectWidth: z.number().int().min(0).default(16).describe("Smaller objects are not classified, pixels (nvinfer's input-object-min-width)"),
  minObjectHeight: z.number().int().min(0).default(16).describe("Smaller objects are not classified, pixels (nvinfer's input-object-min-height)"),
  uniqueComponentId: z.number().int().min(0).default(2).describe("unique_component_id of the classifier metadata written (nvinfer's gie-unique-id)"),
});

/**
 * A secondary classifier, as nvinfer runs one with `process-mode=2`: it takes the objects a
 * detector upstream wrote (of the chosen class ids and component id, big enough), crops each
 * from its frame, runs the model on all the crops of a batch together (in slices of the model's
 * batch size when it is fixed), and attaches the best class to each object as classifier
 * metadata with a label info.
 *
 * gst-launch-1.0 ... ! nvinfer config-file-path=pgie.txt ! \
 *   template-element-name model=classifier.onnx labels-file=labels.txt operate-on-class-ids="<2>" ! nvdsosd ! ...
 */
export default class Classifier extends InferenceElement.define({
  name: "template-element-name",
  longName: "Secondary classifier",
  klass: "Filter/Analyzer/Video",
  description: "Classifies the objects a detector found (on their crops, as one batch) and attaches classifier metadata",
  author: "Your Name <you@example.com>",
  caps: "video/x-raw, format=(string){ RGB, RGBA, BGR, BGRx }",
  properties,
}) {
  /** Per run: the class names, read in start() (from labels-file when it is set). */
  private classNames: readonly string[] = [];

  start() {
    this.classNames = this.props.labelsFile !== "" ? readLabelFile(this.props.labelsFile) : this.props.labels;
  }

  /** Secondary mode: the model runs on the crops of these objects, not on the whole frame. */
  objectsToProcess(frame: FrameMeta) {
    return frame.objectItems.filter((object) => selected(object, this.props));
  }

  /** Crops stretched to the model's input, as nvinfer does by default (maintain-aspect-ratio=0). */
  preprocessOptions(runner: Runner): PreprocessOptions {
    return { ...super.preprocessOptions(runner), mode: "stretch" };
  }

  postprocess(inference: InferenceBatch, [probabilities]: TensorHandle[]) {
    const host = probabilities!.device.type === "cuda" ? probabilities!.toHost() : probabilities!;
    try {
      const scores = host.toTypedArray() as Float32Array;
      const classes = host.shape[1]!;
      for (const [i, object] of inference.objects.entries()) {
        const result = classify(scores.subarray(i * classes, (i + 1) * classes), this.props.classifierThreshold);
        if (result === undefined) continue;
        // New metadata comes from the batch's pools, as nvinfer's does.
        const label = inference.batch.acquireLabelInfo();
        label.resultClassId = result.classId;
        label.resultProb = result.probability;
        label.resultLabel = this.classNames[result.classId] || String(result.classId);
        label.numClasses = classes;
        const classifier = inference.batch.acquireClassifierMeta();
        classifier.uniqueComponentId = this.props.uniqueComponentId;
        classifier.classifierType = this.props.classifierType;
        classifier.addLabelInfo(label);
        object!.addClassifierMeta(classifier);
      }
    } finally {
      if (host !== probabilities) host.dispose();
    }
  }
}
