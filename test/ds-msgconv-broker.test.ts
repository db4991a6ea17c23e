// NVIDIA's nvmsgconv and nvmsgbroker, on what ds-element elements wrote (the trackeddetector
// fixture: detector + tracker ids + classifier; the ball-detector example, an InferenceElement;
// the detector and classifier templates): test/ds-consumers/nvidia_consumers.cpp runs NVIDIA's
// libnvds_msgconv on every frame behind them exactly as gst-nvmsgconv does with msg2p-newapi=1
// (NvDsMsg2pMetaInfo: one DeepStream-schema payload per object, one minimal-schema payload per
// frame), and sends the DeepStream-schema payloads through NVIDIA's libnvds_msgbroker with its
// Redis and MQTT protocol adaptors to a real redis-server and a real mosquitto, each started here
// on 127.0.0.1 (a free port, no persistence) and stopped after. The payloads must carry each
// object's bbox, label (the class), confidence, tracking id and classifier attribute as they
// would for nvinfer's and nvtracker's metadata; the subscribers must receive every payload, in
// order. NVIDIA's libraries are built from ../shared by `npm run test:deepstream`
// (scripts/build-deepstream-consumers.sh): DeepStream build only, skipped, saying so, on the
// portable one.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runGst, scratchDir, type GstRun } from "./helpers/gst";
import { consumersProgram, cReaderProgram, deepstreamLibDir, MSGCONV_CONFIG } from "./helpers/nvidia-consumers";
import { ballDetectorLabels, ballDetectorModel } from "../sdk/src/testing/models/ball-detector";
import { COLOR_CLASSIFIER_LABELS, colorClassifierModel } from "../sdk/src/testing/models/color-classifier";
import { ballDetectorDist, buildProject, builtinDist, fixturesDist, nativeBackend } from "./helpers/projects";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const FRAMES = 8;
const OBJECTS = 2;
const TRACKED = `trackeddetector objects=${OBJECTS}`;

interface Consumed {
  run: GstRun;
  /** What the elements wrote: dsmetadump's line (batch.toJSON()) of each buffer. */
  written: Json[];
  /** The consumer's lines: one per payload, then the broker's report. */
  payloads: Json[];
}

/**
 * Runs `frames` frames of 320 x 240 through `elements` (a gst-launch fragment) and dsmetadump,
 * with nvmsgconv's calls on every buffer after them (and the broker's, given its arguments).
 */
function consume(dir: string, elements: string, options: { dists: string[]; frames?: number; broker?: string[] }): Consumed {
  const config = join(dir, "msgconv_config.txt");
  writeFileSync(config, MSGCONV_CONFIG);
  const dump = join(dir, "written.jsonl");
  const source = `videotestsrc pattern=ball num-buffers=${options.frames ?? FRAMES} ! video/x-raw,format=RGB,width=320,height=240`;
  const run = runGst(
    consumersProgram(),
    ["msgconv", config, `${source} ! ${elements} ! dsmetadump location=${dump} ! identity name=probe ! fakesink`, ...(options.broker ?? [])],
    { dists: [...options.dists, builtinDist], timeoutMs: 120_000 },
  );
  return {
    run,
    written: run.code === 0 ? readFileSync(dump, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Json) : [],
    // NVIDIA's library prints its complaints to stdout too: the payload lines are the JSON ones.
    payloads: run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Json),
  };
}

/** UNTRACKED_OBJECT_ID (nvdsmeta.h): -1 in TS, printed by nvmsgconv as the unsigned 64-bit number it is. */
const UNTRACKED = "18446744073709551615";

/**
 * The DeepStream schema's "object" of an object as batch.toJSON() holds it, as nvmsgconv writes it
 * (generate_object_object, nvmsgconv/deepstream_schema/dsmeta_payload.cpp ~230-290): the tracking
 * id, the label (the class) as the key of the confidence and of one attribute per classifier type
 * (its label's result_label), the bbox truncated to integers.
 */
function asNvmsgconvSees(object: Json): Json {
  const attributes: Json = { confidence: expect.closeTo(object.confidence, 6) };
  for (const classifier of object.classifierItems as Json[])
    for (const label of classifier.labelInfoItems as Json[]) if (classifier.classifierType) attributes[classifier.classifierType] = label.resultLabel;
  const { left, top, width, height } = object.rectParams;
  return {
    id: object.objectId === -1 ? UNTRACKED : String(object.objectId),
    speed: 0,
    direction: 0,
    orientation: 0,
    [object.label]: attributes,
    bbox: { topleftx: Math.trunc(left), toplefty: Math.trunc(top), bottomrightx: Math.trunc(left + width), bottomrighty: Math.trunc(top + height) },
    location: {},
    coordinate: {},
  };
}

/** The DeepStream-schema payloads of one frame, parsed. */
const fullPayloads = (payloads: Json[], frameNum: number) =>
  payloads.filter((p) => p.schema === "deepstream" && p.frameNum === frameNum).map((p) => JSON.parse(p.payload) as Json);

/** C++ `ostream << float` (6 significant digits, no trailing zeros), as the minimal schema prints. */
const streamed = (value: number) => String(Number(Math.fround(value).toPrecision(6)));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `ready` every 50 ms for up to 10 s. */
async function waitFor(what: string, ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not come up within 10 s`);
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe.skipIf(nativeBackend !== "deepstream")("NVIDIA's nvmsgconv payloads of a ds-element's objects (DeepStream build only)", () => {
  let consumed: Consumed;

  beforeAll(() => {
    deepstreamLibDir();
    consumed = consume(scratchDir("msgconv"), TRACKED, { dists: [fixturesDist] });
  });

  it("runs NVIDIA's payload generator on every frame", () => {
    expect(consumed.run.code, consumed.run.output).toBe(0);
    expect(consumed.written).toHaveLength(FRAMES);
    expect(consumed.payloads.filter((p) => p.schema === "deepstream")).toHaveLength(FRAMES * OBJECTS);
    expect(consumed.payloads.filter((p) => p.schema === "minimal")).toHaveLength(FRAMES);
  });

  it("DeepStream schema: each object's tracking id, label as the class, confidence, classifier attribute and bbox", () => {
    for (const batch of consumed.written) {
      const frame = batch.frameItems[0];
      const payloads = fullPayloads(consumed.payloads, frame.frameNum);
      expect(payloads.map((p) => p.object.id).sort()).toEqual(frame.objectItems.map((o: Json) => String(o.objectId)).sort());
      for (const object of frame.objectItems as Json[]) {
        const payload = payloads.find((p) => p.object.id === String(object.objectId))!;
        expect(payload.object).toEqual(asNvmsgconvSees(object));
        expect(payload).toMatchObject({ mdsversion: "1.0", sensor: { id: "camera-0" }, place: { id: "place-0" }, analyticsModule: { id: "module-0" } });
      }
    }
    // What the trackeddetector wrote, read as a DeepStream engineer would: frame 3, box 1.
    const frame3 = consumed.payloads.filter((p) => p.schema === "deepstream" && p.frameNum === 3).map((p) => JSON.parse(p.payload).object);
    expect(frame3.find((o: Json) => o.id === "2")).toMatchObject({
      car: { confidence: expect.closeTo(0.8, 6), color: "blue" },
      bbox: { topleftx: 70, toplefty: 80, bottomrightx: 110, bottomrighty: 120 },
    });
  });

  it("minimal schema: one line per object, id|left|top|right|bottom|label|#|classifier labels|confidence", () => {
    for (const batch of consumed.written) {
      const frame = batch.frameItems[0];
      const payload = JSON.parse(consumed.payloads.find((p) => p.schema === "minimal" && p.frameNum === frame.frameNum)!.payload) as Json;
      expect(payload).toMatchObject({ version: "4.0", id: String(frame.frameNum), sensorId: "camera-0" });
      const expected = (frame.objectItems as Json[]).map((o) => {
        const { left, top, width, height } = o.rectParams;
        const labels = o.classifierItems.flatMap((c: Json) => c.labelInfoItems.map((l: Json) => l.resultLabel));
        return [o.objectId, streamed(left), streamed(top), streamed(left + width), streamed(top + height), o.label, "#", ...labels, streamed(o.confidence)].join("|");
      });
      expect([...payload.objects].sort()).toEqual(expected.sort());
    }
  });
});

/**
 * Checks that `videotestsrc pattern=ball` gave one object a frame and nvmsgconv one payload for
 * it, as asNvmsgconvSees says; returns the payloads' "object"s.
 */
function ballPayloads({ run, written, payloads }: Consumed, frames: number): Json[] {
  expect(run.code, run.output).toBe(0);
  expect(written).toHaveLength(frames);
  return written.flatMap((line) => {
    const frame = line.frameItems[0];
    expect(frame.objectItems, `frame ${frame.frameNum}`).toHaveLength(1);
    const objects = fullPayloads(payloads, frame.frameNum).map((p) => p.object);
    expect(objects).toEqual(frame.objectItems.map(asNvmsgconvSees));
    return objects;
  });
}

describe.skipIf(nativeBackend !== "deepstream")("NVIDIA's nvmsgconv payloads of a real InferenceElement's detections (DeepStream build only)", () => {
  // The ball detector example: an InferenceElement on an ONNX model, no tracker after it, so its
  // objects are untracked as nvinfer's are before nvtracker.
  const BALL_FRAMES = 6;
  let consumed: Consumed;

  beforeAll(() => {
    const model = join(repoRoot, "examples", "ball-detector", "model", "ball.onnx");
    consumed = consume(scratchDir("msgconv-ball"), `balldetector model=${model} unique-component-id=1`, { dists: [ballDetectorDist], frames: BALL_FRAMES });
  });

  it("one payload per detected ball: untracked id as nvinfer's (UNTRACKED_OBJECT_ID), label, confidence, bbox", () => {
    const objects = ballPayloads(consumed, BALL_FRAMES);
    expect(objects.map((o) => o.id)).toEqual(Array(BALL_FRAMES).fill(UNTRACKED));
  });
});

/**
 * Scaffolds `template` into `dir` with the real `npm create ds-element` bin (element named `name`)
 * and builds it with the checkout's CLI, as a user's `npm run build` would.
 */
function scaffold(template: string, dir: string, name: string): string {
  const project = join(dir, template);
  execFileSync(process.execPath, [join(repoRoot, "create-ds-element", "index.js"), project, "--template", template, "--name", name], { stdio: "pipe" });
  buildProject(project, join(project, "dist"));
  return join(project, "dist");
}

describe.skipIf(nativeBackend !== "deepstream")("NVIDIA's nvmsgconv payloads of the detector and classifier templates (DeepStream build only)", () => {
  // The templates as a user gets them (element names given as the scaffolder does), on the test
  // models of ds-element/testing: the ball detector and the colour classifier on its crops.
  const TEMPLATE_FRAMES = 6;
  let consumed: Consumed;
  let dir: string;
  let dists: string[];
  let elements: string;

  beforeAll(() => {
    dir = scratchDir("msgconv-templates");
    dists = [scaffold("detector", dir, "tpldetector"), scaffold("classifier", dir, "tplclassifier")];
    writeFileSync(join(dir, "ball.onnx"), ballDetectorModel());
    writeFileSync(join(dir, "labels.txt"), `${ballDetectorLabels().join("\n")}\n`);
    writeFileSync(join(dir, "color.onnx"), colorClassifierModel());
    writeFileSync(join(dir, "colors.txt"), `${COLOR_CLASSIFIER_LABELS.join("\n")}\n`);
    elements =
      `tpldetector model=${join(dir, "ball.onnx")} labels-file=${join(dir, "labels.txt")} ` +
      `! tplclassifier model=${join(dir, "color.onnx")} labels-file=${join(dir, "colors.txt")} classifier-type=color`;
    consumed = consume(dir, elements, { dists, frames: TEMPLATE_FRAMES });
  });

  it("one payload per ball: untracked id, label, confidence, the classifier's colour as an attribute, bbox", () => {
    // The ball of videotestsrc is white: what a DeepStream consumer of the payload reads.
    const objects = ballPayloads(consumed, TEMPLATE_FRAMES);
    expect(objects.map((o) => ({ id: o.id, color: o.ball?.color }))).toEqual(Array(TEMPLATE_FRAMES).fill({ id: UNTRACKED, color: "white" }));
  });

  it("C code on DeepStream's API reads each ball as nvinfer's detector + classifier write it, and dsosd draws its label", () => {
    // The C reader (test/ds-consumer/ds_consumer.c) on the same pipeline, dsosd after it; the
    // values are docs/metadata.md's nvinfer table (gst-nvinfer/gstnvinfer_meta_utils.cpp lines).
    const source = `videotestsrc pattern=ball num-buffers=${TEMPLATE_FRAMES} ! video/x-raw,format=RGB,width=320,height=240`;
    const run = runGst(cReaderProgram(), [`${source} ! ${elements} ! identity name=probe ! dsosd ! fakesink`], {
      dists: [...dists, builtinDist],
      env: { GST_DEBUG: "dsosd:4" },
      timeoutMs: 120_000,
    });
    expect(run.code, run.output).toBe(0);
    const frames = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Json)
      .filter((line) => line.copy === 0)
      .map((line) => line.frames[0] as Json);
    expect(frames).toHaveLength(TEMPLATE_FRAMES);
    for (const frame of frames) {
      expect(frame, `frame ${frame.frameNum}`).toMatchObject({ bInferDone: 1, numObjMeta: 1 }); // 61
      const ball = (frame.objects as Json[])[0]!;
      expect(ball.objectId).toBe(2 ** 64); // UNTRACKED_OBJECT_ID (150)
      expect(ball, `frame ${frame.frameNum}`).toMatchObject({
        label: "ball",
        detector: ball.rect, // 173-176
        borderWidth: 3, // 179
        borderColor: [1, 0, 0, 1], // 182
        displayText: "ball white ", // 194, the classifier's label appended (326-350)
        xOffset: Math.trunc(ball.rect[0]), // 196
        setBgClr: 1, // 199
        textBgColor: [0, 0, 0, 1], // 200
        font: "Serif", // 203
        fontSize: 11, // 204
        fontColor: [1, 1, 1, 1], // 205
        reads: { nvdsosdDrawsText: 1, nvtrackerLabel: "ball white  5", untracked: 1, detectorIsBox: 1 },
      });
      expect(ball.classifiers).toEqual([expect.objectContaining({ numLabels: 1, classifierType: "color", labels: [expect.objectContaining({ resultLabel: "white" })] })]);
    }
    expect(run.output).toContain(`drew on ${TEMPLATE_FRAMES} frame(s): ${TEMPLATE_FRAMES} boxes, ${TEMPLATE_FRAMES} labels`);
  });
});

describe.skipIf(nativeBackend !== "deepstream")("NVIDIA's nvmsgbroker to real Redis and MQTT servers (DeepStream build only)", () => {
  let lib: string;
  const servers: ChildProcess[] = [];

  beforeAll(() => {
    lib = deepstreamLibDir();
  });

  afterAll(async () => {
    await Promise.all(servers.map(stop));
  });

  /** What the consumer sent, in order: its DeepStream-schema payloads. */
  const sent = (consumed: Consumed) => consumed.payloads.filter((p) => p.schema === "deepstream").map((p) => p.payload as string);
  const report = (consumed: Consumed) => consumed.payloads.find((p) => "sent" in p);

  it("Redis: every payload lands in the stream, in order, through the Redis adaptor", async () => {
    const dir = scratchDir("msgbroker-redis");
    const port = await freePort();
    const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
      stdio: "ignore",
    });
    servers.push(redis);
    const cli = (...args: string[]) => spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], { encoding: "utf8" });
    await waitFor("redis-server", () => cli("ping").stdout.trim() === "PONG");

    const adaptorConfig = join(dir, "cfg_redis.txt");
    // The adaptor's own keys (redis_protocol_adaptor/README): the stream's payload field.
    writeFileSync(adaptorConfig, "[message-broker]\npayloadkey=metadata\n");
    const consumed = consume(dir, TRACKED, { dists: [fixturesDist], broker: [join(lib, "libnvds_redis_proto.so"), `127.0.0.1;${port}`, adaptorConfig, "ds-element"] });
    expect(consumed.run.code, consumed.run.output).toBe(0);
    expect(report(consumed)).toEqual({ sent: FRAMES * OBJECTS, ok: FRAMES * OBJECTS, failed: 0 });

    const stream = cli("--json", "XRANGE", "ds-element", "-", "+");
    expect(stream.status, stream.stderr).toBe(0);
    const entries = JSON.parse(stream.stdout) as [string, string[]][];
    expect(entries.map(([, fields]) => fields[0])).toEqual(Array(FRAMES * OBJECTS).fill("metadata"));
    expect(entries.map(([, fields]) => fields[1])).toEqual(sent(consumed));
    await stop(redis);
  });

  it("MQTT: a subscriber receives every payload, in order, through the MQTT adaptor", async () => {
    const dir = scratchDir("msgbroker-mqtt");
    const port = await freePort();
    const config = join(dir, "mosquitto.conf");
    writeFileSync(config, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    // Debian installs the broker in /usr/sbin, which is not on a normal user's PATH.
    const mosquitto = spawn(existsSync("/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "mosquitto", ["-c", config], { stdio: "ignore" });
    servers.push(mosquitto);

    // The subscriber writes one JSON line per message (-F %j); -d adds its protocol log, whose
    // SUBACK line says it is subscribed before anything is sent (then the broker is up too).
    const received = join(dir, "received.txt");
    const out = openSync(received, "w");
    let subscriber: ChildProcess | undefined;
    await waitFor("mosquitto", () => {
      if (subscriber?.exitCode === null) return readFileSync(received, "utf8").includes("SUBACK");
      // stdbuf: line-buffered, so that SUBACK reaches the file while it runs.
      subscriber = spawn(
        "stdbuf",
        ["-oL", "mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-t", "ds-element", "-q", "1", "-d", "-F", "%j", "-C", String(FRAMES * OBJECTS), "-W", "60"],
        { stdio: ["ignore", out, out] },
      );
      return false;
    });
    servers.push(subscriber!);
    const finished = new Promise<number | null>((resolve) => subscriber!.once("exit", (code) => resolve(code)));

    const adaptorConfig = join(dir, "cfg_mqtt.txt");
    writeFileSync(adaptorConfig, "[message-broker]\nclient-id=ds-element-test\n");
    const consumed = consume(dir, TRACKED, { dists: [fixturesDist], broker: [join(lib, "libnvds_mqtt_proto.so"), `127.0.0.1;${port}`, adaptorConfig, "ds-element"] });
    expect(consumed.run.code, consumed.run.output).toBe(0);
    // No send fails; a send's completion callback can go missing: NVIDIA's MQTT adaptor publishes
    // first and maps the message id to the callback after (nvds_mqtt_proto.cpp ~758-770), so when
    // the broker's do-work thread sees the publish done in between, nobody is called. The
    // message itself is delivered: the subscriber below is the judge.
    expect(report(consumed)).toMatchObject({ sent: FRAMES * OBJECTS, failed: 0 });

    expect(await finished).toBe(0);
    closeSync(out);
    const messages = readFileSync(received, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Json);
    expect(messages.map((m) => m.topic)).toEqual(Array(FRAMES * OBJECTS).fill("ds-element"));
    expect(messages.map((m) => (typeof m.payload === "string" ? m.payload : JSON.stringify(m.payload)))).toEqual(sent(consumed));
    await stop(mosquitto);
  });
});
