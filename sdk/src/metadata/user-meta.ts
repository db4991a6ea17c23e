import { expectedMessage } from "../errors/describe-value.js";
import { InvalidTypeError, MetaStateError, StaleHandleError } from "../errors/errors.js";
import type { NativeEventMsg } from "../native/event-msg-binding.js";
import { PAYLOAD_BYTES, PAYLOAD_JSON, PAYLOAD_KIND_NAMES, type NativeSegmentationInit, type NativeUserMeta, type UserMetaLevel } from "../native/meta-binding.js";
import { ANALYTICS_FRAME_MEMBERS, ANALYTICS_OBJECT_MEMBERS, frozenAnalytics, type AnalyticsFrameMeta, type AnalyticsObjectInfo } from "./analytics-meta.js";
import { eventMsgFromNative, eventMsgToNative, type EventMsgInit, type EventMsgMeta } from "./event-msg-meta.js";
import { ADDED, checkAddable, checkSameCall, HandleCore, notAHandle, notIn, REMOVED } from "./call/handle-checks.js";
import { addSegmentation, checkSegmentation, SegmentationMeta, type SegmentationInit, type SegmentationMetaJSON } from "./segmentation-meta.js";
import { TensorOutputMeta, type TensorOutputMetaJSON } from "./tensor-output-meta.js";
import { readComponent, type ComponentMetaKind, type ComponentReads } from "./component-user-meta.js";
import type { TransformScope } from "./call/transform-scope.js";
import { checkUserMetaType, invalid } from "./call/validation.js";
import type { PreprocessBatchMeta, RoiMeta } from "./preprocess-meta.js";
import type { ReidMeta, TrackerTargetList } from "./tracker-meta.js";

const TYPE = "UserMeta";
// Indexed by the native payload kind (native/payload-kinds.mjs): each name is a UserMetaKind.
const KINDS: readonly UserMetaKind[] = PAYLOAD_KIND_NAMES;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** @internal How the batch, frames and objects reach a UserMeta's private state. */
export interface UserInternals {
  /** Adds `user` at `level`/`owner`; `operationOwner` names the class in messages ("FrameMeta"). */
  add(scope: TransformScope, level: UserMetaLevel, owner: number, user: UserMeta, operationOwner: string): void;
  /** Removes `user` from `level`/`owner` (`ownerName`: "batch", "frame", "object" in messages). */
  remove(scope: TransformScope, level: UserMetaLevel, owner: number, user: UserMeta, operationOwner: string, ownerName: string): void;
  /** The user metas at `level`/`owner`, one JS handle per native index. */
  list(scope: TransformScope, level: UserMetaLevel, owner: number): readonly UserMeta[];
}

/** @internal Assigned by UserMeta's static block. */
export let userInternals: UserInternals;

/** @internal Batch level (owner ignored). */
export const BATCH_LEVEL: UserMetaLevel = 0;
/** @internal Frame level (owner = frame index). */
export const FRAME_LEVEL: UserMetaLevel = 1;
/** @internal Object level (owner = row). */
export const OBJECT_LEVEL: UserMetaLevel = 2;

/**
 * What a user meta carries:
 * - `"bytes"`: opaque bytes (`setBytes`);
 * - `"json"`: a JSON value (`setJson`);
 * - `"tensor-output"`: nvinfer's raw output tensors (`NVDSINFER_TENSOR_OUTPUT_META`), read with
 *   {@link UserMeta.asTensorOutput};
 * - `"foreign"`: another component's user meta: only its type number is known;
 * - `"event-msg"`: DeepStream's event message (`NvDsEventMsgMeta`, `NVDS_EVENT_MSG_META`), what
 *   nvmsgconv turns into messages: written with {@link UserMeta.setEventMsg}, read with
 *   {@link UserMeta.asEventMsg};
 * - `"analytics-frame"`, `"analytics-object"`: nvdsanalytics' `NvDsAnalyticsFrameMeta` and
 *   `NvDsAnalyticsObjInfo`, read with {@link UserMeta.asAnalyticsFrame} and
 *   {@link UserMeta.asAnalyticsObject};
 * - `"segmentation"`: nvinfer's `NvDsInferSegmentationMeta` (`NVDSINFER_SEGMENTATION_META`), read
 *   with {@link UserMeta.asSegmentation}, written with {@link UserMeta.setSegmentation};
 * - NVIDIA components' metas, read-only ({@link ComponentMetaKind}): nvtracker's
 *   `"tracker-past-frame"`, `"tracker-terminated-list"`, `"tracker-shadow-list"` (read with
 *   {@link UserMeta.asTrackerTargets}), `"tracker-batch-reid"`, `"tracker-object-reid"`
 *   ({@link UserMeta.asReid}), nvdspreprocess's `"preprocess-batch"`
 *   ({@link UserMeta.asPreprocessBatch}) and `"roi"` ({@link UserMeta.asRoi}).
 *
 * @example
 * ```ts
 * const mine = frame.userMetaItems.filter((user) => user.kind === "json");
 * ```
 */
export type UserMetaKind = "bytes" | "json" | "tensor-output" | "foreign" | "event-msg" | "analytics-frame" | "analytics-object" | "segmentation" | ComponentMetaKind;

/**
 * The plain values of a {@link UserMeta}, as {@link UserMeta.toJSON} returns them: `json` for
 * JSON payloads, `bytes` (as numbers) for byte payloads, `tensorOutput` for nvinfer's tensors.
 *
 * @example
 * ```ts
 * const kept: UserMetaJSON[] = frame.userMetaItems.map((user) => user.toJSON());
 * ```
 */
export interface UserMetaJSON {
  /** See {@link UserMeta.metaType}. */
  metaType: string;
  /** See {@link UserMeta.metaTypeId}. */
  metaTypeId: number;
  /** See {@link UserMeta.kind}. */
  kind: UserMetaKind;
  /** A byte payload, as numbers 0..255. */
  bytes?: number[];
  /** A JSON payload, parsed. */
  json?: unknown;
  /** nvinfer's tensor output, without the data. */
  tensorOutput?: TensorOutputMetaJSON;
  /** An event message. */
  eventMsg?: EventMsgMeta;
  /** nvdsanalytics' frame meta. */
  analyticsFrame?: AnalyticsFrameMeta;
  /** nvdsanalytics' object meta. */
  analyticsObject?: AnalyticsObjectInfo;
  /** A segmentation meta, without its maps. */
  segmentation?: SegmentationMetaJSON;
}

/** What a meta read from the buffer carries, as a typed value (UserMeta.asTensorOutput, ...). */
type Carried = TensorOutputMeta | AnalyticsFrameMeta | AnalyticsObjectInfo | SegmentationMeta;

/**
 * Metadata of your own attached to the batch, a frame or an object (`NvDsUserMeta`): a type
 * string of the form `ORG.COMPONENT.DESCRIPTION` (DeepStream's `nvds_get_user_meta_type`) and
 * a payload of bytes or JSON. Acquire one with `batch.acquireUserMeta()`, set its payload, and
 * add it with `addUserMeta` on the batch, a frame or an object. Buffer copies (`tee`, DeepStream's
 * copy functions) carry it; other components see a regular user meta of that type. Read-only
 * once added or read from the buffer.
 *
 * Valid only during the transform() call that made it (see {@link StaleHandleError}).
 *
 * @example
 * ```ts
 * const user = batch.acquireUserMeta();
 * user.setJson("ACME.COUNTER.TOTALS", { people: 3, cars: 1 });
 * frame.addUserMeta(user);
 * // downstream, in another element:
 * const totals = frame.userMetaItems.find((u) => u.metaType === "ACME.COUNTER.TOTALS")?.json;
 * ```
 */
export class UserMeta {
  /** Its call and state, and the check every member makes first. */
  readonly #core: HandleCore;
  #index = -1;
  #level: UserMetaLevel = BATCH_LEVEL;
  #owner = -1;
  #metaType = "";
  #metaTypeId = -1;
  #kind: UserMetaKind = "bytes";
  #payload: Uint8Array | undefined = new Uint8Array(0);
  #json: unknown;
  #jsonParsed = false;
  #eventMsg: NativeEventMsg | undefined;
  /** What a read-from-the-buffer meta carries, read once (see #carried). */
  #typed: Carried | undefined;
  #segmentation: NativeSegmentationInit | undefined;
  #component: ComponentReads | undefined;

  /** @internal User metas come from `batch.acquireUserMeta()` or the buffer; user code never constructs them. */
  constructor(scope: TransformScope) {
    this.#core = new HandleCore(scope, TYPE);
  }

  /**
   * The type string, `ORG.COMPONENT.DESCRIPTION` (empty for foreign and tensor-output metas,
   * whose type only has a number).
   *
   * @example
   * ```ts
   * if (user.metaType === "ACME.COUNTER.TOTALS") this.totals = user.json;
   * ```
   */
  get metaType(): string {
    this.#core.check("metaType");
    return this.#metaType;
  }

  /**
   * The type number the backend uses (`base_meta.meta_type`): `nvds_get_user_meta_type(metaType)`
   * on DeepStream, a hash of the string in the portable backend, 12 for nvinfer's tensor
   * output. Compare type strings, not numbers, across backends. 0 until the meta is added.
   *
   * @example
   * ```ts
   * const foreign = frame.userMetaItems.filter((user) => user.kind === "foreign").map((user) => user.metaTypeId);
   * ```
   */
  get metaTypeId(): number {
    this.#core.check("metaTypeId");
    if (this.#metaTypeId < 0) {
      if (this.#core.status !== ADDED) return 0;
      const scope = this.#core.scope;
      const meta = scope.meta;
      const read = meta.listUserMetas(scope.callId, this.#level, this.#owner).find((user) => user.index === this.#index);
      this.#metaTypeId = read?.metaTypeId ?? 0;
    }
    return this.#metaTypeId;
  }

  /**
   * What the meta carries; see {@link UserMetaKind}.
   *
   * @example
   * ```ts
   * if (user.kind === "tensor-output") this.decode(user.asTensorOutput()!);
   * ```
   */
  get kind(): UserMetaKind {
    this.#core.check("kind");
    return this.#kind;
  }

  /**
   * The payload bytes of a `"bytes"` or `"json"` meta (a copy made for this call; the JSON
   * text as UTF-8); undefined for tensor-output and foreign metas.
   *
   * @example
   * ```ts
   * const header = user.bytes?.subarray(0, 4);
   * ```
   */
  get bytes(): Uint8Array | undefined {
    this.#core.check("bytes");
    return this.#payload;
  }

  /**
   * The payload of a `"json"` meta, parsed (once, on first read); undefined for other kinds.
   *
   * @example
   * ```ts
   * const { people } = user.json as { people: number };
   * ```
   */
  get json(): unknown {
    this.#core.check("json");
    if (this.#kind !== "json" || this.#payload === undefined) return undefined;
    if (!this.#jsonParsed) {
      this.#json = JSON.parse(decoder.decode(this.#payload));
      this.#jsonParsed = true;
    }
    return this.#json;
  }

  /**
   * Sets the type and a byte payload (copied).
   *
   * @example
   * ```ts
   * user.setBytes("ACME.TRACKER.STATE", new Uint8Array([1, 2, 3]));
   * ```
   */
  setBytes(type: string, bytes: Uint8Array): void {
    this.#core.check("setBytes()", "writing");
    const metaType = checkUserMetaType(type, "UserMeta.metaType");
    if (!(bytes instanceof Uint8Array)) invalid("a Uint8Array", "UserMeta.setBytes bytes", bytes, true);
    this.#metaType = metaType;
    this.#kind = "bytes";
    this.#payload = bytes.slice();
    this.#jsonParsed = false;
  }

  /**
   * Sets the type and a JSON payload (`JSON.stringify(value)`, sent as UTF-8 text).
   *
   * @example
   * ```ts
   * user.setJson("ACME.ANALYTICS.LINE_CROSSING", { line: "entrance", in: 4, out: 2 });
   * ```
   */
  setJson(type: string, value: unknown): void {
    this.#core.check("setJson()", "writing");
    const metaType = checkUserMetaType(type, "UserMeta.metaType");
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      throw new InvalidTypeError(
        expectedMessage("a JSON-serialisable value", "UserMeta.setJson value", `one JSON.stringify rejects (${(error as Error).message})`),
      );
    }
    if (text === undefined) invalid("a JSON-serialisable value", "UserMeta.setJson value", value, true);
    this.#metaType = metaType;
    this.#kind = "json";
    this.#payload = encoder.encode(text);
    this.#jsonParsed = false;
  }

  /**
   * nvinfer's tensor output carried by a `"tensor-output"` meta; undefined for other kinds.
   *
   * @example
   * ```ts
   * const tensor = user.asTensorOutput();
   * if (tensor) this.log.debug(`${tensor.layers.length} output layers`);
   * ```
   */
  asTensorOutput(): TensorOutputMeta | undefined {
    return this.#carried("asTensorOutput", "tensor-output", (scope, index) => new TensorOutputMeta(scope, scope.meta.readTensorOutput(scope.callId, index)));
  }

  /** What a `kind` meta carries, made once by `read`; undefined for other kinds (and while `ready` is false). */
  #carried<T extends Carried>(method: string, kind: UserMetaKind, read: (scope: TransformScope, index: number) => T, ready = true): T | undefined {
    this.#core.check(`${method}()`, "calling");
    if (this.#kind !== kind || !ready) return undefined;
    return (this.#typed ??= read(this.#core.scope, this.#index)) as T;
  }

  /**
   * Makes this an event message (`NvDsEventMsgMeta`, user meta type `NVDS_EVENT_MSG_META`), as
   * deepstream-test4 attaches one per object for nvmsgconv: checked now, written when added
   * (`frame.addUserMeta(user)`: nvmsgconv reads frame user metas). On DeepStream it is an
   * `NvDsEventMsgMeta` allocated as NVIDIA's samples do, with copy and release functions that
   * copy every string and the extension object, so buffer copies (a tee) carry it.
   *
   * @example
   * ```ts
   * const user = batch.acquireUserMeta();
   * user.setEventMsg({
   *   type: "moving", objType: "vehicle", frameId: frame.frameNum, sensorId: frame.sourceId,
   *   bbox: obj.rectParams, trackingId: obj.objectId, confidence: obj.confidence, objectId: obj.label,
   *   vehicle: { type: "sedan", make: "Bugatti", model: "M", color: "blue", region: "CA", license: "XX1234" },
   * });
   * frame.addUserMeta(user);
   * ```
   */
  setEventMsg(msg: EventMsgInit): void {
    this.#core.check("setEventMsg()", "writing");
    this.#eventMsg = eventMsgToNative(msg);
    this.#metaType = "";
    this.#kind = "event-msg";
    this.#payload = undefined;
    this.#jsonParsed = false;
  }

  /**
   * The event message of an `"event-msg"` meta (written here or by any other component, e.g.
   * a C probe as deepstream-test4's), frozen and safe to keep; undefined for other kinds.
   *
   * @example
   * ```ts
   * const events = frame.userMetaItems.flatMap((user) => user.asEventMsg() ?? []);
   * const vehicles = events.filter((event) => event.vehicle).map((event) => event.vehicle!.license);
   * ```
   */
  asEventMsg(): EventMsgMeta | undefined {
    this.#core.check("asEventMsg()", "calling");
    if (this.#kind !== "event-msg") return undefined;
    // Staged by setEventMsg, or read from the buffer once.
    const scope = this.#core.scope;
    return eventMsgFromNative((this.#eventMsg ??= scope.meta.readEventMsg(scope.callId, this.#index)));
  }

  /**
   * nvtracker's target list carried by a `"tracker-past-frame"`, `"tracker-terminated-list"`
   * or `"tracker-shadow-list"` meta (batch level); undefined for other kinds.
   *
   * @example
   * ```ts
   * const past = batch.userMetaItems.find((user) => user.kind === "tracker-past-frame")?.asTrackerTargets();
   * ```
   */
  asTrackerTargets(): TrackerTargetList | undefined {
    return this.#read("asTrackerTargets");
  }

  /**
   * nvtracker's re-ID embeddings carried by a `"tracker-batch-reid"` (batch level) or
   * `"tracker-object-reid"` (object level) meta; undefined for other kinds.
   *
   * @example
   * ```ts
   * const reid = obj.userMetaItems.find((user) => user.kind === "tracker-object-reid")?.asReid();
   * ```
   */
  asReid(): ReidMeta | undefined {
    return this.#read("asReid");
  }

  /**
   * nvdspreprocess's batch meta carried by a `"preprocess-batch"` meta (batch level);
   * undefined for other kinds.
   *
   * @example
   * ```ts
   * const rois = batch.userMetaItems.flatMap((user) => user.asPreprocessBatch()?.rois ?? []);
   * ```
   */
  asPreprocessBatch(): PreprocessBatchMeta | undefined {
    return this.#read("asPreprocessBatch");
  }

  /**
   * The ROI carried by a `"roi"` meta (`NVDS_ROI_META`, frame or object level); undefined for
   * other kinds.
   *
   * @example
   * ```ts
   * const rois = frame.userMetaItems.map((user) => user.asRoi()).filter((roi) => roi !== undefined);
   * ```
   */
  asRoi(): RoiMeta | undefined {
    return this.#read("asRoi");
  }

  #read<K extends keyof ComponentReads>(reader: K): ComponentReads[K] {
    this.#core.check(`${reader}()`, "calling");
    if (this.#component === undefined) {
      const scope = this.#core.scope;
      this.#component = readComponent(scope.meta, scope.callId, this.#index, this.#kind);
    }
    return this.#component[reader];
  }

  /**
   * The meta's values as a plain object, safe to keep after transform() returns.
   *
   * @example
   * ```ts
   * this.history.push(user.toJSON());
   * ```
   */
  toJSON(): UserMetaJSON {
    this.#core.check("toJSON()");
    const json: UserMetaJSON = { metaType: this.#metaType, metaTypeId: this.metaTypeId, kind: this.#kind };
    if (this.#kind === "json") json.json = this.json;
    else if (this.#kind === "bytes" && this.#payload !== undefined) json.bytes = Array.from(this.#payload);
    else if (this.#kind === "tensor-output") json.tensorOutput = this.asTensorOutput()?.toJSON();
    else if (this.#kind === "event-msg") json.eventMsg = this.asEventMsg();
    else if (this.#kind === "analytics-frame") json.analyticsFrame = this.asAnalyticsFrame();
    else if (this.#kind === "analytics-object") json.analyticsObject = this.asAnalyticsObject();
    else if (this.#kind === "segmentation" && this.#core.status === ADDED) json.segmentation = this.asSegmentation()?.toJSON();
    return json;
  }

  /**
   * nvdsanalytics' frame meta carried by an `"analytics-frame"` meta (`NvDsAnalyticsFrameMeta`);
   * undefined for other kinds.
   *
   * @example
   * ```ts
   * const analytics = frame.userMetaItems.map((user) => user.asAnalyticsFrame()).find((found) => found !== undefined);
   * const inZone = analytics?.objInROIcnt["Zone1"] ?? 0;
   * ```
   */
  asAnalyticsFrame(): AnalyticsFrameMeta | undefined {
    return this.#carried("asAnalyticsFrame", "analytics-frame", (scope, index) =>
      frozenAnalytics<AnalyticsFrameMeta>(scope.meta.readAnalyticsFrame(scope.callId, index), ANALYTICS_FRAME_MEMBERS),
    );
  }

  /**
   * nvdsanalytics' object meta carried by an `"analytics-object"` meta (`NvDsAnalyticsObjInfo`);
   * undefined for other kinds.
   *
   * @example
   * ```ts
   * const info = obj.userMetaItems.map((user) => user.asAnalyticsObject()).find((found) => found !== undefined);
   * if (info?.roiStatus.includes("Zone1")) this.inZone.add(obj.objectId);
   * ```
   */
  asAnalyticsObject(): AnalyticsObjectInfo | undefined {
    return this.#carried("asAnalyticsObject", "analytics-object", (scope, index) =>
      frozenAnalytics<AnalyticsObjectInfo>(scope.meta.readAnalyticsObject(scope.callId, index), ANALYTICS_OBJECT_MEMBERS),
    );
  }

  /**
   * The segmentation result carried by a `"segmentation"` meta (`NvDsInferSegmentationMeta`),
   * nvinfer's or one set with {@link UserMeta.setSegmentation} and added; undefined for other
   * kinds and before it is added.
   *
   * @example
   * ```ts
   * const segmentation = user.asSegmentation();
   * if (segmentation) this.log.debug(`${segmentation.width} x ${segmentation.height}, ${segmentation.classes} classes`);
   * ```
   */
  asSegmentation(): SegmentationMeta | undefined {
    const added = this.#core.status === ADDED;
    return this.#carried("asSegmentation", "segmentation", (scope, index) => new SegmentationMeta(scope, scope.meta.readSegmentation(scope.callId, index)), added);
  }

  /**
   * Makes this meta a segmentation result (`NvDsInferSegmentationMeta`, type
   * `NVDSINFER_SEGMENTATION_META`), as nvinfer attaches for a segmentation network: add it to a
   * frame (full-frame) or an object and nvsegvisual, or any element reading nvinfer's
   * segmentation, finds it. The maps are copied when it is added; buffer copies (tee) carry it.
   * Adding it sets the frame's `inferDone` (the object's frame for an object), as nvinfer does.
   *
   * @example
   * ```ts
   * const user = batch.acquireUserMeta();
   * user.setSegmentation({ classes: 2, width: 64, height: 64, classMap, classProbabilities, uniqueId: 3 });
   * frame.addUserMeta(user);
   * ```
   */
  setSegmentation(segmentation: SegmentationInit): void {
    this.#core.check("setSegmentation()", "writing");
    this.#segmentation = checkSegmentation(segmentation, "UserMeta.setSegmentation segmentation");
    this.#metaType = "";
    this.#kind = "segmentation";
    this.#payload = undefined;
    this.#jsonParsed = false;
  }

  static {
    userInternals = {
      add(scope, level, owner, user, operationOwner) {
        if (!(user instanceof UserMeta)) notAHandle(TYPE, `${operationOwner}.addUserMeta user`, user);
        checkSameCall(user.#core.scope, scope, TYPE, "addUserMeta");
        checkAddable(user.#core.status, TYPE, "addUserMeta", "removeUserMeta");
        const meta = scope.meta;
        if (user.#kind === "event-msg") {
          user.#index = meta.addEventMsg(scope.callId, level, owner, user.#eventMsg!);
        } else if (user.#kind === "segmentation" && user.#segmentation !== undefined) {
          user.#index = addSegmentation(scope, level, owner, user.#segmentation);
          user.#segmentation = undefined;
        } else {
          if (user.#kind !== "bytes" && user.#kind !== "json") {
            throw new MetaStateError(`Expected a UserMeta with a bytes, JSON, event message or segmentation payload for addUserMeta but received a ${user.#kind} meta`);
          }
          const metaType = checkUserMetaType(user.#metaType, "UserMeta.metaType");
          const payload = user.#payload ?? new Uint8Array(0);
          user.#index = meta.addUserMeta(scope.callId, level, owner, metaType, user.#kind === "json" ? PAYLOAD_JSON : PAYLOAD_BYTES, payload);
        }
        user.#core.status = ADDED;
        user.#level = level;
        user.#owner = owner;
        (scope.userMetas ??= new Map()).set(user.#index, user);
      },
      remove(scope, level, owner, user, operationOwner, ownerName) {
        if (!(user instanceof UserMeta)) notAHandle(TYPE, `${operationOwner}.removeUserMeta user`, user);
        checkSameCall(user.#core.scope, scope, TYPE, "removeUserMeta");
        if (user.#core.status !== ADDED || user.#level !== level || user.#owner !== owner) {
          notIn(user.#core.status, TYPE, ownerName, "removeUserMeta", "removeUserMeta");
        }
        const meta = scope.meta;
        meta.removeUserMeta(scope.callId, level, owner, user.#index);
        user.#core.status = REMOVED;
        scope.userMetas?.delete(user.#index);
      },
      list(scope, level, owner) {
        return Object.freeze(scope.meta.listUserMetas(scope.callId, level, owner).map((read) => fromNative(scope, level, owner, read)));
      },
    };

    function fromNative(scope: TransformScope, level: UserMetaLevel, owner: number, read: NativeUserMeta): UserMeta {
      const known = scope.userMetas?.get(read.index);
      if (known !== undefined) {
        known.#metaTypeId = read.metaTypeId;
        return known;
      }
      const user = new UserMeta(scope);
      user.#core.status = ADDED;
      user.#index = read.index;
      user.#level = level;
      user.#owner = owner;
      user.#metaType = read.metaType;
      user.#metaTypeId = read.metaTypeId;
      user.#kind = KINDS[read.kind] ?? "foreign";
      user.#payload = read.kind === PAYLOAD_BYTES || read.kind === PAYLOAD_JSON ? (read.payload ?? new Uint8Array(0)) : undefined;
      (scope.userMetas ??= new Map()).set(read.index, user);
      return user;
    }
  }
}

