// A test element whose behaviour is picked by a property. Imports the SDK by relative path so
// its bundle carries its own copy of the SDK (as a user's bundle does). Lines marked `LINE:`
// are looked up by the tests.
import { Element, z, type BatchMeta } from "../../index.js";

export default class Probe extends Element.define({
  name: "probe",
  longName: "Probe",
  klass: "Filter/Video",
  description: "Misbehaves on request",
  author: "ds-element tests <tests@example.com>",
  caps: "video/x-raw",
  properties: z.object({
    behaviour: z.enum(["ok", "throw", "reject", "exit", "timer", "log", "keep", "sync", "sync-throw"]).default("ok"),
    everyN: z.number().int().min(1).default(1),
  }),
}) {
  kept: BatchMeta | undefined;

  start() {
    if (this.props.behaviour === "timer") {
      setTimeout(() => {
        throw new Error("probe: timer failed"); // LINE:timer
      }, 5);
    }
  }

  transform(batch: BatchMeta): Promise<void> | undefined {
    if (this.props.behaviour === "sync") return undefined;
    if (this.props.behaviour === "sync-throw") throw new Error(`probe: sync transform failed on frame ${batch.frameItems[0]?.frameNum}`);
    return this.asyncTransform(batch);
  }

  private async asyncTransform(batch: BatchMeta) {
    const frameNum = batch.frameItems[0]?.frameNum;
    switch (this.props.behaviour) {
      case "throw":
        throw new Error(`probe: transform failed on frame ${frameNum}`); // LINE:throw
      case "reject":
        await Promise.resolve();
        throw new Error(`probe: async transform failed on frame ${frameNum}`); // LINE:reject
      case "exit":
        process.exit(3); // LINE:exit
      case "log":
        this.log.warn(`frame ${frameNum}`); // LINE:log
        return;
      case "keep":
        this.kept = batch;
        setTimeout(() => this.kept?.numFrames, 1); // LINE:stale
        return;
      default:
        return;
    }
  }

  onPropertyChange(name: string, value: unknown) {
    this.log.info(`${name}=${String(value)}`);
  }
}
