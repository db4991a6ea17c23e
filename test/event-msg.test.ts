// Event messages (NvDsEventMsgMeta) written from TypeScript as deepstream-test4's probe writes
// them (the eventmsgwriter fixture: one per object of trackeddetector's, a vehicle object for a
// car, a person object for a person), through a tee with two branches:
// - on both backends, each branch's reader reads every message back (a copy of the buffer in at
//   least one branch: the portable backend's deep copy, or NVIDIA's nvds_batch_meta_copy_func
//   calling the meta's copy function under `npm run test:deepstream`);
// - on the DeepStream build, NVIDIA's own consumer, libnvds_msgconv (built from ../shared),
//   turns them into DeepStream-schema messages (payload-type 0, one per event) and minimal-schema
//   ones (payload-type 1, one per frame) on nvmsgconv's default path, on the buffer and on a
//   copy of it, whose release frees the copied messages; native-host/test/event_msg_test.cpp
//   reads them through NVIDIA's headers, copies and releases them, counting the live ones back
//   to 0, and runs again under valgrind, which must find nothing definitely lost.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runGst, scratchDir, type GstRun } from "./helpers/gst";
import { runNativeTest } from "./helpers/native-test";
import { consumersProgram, deepstreamLibDir, MSGCONV_CONFIG } from "./helpers/nvidia-consumers";
import { builtinDist, fixturesDist, nativeBackend } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const FRAMES = 6;
const SOURCE = `videotestsrc num-buffers=${FRAMES} ! video/x-raw,format=RGB,width=320,height=240`;
const WRITERS = "trackeddetector objects=2 ! eventmsgwriter";

/** What eventmsgwriter writes for object i (0: a person, 1: a car) of frame n (trackeddetector's boxes). */
function written(n: number, i: number): Json {
  const common = {
    bbox: { left: 10 + 20 * n, top: 20 + 60 * i, width: 40, height: 40 },
    frameId: n,
    trackingId: 1 + i,
    confidence: Math.fround(0.9 - i / 10),
    objectId: i === 0 ? "person" : "car",
    objClassId: i,
    sensorStr: "sensor-0",
    ts: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    sensorId: 0,
    placeId: 0,
    moduleId: 0,
    componentId: 0,
    location: { lat: 0, lon: 0, alt: 0 },
    coordinate: { x: 0, y: 0, z: 0 },
    objSignature: [],
    otherAttrs: "",
    videoPath: "",
  };
  return i === 0
    ? { ...common, type: "entry", objType: "person", person: { age: 45, gender: "male", hair: "black", cap: "none", apparel: "formal" } }
    : { ...common, type: "moving", objType: "vehicle", vehicle: { type: "sedan", make: "Bugatti", model: "M", color: "blue", region: "CA", license: "XX2" } };
}

const lines = (file: string): Json[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Json);

describe("event messages through a tee (both backends)", () => {
  let dir: string;
  let run: GstRun;

  beforeAll(() => {
    dir = scratchDir("event-msg");
    run = runGst(
      "gst-launch-1.0",
      ["-q", ...`${SOURCE} ! ${WRITERS} ! tee name=t t. ! queue ! metareader location=${join(dir, "b1.jsonl")} ! fakesink t. ! queue ! metareader location=${join(dir, "b2.jsonl")} ! fakesink`.split(" ")],
      { dists: [fixturesDist] },
    );
  });

  it("each branch reads every message as written, kind event-msg, type NVDS_EVENT_MSG_META (9)", () => {
    expect(run.code, run.output).toBe(0);
    for (const branch of ["b1.jsonl", "b2.jsonl"]) {
      const read = lines(join(dir, branch));
      expect(read, branch).toHaveLength(FRAMES);
      for (const [n, batch] of read.entries()) {
        const users = batch.frameItems[0].userMetaItems as Json[];
        expect(users.map((user) => [user.kind, user.metaTypeId]), `${branch} frame ${n}`).toEqual([
          ["event-msg", 9],
          ["event-msg", 9],
        ]);
        // A copy lists frame user metas in reverse (DeepStream prepends); compare by object.
        const messages = users.map((user) => user.eventMsg).sort((a, b) => a.trackingId - b.trackingId);
        expect(messages, `${branch} frame ${n}`).toEqual([written(n, 0), written(n, 1)]);
      }
    }
  });
});

describe.skipIf(nativeBackend !== "deepstream")("NVIDIA's nvmsgconv on the event messages (DeepStream build only)", () => {
  let run: GstRun;
  let payloads: Json[];

  beforeAll(() => {
    deepstreamLibDir();
    const dir = scratchDir("event-msg-msgconv");
    const config = join(dir, "msgconv_config.txt");
    writeFileSync(config, MSGCONV_CONFIG);
    const reader = `metareader location=${join(dir, "b2.jsonl")}`;
    run = runGst(
      consumersProgram(),
      ["events", config, `${SOURCE} ! ${WRITERS} ! tee name=t t. ! queue ! identity name=probe ! fakesink t. ! queue ! ${reader} ! fakesink`],
      { dists: [fixturesDist, builtinDist], timeoutMs: 120_000 },
    );
    payloads = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Json);
  });

  it("one DeepStream-schema payload per message and one minimal one per frame, on the buffer and on its copy", () => {
    expect(run.code, run.output).toBe(0);
    for (const copy of [0, 1]) {
      expect(payloads.filter((p) => p.copy === copy && p.schema === "deepstream")).toHaveLength(FRAMES * 2);
      expect(payloads.filter((p) => p.copy === copy && p.schema === "minimal")).toHaveLength(FRAMES);
    }
  });

  it("DeepStream schema: sensor, place, module from the configuration; the object's id, bbox, type and vehicle/person attributes from the message", () => {
    for (const p of payloads.filter((payload) => payload.schema === "deepstream")) {
      const message = JSON.parse(p.payload) as Json;
      const n = p.frameNum as number;
      const i = message.object.id === "1" ? 0 : 1;
      const event = written(n, i);
      expect(message, `frame ${n} object ${i} copy ${p.copy}`).toMatchObject({
        mdsversion: "1.0",
        "@timestamp": event.ts,
        sensor: { id: "camera-0", type: "Camera", description: "Entrance camera" },
        analyticsModule: { id: "module-0", source: "ds-element" },
        place: { id: "place-0", name: "endeavor", type: "garage" },
        event: { type: event.type },
        videoPath: "",
        object: {
          id: String(event.trackingId),
          bbox: { topleftx: event.bbox.left, toplefty: event.bbox.top, bottomrightx: event.bbox.left + 40, bottomrighty: event.bbox.top + 40 },
        },
      });
      if (i === 0) {
        // An entry of a person: the place's entrance (nvmsgconv's generate_place_object).
        expect(message.place.entrance).toMatchObject({ name: "walsh", lane: "lane1", level: "P2" });
        expect(message.object.person).toEqual({ age: 45, gender: "male", hair: "black", cap: "none", apparel: "formal", confidence: expect.closeTo(0.9, 6) });
        expect(message.object.vehicle).toBeUndefined();
      } else {
        // A moving vehicle: the place's aisle.
        expect(message.place.aisle).toMatchObject({ id: "walsh", name: "lane1", level: "P2" });
        expect(message.object.vehicle).toEqual({
          type: "sedan",
          make: "Bugatti",
          model: "M",
          color: "blue",
          licenseState: "CA",
          license: "XX2",
          confidence: expect.closeTo(0.8, 6),
        });
      }
    }
  });

  it("minimal schema: the frame's id, sensorStr, one line per message (id|left|top|right|bottom|type|#|attributes|confidence)", () => {
    for (const p of payloads.filter((payload) => payload.schema === "minimal")) {
      const n = p.frameNum as number;
      const message = JSON.parse(p.payload) as Json;
      expect(message).toMatchObject({ version: "4.0", id: String(n), "@timestamp": written(n, 0).ts, sensorId: "sensor-0" });
      const left = 10 + 20 * n;
      const conf = (value: number) => String(Number(Math.fround(value).toPrecision(6)));
      expect([...message.objects].sort()).toEqual(
        [`1|${left}|20|${left + 40}|60|Person|#|male|45|black|none|formal|${conf(0.9)}`, `2|${left}|80|${left + 40}|120|Vehicle|#|sedan|Bugatti|M|blue|XX2|CA|${conf(0.8)}`].sort(),
      );
    }
  });
});

describe.skipIf(nativeBackend !== "deepstream")("the NvDsEventMsgMeta on DeepStream's API, copied and released (DeepStream build only)", () => {
  const build = dirname((createRequire(__filename)(join(repoRoot, "native-host", "index.js")) as { buildDir: string }).buildDir);

  it("native-host/test/event_msg_test.cpp passes every check: deep copies, each release frees its own, none left", () => {
    const { run, output, summary } = runNativeTest(build, "dsnode-event-msg-test");
    expect(run.status, output).toBe(0);
    expect(output).toContain("ok - the vehicle message: every member, its NvDsVehicleObject in extMsg");
    expect(output).toContain("ok - the copies have their own struct, strings and extension objects");
    expect(output).toContain("ok - releasing the copy frees its 3: none left");
    expect(summary?.[2], output).toBe("0");
  });

  it("under valgrind: no invalid read or free, nothing definitely lost", () => {
    const run = spawnSync(
      "valgrind",
      ["--leak-check=full", "--errors-for-leak-kinds=definite", "--show-leak-kinds=definite", "--error-exitcode=99", join(build, "dsnode-event-msg-test")],
      { encoding: "utf8", timeout: 300_000 },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(run.stderr).toMatch(/ERROR SUMMARY: 0 errors/);
    expect(run.stdout).toMatch(/^\d+ passed, 0 failed$/m);
  }, 300_000);
});

