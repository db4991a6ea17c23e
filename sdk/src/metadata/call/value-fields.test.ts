// Every member of the values that travel as JS objects (LabelInfo, ClassifierMeta, a display
// meta's rectangles) and of an object's rectParams, from the table (protocol/meta-fields.mjs),
// by its kind: written in TypeScript and read back through native code, written upstream (the
// testing harness) and read by an element, refused in TypeScript naming the member, and
// refused by native code naming the DeepStream field when sent what TypeScript would refuse.
// A member added to the table is covered here without a line of its own; on
// `npm run test:deepstream` the values go through NVIDIA's NvDsBatchMeta.
import { describe, expect, it } from "vitest";
import { Element, type BatchMeta as Batch } from "../../index.js";
import type { NativeClassifier, NativeDisplayContent } from "../../native/meta-binding.js";
import { CLASSIFIER, LABEL_INFO, STRUCTS, type Field } from "../../protocol/meta-fields.mjs";
import {
  ARROW_PARAMS_FIELDS,
  CIRCLE_PARAMS_FIELDS,
  CLASSIFIER_FIELDS,
  FONT_PARAMS_FIELDS,
  LINE_PARAMS_FIELDS,
  LABEL_INFO_FIELDS,
  RECT_PARAMS_FIELDS,
  TEXT_PARAMS_FIELDS,
  type ValueField,
  type ValueKind,
} from "../../protocol/value-fields.js";
import { loadStandaloneBinding } from "../../native/loader.js";
import { inCall, makeBuffer, requireStandaloneBinding } from "../../test-support/standalone-binding.js";
import { runTransform } from "../../testing/index.js";
import type { BatchMeta } from "../batch-meta.js";
import { ClassifierMeta } from "../classifier-meta.js";
import { LabelInfo } from "../label-info.js";
import { objectCoreOf } from "../object-meta.js";

type Kind = ValueKind | "ColorParams" | "FontParams";

/** Per kind: a value no default equals; one TypeScript refuses and the start of its message; one native code refuses. */
interface KindCase {
  value: unknown;
  refused: { value: unknown; what: string };
  native?: { value: unknown; what: string; suffix?: string };
}

const CASES: Record<Kind, KindCase> = {
  int32: { value: -2147483648, refused: { value: 2147483648, what: "an integer from -2147483648 to 2147483647" } },
  uint32: { value: 4294967295, refused: { value: -1, what: "an integer from 0 to 4294967295" } },
  flag: { value: true, refused: { value: 1, what: "a boolean" } },
  float: { value: -12.5, refused: { value: Number.NaN, what: "a finite number" }, native: { value: Number.NaN, what: "a finite number" } },
  floatSize: { value: 7.25, refused: { value: -1, what: "a finite number >= 0" }, native: { value: -1, what: "a finite number >= 0" } },
  unit: { value: 0.5, refused: { value: 2, what: "a number from 0 to 1" } },
  probability: { value: 0.5, refused: { value: 2, what: "a number from 0 to 1" }, native: { value: 2, what: "a number from 0 to 1" } },
  label: {
    value: "a label",
    refused: { value: "x".repeat(128), what: "at most 127 bytes (UTF-8)" },
    native: { value: "x".repeat(128), what: "at most 127 bytes (UTF-8)" },
  },
  text: {
    value: "a text",
    refused: { value: "a\0b", what: "a string without NUL characters" },
    native: { value: "a\0b", what: "a string without NUL characters" },
  },
  arrowHead: {
    value: "both",
    refused: { value: "up", what: '"start", "end" or "both"' },
    native: { value: 3, what: "an integer from 0 to 2" },
  },
  // Its members are cases of their own (TextParams.font.*), never written as a whole here.
  FontParams: { value: undefined, refused: { value: undefined, what: "" } },
  ColorParams: {
    value: { red: 1, green: 0.5, blue: 0.25, alpha: 0.75 },
    refused: { value: { red: 2 }, what: "a number from 0 to 1" },
    native: { value: { red: 2, green: 0, blue: 0, alpha: 1 }, what: "a number from 0 to 1", suffix: ".red" },
  },
};

/** A value of each kind that every check accepts. */
const ZERO: Record<Kind, unknown> = {
  int32: 0,
  uint32: 0,
  flag: false,
  float: 0,
  floatSize: 0,
  unit: 0,
  probability: 0,
  label: "",
  text: "",
  // Natively: END_HEAD.
  arrowHead: 1,
  FontParams: { name: "", size: 0, color: { red: 0, green: 0, blue: 0, alpha: 1 } },
  ColorParams: { red: 0, green: 0, blue: 0, alpha: 1 },
};

const META = { name: "valuefields", longName: "v", klass: "Filter", description: "v", author: "t <t@example.com>", caps: "ANY" } as const;
const members = (fields: readonly ValueField[]) => fields.filter((field) => !field.list).map((field) => [field.name, field] as const);
type Values = Record<string, unknown>;

/** The name native code gives a member in messages ("NvDsLabelInfo.result_prob"). */
function nativeName(owner: string, fields: readonly object[], name: string, suffix = ""): string {
  const found = (fields as Field[]).find((field) => field.name === name);
  if (found?.ds === undefined) throw new Error(`no DeepStream field for ${name} in the table`);
  return `${owner}.${found.ds}${suffix}`;
}

/** Runs `body` on a one-frame call with one object of the standalone binding. */
function inObjectCall(body: (batch: BatchMeta, callId: number, row: number, meta: ReturnType<typeof requireStandaloneBinding>["meta"]) => void): void {
  const addon = requireStandaloneBinding();
  const buffer = makeBuffer(addon.harness, [{ width: 64, height: 48 }]);
  try {
    inCall(addon, buffer, 1, (batch, call) => {
      const obj = batch.acquireObjectMeta();
      batch.frameItems[0]?.addObjectMeta(obj);
      body(batch, call.callId, objectCoreOf(obj)?.row ?? -1, addon.meta);
    });
  } finally {
    addon.harness.releaseBuffer(buffer);
  }
}

/** A native value with every member of `fields` valid, and the given ones. */
const nativeValue = (fields: readonly ValueField[], values: Values): Values => ({
  ...Object.fromEntries(fields.map((member) => [member.name, ZERO[member.kind]])),
  ...values,
});
const nativeClassifier = (values: Values, labels: Values[] = []) =>
  ({
    ...nativeValue(CLASSIFIER_FIELDS, { numLabels: labels.length, ...values }),
    labels: labels.map((label) => nativeValue(LABEL_INFO_FIELDS, label)),
  }) as unknown as NativeClassifier;

/** A value record: how an element writes one member, where it is read back, how upstream and native code get it. */
interface RecordCase {
  owner: string;
  fields: readonly ValueField[];
  /** The DeepStream name in native messages, and the table's rows. */
  ds: string;
  rows: readonly object[];
  /** A new handle whose member `name` is `value`, added to `obj` (an object not yet in a frame). */
  write(batch: Batch, name: string, value: unknown): void;
  /** The written handle in runTransform's output or in a live frame. */
  read(frame: { objectItems: readonly unknown[] } | undefined): Values;
  /** The ObjectInit member that carries it upstream. */
  upstream(name: string, value: unknown): Values;
  acquire(batch: BatchMeta): Values;
  native(name: string, value: unknown): NativeClassifier;
}

type Frame = { objectItems: readonly { classifierItems: readonly { labelInfoItems: readonly unknown[] }[] }[] };

const RECORDS: RecordCase[] = [
  {
    owner: "LabelInfo",
    fields: LABEL_INFO_FIELDS,
    ds: `${LABEL_INFO.ds}[0]`,
    rows: LABEL_INFO.fields,
    write: (batch, name, value) => {
      const obj = batch.acquireObjectMeta();
      const classifier = batch.acquireClassifierMeta();
      const label = batch.acquireLabelInfo() as LabelInfo & Values;
      label[name] = value;
      classifier.addLabelInfo(label);
      obj.addClassifierMeta(classifier);
      batch.frameItems[0]?.addObjectMeta(obj);
    },
    read: (frame) => (frame as Frame | undefined)?.objectItems[0]?.classifierItems[0]?.labelInfoItems[0] as Values,
    upstream: (name, value) => ({ classifiers: [{ labels: [{ [name]: value }] }] }),
    acquire: (batch) => batch.acquireLabelInfo() as LabelInfo & Values,
    native: (name, value) => nativeClassifier({}, [{ [name]: value }]),
  },
  {
    owner: "ClassifierMeta",
    fields: CLASSIFIER_FIELDS,
    ds: CLASSIFIER.ds,
    rows: CLASSIFIER.fields,
    write: (batch, name, value) => {
      const obj = batch.acquireObjectMeta();
      const classifier = batch.acquireClassifierMeta() as ClassifierMeta & Values;
      classifier[name] = value;
      obj.addClassifierMeta(classifier);
      batch.frameItems[0]?.addObjectMeta(obj);
    },
    read: (frame) => (frame as Frame | undefined)?.objectItems[0]?.classifierItems[0] as unknown as Values,
    upstream: (name, value) => ({ classifiers: [{ [name]: value }] }),
    acquire: (batch) => batch.acquireClassifierMeta() as ClassifierMeta & Values,
    native: (name, value) => nativeClassifier({ [name]: value }),
  },
];

describe.each(RECORDS.flatMap((record) => members(record.fields).map(([name, field]) => [`${record.owner}.${name}`, record, name, field] as const)))(
  "%s",
  (_title, record, name, field) => {
    const { refused, native } = CASES[field.kind];

    it("keeps what an element writes, as native code stores it", () =>
      storedOrRefusedAsOlder(record.rows, field, async (value) => {
        class Writer extends Element.define(META) {
          transform(batch: Batch) {
            record.write(batch, name, value);
          }
        }
        // runTransform gives the buffer's metadata as toJSON gives it.
        const out = await runTransform(Writer, { frames: [{}] });
        expect(record.read(out.frameItems[0])[name]).toEqual(value);
      }),
    );

    it("reaches an element as upstream wrote it", () =>
      storedOrRefusedAsOlder(record.rows, field, async (value) => {
        let seen: unknown;
        class Reader extends Element.define(META) {
          transform(batch: Batch) {
            seen = record.read(batch.frameItems[0] as unknown as Frame)[name];
          }
        }
        await runTransform(Reader, { frames: [{ objects: [record.upstream(name, value)] }] });
        expect(seen).toEqual(value);
      }),
    );

    it("refuses a value of the wrong range, naming the member, and changes nothing", () => {
      inObjectCall((batch) => {
        const handle = record.acquire(batch);
        const before = handle[name];
        expect(() => (handle[name] = refused.value)).toThrow(`Expected ${refused.what} for ${record.owner}.${name} but received`);
        expect(handle[name]).toEqual(before);
      });
    });

    it.runIf(native !== undefined)("is refused by native code, which names the DeepStream field", () => {
      inObjectCall((_batch, callId, row, meta) => {
        const bad = native as NonNullable<KindCase["native"]>;
        const where = nativeName(record.ds, record.rows, name, bad.suffix);
        expect(() => meta.addClassifier(callId, row, record.native(name, bad.value))).toThrow(`Expected ${bad.what} for ${where} but received`);
      });
    });
  },
);

const RECT_MEMBERS = [...(STRUCTS.RectParams?.members ?? []), ...(STRUCTS.BboxCoords?.members ?? [])];

/**
 * Runs `roundTrip` of member `field` (one of the table's `rows`) with a value no default equals.
 * A member newer than the DeepStream the build uses (its row's `deepstream.since`) cannot be
 * stored there: on that backend the write must then be refused, naming the member and the
 * release it is new in, with the build's release older than it (never dropped silently), and
 * the member's zero must still round-trip. Every other member must round-trip.
 */
async function storedOrRefusedAsOlder(rows: readonly object[], field: ValueField, roundTrip: (value: unknown) => Promise<void>): Promise<void> {
  const row = rows.find((member): member is Field => "name" in member && member.name === field.name);
  const since = row?.deepstream?.since;
  const { value } = CASES[field.kind];
  if (since === undefined || loadStandaloneBinding().harness.backend !== "deepstream") return roundTrip(value);
  const refusal = await roundTrip(value).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (refusal === undefined) return; // this DeepStream has the member: the round trip held
  const message = String(refusal);
  const found = /DeepStream (\d+)\.(\d+) [^;]*; \w+::(\w+) is new in (\d+)\.(\d+)/.exec(message);
  expect(found, message).not.toBeNull();
  const [, builtMajor, builtMinor, member, sinceMajor, sinceMinor] = found!;
  expect(member).toBe(row?.ds);
  expect(`${sinceMajor}.${sinceMinor}`).toBe(since);
  expect(Number(builtMajor) * 1000 + Number(builtMinor)).toBeLessThan(Number(sinceMajor) * 1000 + Number(sinceMinor));
  await roundTrip(ZERO[field.kind]);
}

describe.each(RECT_PARAMS_FIELDS.map((field) => [field.name, field] as const))("RectParams.%s", (name, field) => {
  const { refused, native } = CASES[field.kind];

  it("keeps what an element writes into an object's rectParams and a display meta's rect, as native code stores it", () =>
    storedOrRefusedAsOlder(RECT_MEMBERS, field, async (value) => {
      class Writer extends Element.define(META) {
        transform(batch: Batch) {
          const frame = batch.frameItems[0];
          const obj = batch.acquireObjectMeta();
          (obj.rectParams as unknown as Values)[name] = value;
          frame?.addObjectMeta(obj);
          const display = batch.acquireDisplayMeta();
          display.addRect({ [name]: value });
          frame?.addDisplayMeta(display);
        }
      }
      const out = await runTransform(Writer, { frames: [{}] });
      const frame = out.frameItems[0];
      expect((frame?.objectItems[0]?.rectParams as unknown as Values)[name]).toEqual(value);
      expect((frame?.displayMetaItems[0]?.rects[0] as unknown as Values)[name]).toEqual(value);
    }),
  );

  it("reaches an element as upstream wrote it", () =>
    storedOrRefusedAsOlder(RECT_MEMBERS, field, async (value) => {
      let seen: unknown;
      class Reader extends Element.define(META) {
        transform(batch: Batch) {
          // A colour is a live view, valid during the call only: keep its plain copy.
          seen = JSON.parse(JSON.stringify((batch.frameItems[0]?.objectItems[0]?.rectParams as unknown as Values)[name]));
        }
      }
      await runTransform(Reader, { frames: [{ objects: [{ rectParams: { [name]: value } }] }] });
      expect(seen).toEqual(value);
    }),
  );

  it("refuses a value of the wrong range, naming the member, and changes nothing", () => {
    inObjectCall((batch) => {
      const rect = batch.acquireObjectMeta().rectParams as unknown as Values;
      const before = JSON.stringify(rect[name]);
      const suffix = field.kind === "ColorParams" ? ".red" : "";
      expect(() => (rect[name] = refused.value)).toThrow(`Expected ${refused.what} for ObjectMeta.rectParams.${name}${suffix} but received`);
      expect(() => batch.acquireDisplayMeta().addRect({ [name]: refused.value })).toThrow(`Expected ${refused.what} for`);
      expect(JSON.stringify(rect[name])).toEqual(before);
    });
  });

  it.runIf(native !== undefined)("is refused by native code in a display meta, which names the DeepStream field", () => {
    inObjectCall((_batch, callId, _row, meta) => {
      const bad = native as NonNullable<KindCase["native"]>;
      const content = {
        rects: [nativeValue(RECT_PARAMS_FIELDS, { [name]: bad.value })],
        texts: [],
        lines: [],
        arrows: [],
        circles: [],
      } as unknown as NativeDisplayContent;
      const where = nativeName("NvDsDisplayMeta.rect_params[0]", RECT_MEMBERS, name, bad.suffix);
      expect(() => meta.addDisplay(callId, 0, content)).toThrow(`Expected ${bad.what} for ${where} but received`);
    });
  });
});

/** A text's members, its font's as `font.name`: each with the path to it in a value. */
type TextMember = readonly [string, readonly string[], ValueField];
const TEXT_MEMBERS = TEXT_PARAMS_FIELDS.flatMap((field): TextMember[] =>
  field.kind === "FontParams" ? FONT_PARAMS_FIELDS.map((font) => [`font.${font.name}`, ["font", font.name], font]) : [[field.name, [field.name], field]],
);
/** `{ font: { name: value } }` for the path ["font", "name"]. */
const nest = (path: readonly string[], value: unknown): Values => path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Values;
const dig = (value: unknown, path: readonly string[]): unknown => path.reduce<unknown>((inner, key) => (inner as Values | undefined)?.[key], value);

describe.each(TEXT_MEMBERS)("TextParams.%s", (name, path, field) => {
  const { value, refused, native } = CASES[field.kind];
  const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

  it("keeps what an element writes into an object's textParams and a display meta's text, as native code stores it", async () => {
    class Writer extends Element.define(META) {
      transform(batch: Batch) {
        const frame = batch.frameItems[0];
        const obj = batch.acquireObjectMeta();
        const parent = dig(obj.textParams, path.slice(0, -1)) as Values;
        parent[path[path.length - 1] as string] = value;
        frame?.addObjectMeta(obj);
        const display = batch.acquireDisplayMeta();
        display.addText(nest(path, value));
        frame?.addDisplayMeta(display);
      }
    }
    const out = await runTransform(Writer, { frames: [{}] });
    const frame = out.frameItems[0];
    expect(dig(frame?.objectItems[0]?.textParams, path)).toEqual(value);
    expect(dig(frame?.displayMetaItems[0]?.texts[0], path)).toEqual(value);
  });

  it("reaches an element as upstream wrote it", async () => {
    let seen: unknown;
    class Reader extends Element.define(META) {
      transform(batch: Batch) {
        seen = plain(dig(batch.frameItems[0]?.objectItems[0]?.textParams, path));
      }
    }
    await runTransform(Reader, { frames: [{ objects: [{ textParams: nest(path, value) }] }] });
    expect(seen).toEqual(value);
  });

  it("refuses a value of the wrong range, naming the member, and changes nothing", () => {
    inObjectCall((batch) => {
      const text = batch.acquireObjectMeta().textParams;
      const parent = dig(text, path.slice(0, -1)) as Values;
      const key = path[path.length - 1] as string;
      const before = JSON.stringify(parent[key]);
      const suffix = field.kind === "ColorParams" ? ".red" : "";
      expect(() => (parent[key] = refused.value)).toThrow(`Expected ${refused.what} for ObjectMeta.textParams.${name}${suffix} but received`);
      expect(() => batch.acquireDisplayMeta().addText(nest(path, refused.value))).toThrow(`Expected ${refused.what} for`);
      expect(JSON.stringify(parent[key])).toEqual(before);
    });
  });

  it.runIf(native !== undefined)("is refused by native code in a display meta, which names the DeepStream field", () => {
    inObjectCall((_batch, callId, _row, meta) => {
      const bad = native as NonNullable<KindCase["native"]>;
      const text = nativeValue(TEXT_PARAMS_FIELDS, {});
      const content = {
        rects: [],
        texts: [{ ...text, ...(path.length > 1 ? { font: { ...(text.font as Values), ...nest(path.slice(1), bad.value) } } : nest(path, bad.value)) }],
        lines: [],
        arrows: [],
        circles: [],
      } as unknown as NativeDisplayContent;
      const rows = [...(STRUCTS.TextParams?.members ?? []), ...((STRUCTS.FontParams?.members ?? []) as Field[]).map((m) => ({ ...m, ds: `font_params.${m.ds}` }))];
      const where = nativeName("NvDsDisplayMeta.text_params[0]", rows, path[path.length - 1] as string, bad.suffix);
      expect(() => meta.addDisplay(callId, 0, content)).toThrow(`Expected ${bad.what} for ${where} but received`);
    });
  });
});

/** The display meta's elements other than rects and texts: how an element adds one, where it is read back. */
const ELEMENTS = [
  { owner: "LineParams", fields: LINE_PARAMS_FIELDS, add: "addLine", list: "lines", ds: "line_params" },
  { owner: "ArrowParams", fields: ARROW_PARAMS_FIELDS, add: "addArrow", list: "arrows", ds: "arrow_params" },
  { owner: "CircleParams", fields: CIRCLE_PARAMS_FIELDS, add: "addCircle", list: "circles", ds: "circle_params" },
] as const;

describe.each(ELEMENTS.flatMap((element) => element.fields.map((field) => [`${element.owner}.${field.name}`, element, field] as const)))(
  "%s",
  (_title, element, field) => {
    const { value, refused, native } = CASES[field.kind];
    const { name } = field;
    type Adder = Record<string, (init: Values) => unknown>;

    it("keeps what an element writes into a display meta, as native code stores it", async () => {
      class Writer extends Element.define(META) {
        transform(batch: Batch) {
          const display = batch.acquireDisplayMeta();
          (display as unknown as Adder)[element.add]?.({ [name]: value });
          batch.frameItems[0]?.addDisplayMeta(display);
        }
      }
      const out = await runTransform(Writer, { frames: [{}] });
      const items = (out.frameItems[0]?.displayMetaItems[0] as unknown as Record<string, Values[]>)[element.list];
      expect(items?.[0]?.[name]).toEqual(value);
    });

    it("refuses a value of the wrong range, naming the member", () => {
      inObjectCall((batch) => {
        const display = batch.acquireDisplayMeta() as unknown as Adder;
        const suffix = field.kind === "ColorParams" ? ".red" : "";
        expect(() => display[element.add]?.({ [name]: refused.value })).toThrow(`Expected ${refused.what} for`);
        expect(() => display[element.add]?.({ [name]: refused.value })).toThrow(`.${name}${suffix} but received`);
      });
    });

    it.runIf(native !== undefined)("is refused by native code in a display meta, which names the DeepStream field", () => {
      inObjectCall((_batch, callId, _row, meta) => {
        const bad = native as NonNullable<KindCase["native"]>;
        const content = { rects: [], texts: [], lines: [], arrows: [], circles: [] } as Record<string, Values[]>;
        content[element.list] = [nativeValue(element.fields, { [name]: bad.value })];
        const where = nativeName(`NvDsDisplayMeta.${element.ds}[0]`, STRUCTS[element.owner]?.members ?? [], name, bad.suffix);
        expect(() => meta.addDisplay(callId, 0, content as unknown as NativeDisplayContent)).toThrow(`Expected ${bad.what} for ${where} but received`);
      });
    });
  },
);
