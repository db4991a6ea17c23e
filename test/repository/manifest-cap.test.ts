// The largest element.json is one fact in two languages: the host plugin's kMaxManifestBytes
// (native-host/src/gst/manifest.h) and the SDK's MAX_MANIFEST_BYTES (sdk/src/protocol/manifest.ts),
// under which the host's bundle check (sdk/src/host-runtime/manifest-agreement.ts) reads element.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { MAX_MANIFEST_BYTES } from "../../sdk/src/protocol/manifest";

it("the SDK's MAX_MANIFEST_BYTES is the host plugin's kMaxManifestBytes", () => {
  const header = readFileSync(join(__dirname, "..", "..", "native-host", "src", "gst", "manifest.h"), "utf8");
  const match = /kMaxManifestBytes = size_t\{(\d+)\} << (\d+);/.exec(header);
  expect(match, "kMaxManifestBytes = size_t{N} << M; in manifest.h").not.toBeNull();
  expect(Number(match![1]) * 2 ** Number(match![2])).toBe(MAX_MANIFEST_BYTES);
});
