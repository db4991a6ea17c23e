// The members of nvtracker's, nvdspreprocess's and the sensor information's structs are rows of
// the table (sdk/src/protocol/meta-fields.mjs: TRACKER_STRUCTS, PREPROCESS_STRUCTS, SENSOR_INFO):
// a made-up member added as one row reaches, through `npm run generate` alone, the model struct,
// the DeepStream backend's reader, the binding's interface the SDK reads, the SDK's converter
// descriptor and the public type; hand-written code names no member.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PREPROCESS_STRUCTS, TRACKER_STRUCTS } from "../sdk/src/protocol/meta-fields.mjs";

const root = join(__dirname, "..");

type StaleFiles = () => Map<string, string>;

describe("a component struct's member is one table row", () => {
  it("adding one to NvDsTargetMiscDataFrame and one to NvDsRoiMeta regenerates every place that reads them", async () => {
    (TRACKER_STRUCTS.TrackerTargetFrame!.members as unknown[]).push({
      name: "madeUpScore",
      model: "made_up_score",
      c: "float",
      ts: "number",
      doc: "A made-up member (`madeUpScore`).",
    });
    (PREPROCESS_STRUCTS.RoiMeta!.members as unknown[]).push({
      name: "madeUpLabel",
      model: "made_up_label",
      c: "std::optional<std::string>",
      ts: "string | undefined",
      js: "optional",
      doc: "A made-up member (`made_up_label`).",
    });
    // The generator reads the table when it is imported: this file's module graph has the rows above.
    const { staleFiles } = (await import(join(root, "scripts", "generate-meta-fields.mjs"))) as { staleFiles: StaleFiles };
    const stale = staleFiles();
    expect([...stale.keys()].sort()).toEqual(
      [
        "native-host/src/meta/component_meta_deepstream.cpp",
        "native-host/src/meta/preprocess_meta.h",
        "native-host/src/meta/tracker_meta.h",
        "sdk/src/metadata/preprocess-meta.ts",
        "sdk/src/metadata/tracker-meta.ts",
        "sdk/src/native/component-meta-binding.ts",
        "sdk/src/protocol/component-fields.ts",
      ].sort(),
    );
    expect(stale.get("native-host/src/meta/tracker_meta.h")).toContain("float made_up_score = 0;");
    expect(stale.get("native-host/src/meta/preprocess_meta.h")).toContain("std::optional<std::string> made_up_label;");
    const reader = stale.get("native-host/src/meta/component_meta_deepstream.cpp")!;
    expect(reader).toContain("  to->made_up_score = from.madeUpScore;\n}");
    expect(reader).toContain("  to->made_up_label = text_or_null(from.made_up_label);\n}");
    const binding = stale.get("sdk/src/native/component-meta-binding.ts")!;
    expect(binding).toMatch(/interface NativeTrackerTargetFrame \{[^}]*madeUpScore: number;\n\}/);
    expect(binding).toMatch(/interface NativeRoi \{[^}]*madeUpLabel: string \| null;\n\}/);
    const fields = stale.get("sdk/src/protocol/component-fields.ts")!;
    expect(fields).toContain('{ name: "madeUpScore", js: "value" },\n  ],\n  TrackerTarget: [');
    expect(fields).toContain('{ name: "madeUpLabel", js: "optional" },\n  ],\n  PreprocessTensor: [');
    expect(stale.get("sdk/src/metadata/tracker-meta.ts")).toContain("  readonly madeUpScore: number;\n  // end generated: TrackerTargetFrame members");
    expect(stale.get("sdk/src/metadata/preprocess-meta.ts")).toContain("  readonly madeUpLabel: string | undefined;\n  // end generated: RoiMeta members");
  });
});
