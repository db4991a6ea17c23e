// The libnvds_meta.so that is loaded must be the DeepStream whose headers the plugin was built
// with: the loader's search path (where an installed DeepStream wins) can hand it another one,
// and DeepStream 8.x and 9.x export the same functions over structs of other sizes. The check
// reads the sizes NVIDIA's library records in its pools (NvDsMetaPool::element_size). Here a
// libnvds_meta.so is built from NVIDIA's source (DS_META_SOURCE) with one struct grown, as the
// next version's would be, in a folder laid out like an installed DeepStream 8.0.
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launch, runGst, scratchDir } from "./helpers/gst";
import { fixturesDist, nativeBackend } from "./helpers/projects";

const source = process.env.DS_META_SOURCE;
// The folder of NVIDIA's libraries the run uses (scripts/test-deepstream.sh puts it first on LD_LIBRARY_PATH).
const libraryDir = (process.env.LD_LIBRARY_PATH ?? "").split(":").find((dir) => dir && existsSync(join(dir, "libnvdsgst_meta.so")));

describe.skipIf(nativeBackend !== "deepstream" || source === undefined || libraryDir === undefined)(
  "a libnvds_meta.so of another DeepStream version (DeepStream build with DS_META_SOURCE only)",
  () => {
    let installed: string;

    beforeAll(() => {
      installed = join(scratchDir("deepstream-8.0"), "deepstream-8.0");
      mkdirSync(join(installed, "lib"), { recursive: true });
      cpSync(join(source!, "includes"), join(installed, "includes"), { recursive: true });
      cpSync(join(source!, "src", "utils", "nvdsmeta"), join(installed, "src", "utils", "nvdsmeta"), { recursive: true });
      execFileSync("chmod", ["-R", "u+w", installed]);
      // MAX_USER_FIELDS sizes misc_frame_info, misc_obj_info, ...: every meta grows, the batch's pools stay where they are.
      const header = join(installed, "includes", "nvdsmeta.h");
      writeFileSync(header, readFileSync(header, "utf8").replace("#define MAX_USER_FIELDS 4", "#define MAX_USER_FIELDS 6"));
      execFileSync("make", ["-C", join(installed, "src", "utils", "nvdsmeta"), `LIB_INSTALL_DIR=${join(installed, "lib")}/`, "all", "install"], {
        stdio: "pipe",
      });
      copyFileSync(join(libraryDir!, "libnvdsgst_meta.so"), join(installed, "lib", "libnvdsgst_meta.so"));
      writeFileSync(join(installed, "version"), "Version: 8.0\n");
    }, 180_000);

    it("fails the pipeline with one error naming both versions, the library and the struct that differs", () => {
      const run = launch("videotestsrc num-buffers=1 ! framemark ! fakesink", {
        dists: [fixturesDist],
        env: { DS_ELEMENT_DEEPSTREAM_LIB_DIR: join(installed, "lib") },
      });
      expect(run.signal, run.output).toBeNull();
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(
        new RegExp(
          `framemark0: built against DeepStream 9\\.1 but loaded ${join(installed, "lib", "libnvds_meta.so").replace(/[.]/g, "\\.")}, ` +
            `which is DeepStream 8\\.0: its NvDsFrameMeta is (\\d+) bytes, (\\d+) in 9\\.1's headers\\. ` +
            "Point DS_ELEMENT_DEEPSTREAM_LIB_DIR at the lib/ folder of DeepStream 9\\.1",
        ),
      );
      const [, loaded, built] = /NvDsFrameMeta is (\d+) bytes, (\d+) in/.exec(run.output)!;
      expect(Number(loaded) - Number(built)).toBe(2 * 8);
      expect(run.output.match(/^ERROR: from element/gm)).toHaveLength(1);
    });

    it("without a version file, names the version from the deepstream-X.Y folder", () => {
      rmSync(join(installed, "version"));
      const run = launch("videotestsrc num-buffers=1 ! framemark ! fakesink", {
        dists: [fixturesDist],
        env: { DS_ELEMENT_DEEPSTREAM_LIB_DIR: join(installed, "lib") },
      });
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(/framemark0: built against DeepStream 9\.1 but loaded .*, which is DeepStream 8\.0: its NvDsFrameMeta is/);
    });

    it("still lists its elements", () => {
      const inspected = runGst("gst-inspect-1.0", ["framemark"], { dists: [fixturesDist], env: { DS_ELEMENT_DEEPSTREAM_LIB_DIR: join(installed, "lib") } });
      expect(inspected.code, inspected.output).toBe(0);
    });

    it("the libraries the run was built with pass the same check", () => {
      const run = launch("videotestsrc num-buffers=1 ! framemark ! fakesink", { dists: [fixturesDist], env: { DS_ELEMENT_DEEPSTREAM_LIB_DIR: libraryDir! } });
      expect(run.code, run.output).toBe(0);
    });
  },
);
