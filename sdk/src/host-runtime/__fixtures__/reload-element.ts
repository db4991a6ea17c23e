// The element dev-reload.test.ts rebuilds: the test rewrites VERSION in its bundle. Every hook
// logs what it did, so the test reads the order of events from the log.
import { Element, z, type BatchMeta, type Caps } from "../../index.js";

const VERSION: string = "version-A";

export default class Reloaded extends Element.define({
  name: "reloaded",
  longName: "Reloaded",
  klass: "Filter/Video",
  description: "Logs its version",
  author: "ds-element tests <tests@example.com>",
  caps: "video/x-raw",
  properties: z.object({ label: z.string().default("none"), failStart: z.boolean().default(false), hangStart: z.boolean().default(false) }),
}) {
  count = 0;

  start(): void | Promise<void> {
    if (this.props.failStart && VERSION.endsWith("-B")) throw new Error(`${VERSION} refuses to start`);
    if (this.props.hangStart && VERSION.endsWith("-B")) return new Promise<void>(() => undefined);
    this.log.info(`${VERSION} start ${this.props.label}`);
  }

  onCaps(caps: Caps) {
    this.log.info(`${VERSION} caps ${caps.string}`);
  }

  transform(batch: BatchMeta) {
    this.count += batch.numFrames;
    this.log.info(`${VERSION} transform ${this.props.label} ${this.count}`);
  }

  onPropertyChange(name: string, value: unknown) {
    this.log.info(`${VERSION} property ${name}=${String(value)}`);
  }

  onHotReload(previous: this) {
    this.log.info(`${VERSION} takes over from a count of ${previous.count}`);
    this.count = previous.count;
  }

  stop() {
    this.log.info(`${VERSION} stop`);
  }
}
