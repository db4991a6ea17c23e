import { writeFileSync } from "node:fs";
import type { InferenceBatch, Runner, TensorHandle } from "ds-element";
import BallDetector from "../../../examples/ball-detector/src/index.js";

/** What bench section 7 reads: per frame, the model's time and the objects written. */
interface FrameReport {
  modelMs: number;
  objects: { classId: number; confidence: number; left: number; top: number; width: number; height: number }[];
}

/**
 * The example's ball detector, unchanged, plus what bench section 7 needs to compare it with
 * its gst-python peer (bench/peers/gst-python-plugins/python/ballpy.py): the time of each
 * inference (the runner's `infer()`, from the call to its result: ONNX Runtime's run and the
 * hop to its thread), and the objects each frame got. Written at stop() to the file named by
 * DS_BENCH_BALL_REPORT.
 */
export default class BallDetectorTimed extends BallDetector {
  #frames: FrameReport[] = [];
  #modelMs = 0;

  start() {
    this.#frames = [];
    const runner = this.runner;
    const infer = runner.infer.bind(runner);
    (runner as { infer: Runner["infer"] }).infer = async (inputs) => {
      const started = performance.now();
      try {
        return await infer(inputs);
      } finally {
        this.#modelMs = performance.now() - started;
      }
    };
  }

  postprocess(inference: InferenceBatch, outputs: TensorHandle[]) {
    super.postprocess(inference, outputs);
    for (const frame of inference.frames) {
      const objects = frame.objectItems.map((obj) => {
        const { left, top, width, height } = obj.rectParams;
        return { classId: obj.classId, confidence: obj.confidence, left, top, width, height };
      });
      this.#frames.push({ modelMs: this.#modelMs, objects });
    }
  }

  stop() {
    const report = process.env.DS_BENCH_BALL_REPORT;
    if (report) writeFileSync(report, JSON.stringify(this.#frames));
  }
}
