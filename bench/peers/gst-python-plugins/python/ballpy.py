# The gst-python peer of the ball detector (examples/ball-detector), for bench section 7: what a
# user would otherwise write in Python. Per frame: letterbox to the model's 640x640 with
# OpenCV's resize and numpy (padding black, as nvinfer pads), normalise to 0..1, NCHW float32;
# the same ONNX model, run by a small numpy interpreter of its graph (OpenCV 4.6's DNN module
# cannot import it: Clip with min/max inputs, opset 17); decode of the YOLOv8 layout and NMS in
# numpy; the boxes mapped back to the frame and attached to the buffer as a GstCustomMeta
# ("DsBallObjects", one GstStructure per object: class-id, confidence, left, top, width,
# height, label), the Python-side equivalent of the object metadata the TypeScript element
# writes.
#
# Properties: model (the .onnx), report (a JSON file written at stop: per frame the model's
# time in ms and the objects found). The model's time is measured around the interpreter's run.
import json
import time

import cv2
import gi
import numpy as np
import onnx
from onnx import numpy_helper

gi.require_version("Gst", "1.0")
gi.require_version("GstBase", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import GObject, Gst, GstBase, GstVideo  # noqa: E402

Gst.init(None)
META = "DsBallObjects"
Gst.Meta.register_custom(META, [], None)


class OnnxNumpy:
    """Runs an ONNX graph of the ops the ball model uses, in numpy."""

    def __init__(self, path):
        model = onnx.load(path)
        self.values = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}
        self.nodes = [(node.op_type, list(node.input), list(node.output), {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}) for node in model.graph.node]
        self.input = model.graph.input[0].name
        self.output = model.graph.output[0].name

    def run(self, tensor):
        values = dict(self.values)
        values[self.input] = tensor
        for op, inputs, outputs, attributes in self.nodes:
            args = [values[name] for name in inputs]
            values[outputs[0]] = self.evaluate(op, args, attributes)
        return values[self.output]

    @staticmethod
    def evaluate(op, args, attributes):
        if op == "ReduceMean":
            return np.mean(args[0], axis=tuple(attributes["axes"]), keepdims=bool(attributes.get("keepdims", 1)))
        if op == "ReduceSum":
            return np.sum(args[0], axis=tuple(int(axis) for axis in args[1]), keepdims=bool(attributes.get("keepdims", 1)))
        if op == "Clip":
            return np.clip(args[0], args[1], args[2])
        if op == "Range":
            return np.arange(args[0], args[1], args[2], dtype=np.float32)
        if op == "Concat":
            return np.concatenate(args, axis=attributes["axis"])
        if op == "Unsqueeze":
            return np.expand_dims(args[0], axis=tuple(int(axis) for axis in args[1]))
        if op == "Sigmoid":
            return 1 / (1 + np.exp(-args[0]))
        if op == "Sqrt":
            return np.sqrt(args[0])
        binary = {"Mul": np.multiply, "Sub": np.subtract, "Div": np.divide, "Add": np.add, "Max": np.maximum, "MatMul": np.matmul}
        if op in binary:
            return binary[op](args[0], args[1]).astype(np.float32)
        raise ValueError(f"op {op} is not implemented")


def nms(boxes, scores, iou_threshold):
    """Indices kept, by score, greedy, one class (boxes as x1, y1, x2, y2)."""
    order = np.argsort(-scores, kind="stable")
    kept = []
    while order.size > 0:
        best = order[0]
        kept.append(best)
        rest = order[1:]
        x1 = np.maximum(boxes[best, 0], boxes[rest, 0])
        y1 = np.maximum(boxes[best, 1], boxes[rest, 1])
        x2 = np.minimum(boxes[best, 2], boxes[rest, 2])
        y2 = np.minimum(boxes[best, 3], boxes[rest, 3])
        overlap = np.maximum(0, x2 - x1) * np.maximum(0, y2 - y1)
        area = lambda b: (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])  # noqa: E731
        iou = overlap / (area(boxes[best]) + area(boxes[rest]) - overlap + 1e-9)
        order = rest[iou <= iou_threshold]
    return kept


class BallPy(GstBase.BaseTransform):
    __gstmetadata__ = ("Ball detector (Python)", "Filter/Analyzer/Video", "The ball detector, in Python with numpy and OpenCV", "ds-element")
    __gsttemplates__ = (
        Gst.PadTemplate.new("src", Gst.PadDirection.SRC, Gst.PadPresence.ALWAYS, Gst.Caps.from_string("video/x-raw,format=RGB")),
        Gst.PadTemplate.new("sink", Gst.PadDirection.SINK, Gst.PadPresence.ALWAYS, Gst.Caps.from_string("video/x-raw,format=RGB")),
    )
    __gproperties__ = {
        "model": (str, "Model", "The .onnx file", "", GObject.ParamFlags.READWRITE),
        "report": (str, "Report", "JSON file written at stop: per frame the model's time and the objects", "", GObject.ParamFlags.READWRITE),
    }
    SIZE = 640
    CONFIDENCE = 0.25
    IOU = 0.45
    LABELS = ["ball", "not-ball"]

    def __init__(self):
        super().__init__()
        self.model = ""
        self.report = ""
        self.engine = None
        self.info = None
        self.frames = []

    def do_get_property(self, spec):
        return getattr(self, spec.name)

    def do_set_property(self, spec, value):
        setattr(self, spec.name, value)

    def do_start(self):
        self.engine = OnnxNumpy(self.model)
        self.frames = []
        return True

    def do_stop(self):
        if self.report:
            with open(self.report, "w") as out:
                json.dump(self.frames, out)
        return True

    def do_set_caps(self, incaps, outcaps):
        self.info = GstVideo.VideoInfo.new_from_caps(incaps)
        return True

    def do_transform_ip(self, buffer):
        width, height, stride = self.info.width, self.info.height, self.info.stride[0]
        ok, mapped = buffer.map(Gst.MapFlags.READ)
        if not ok:
            return Gst.FlowReturn.ERROR
        try:
            frame = np.ndarray((height, width, 3), np.uint8, mapped.data, 0, (stride, 3, 1))
            scale = min(self.SIZE / width, self.SIZE / height)
            resized_w, resized_h = round(width * scale), round(height * scale)
            pad_x, pad_y = (self.SIZE - resized_w) // 2, (self.SIZE - resized_h) // 2
            letterboxed = np.zeros((self.SIZE, self.SIZE, 3), np.uint8)
            letterboxed[pad_y:pad_y + resized_h, pad_x:pad_x + resized_w] = cv2.resize(frame, (resized_w, resized_h), interpolation=cv2.INTER_LINEAR)
        finally:
            buffer.unmap(mapped)
        tensor = np.ascontiguousarray(letterboxed.transpose(2, 0, 1)[np.newaxis], dtype=np.float32) / 255.0

        started = time.perf_counter()
        output = self.engine.run(tensor)[0]  # [4 + classes, candidates]
        model_ms = (time.perf_counter() - started) * 1000

        scores = output[4:].T
        classes = scores.argmax(axis=1)
        best = scores[np.arange(scores.shape[0]), classes]
        keep = best >= self.CONFIDENCE
        cx, cy, w, h = output[0][keep], output[1][keep], output[2][keep], output[3][keep]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        objects = []
        for class_id in np.unique(classes[keep]):
            of_class = np.flatnonzero(classes[keep] == class_id)
            for index in nms(boxes[of_class], best[keep][of_class], self.IOU):
                x1, y1, x2, y2 = boxes[of_class][index]
                left = float(np.clip((x1 - pad_x) / scale, 0, width))
                top = float(np.clip((y1 - pad_y) / scale, 0, height))
                right = float(np.clip((x2 - pad_x) / scale, 0, width))
                bottom = float(np.clip((y2 - pad_y) / scale, 0, height))
                objects.append({"classId": int(class_id), "confidence": float(best[keep][of_class][index]), "left": left, "top": top, "width": right - left, "height": bottom - top})

        meta = buffer.add_custom_meta(META)
        structure = meta.get_structure()
        for index, found in enumerate(objects):
            entry = Gst.Structure.new_empty("object")
            entry.set_value("class-id", found["classId"])
            entry.set_value("confidence", found["confidence"])
            for key in ("left", "top", "width", "height"):
                entry.set_value(key, found[key])
            entry.set_value("label", self.LABELS[found["classId"]])
            structure.set_value(f"object-{index}", entry)
        self.frames.append({"modelMs": model_ms, "objects": objects})
        return Gst.FlowReturn.OK


GObject.type_register(BallPy)
__gstelementfactory__ = ("ballpy", Gst.Rank.NONE, BallPy)
