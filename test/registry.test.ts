// The user's path, as published (issue 14): a local npm registry (verdaccio, 127.0.0.1, no
// uplink) gets the third-party packages the templates need (package-lock.json's tarballs, from
// npm's cache) and then ds-element's packages through `npm publish`, exactly as
// docs/releasing.md publishes them. With npm_config_registry pointing at it, every template goes
// `npm create ds-element@latest <dir> -- --template <t>`, `npm install`, `npm run build`,
// `npm test`, gst-inspect-1.0 and a gst-launch-1.0 pipeline; examples/ball-detector is built and
// run from a copy outside the repository. Before ds-element is published, a project scaffolded
// from this checkout installs and builds: it needs no registry copy of ds-element. No step reaches the network (onnxruntime-node's download host included).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";
import { hasPackage, publishThirdParty, registryDir, startRegistry, type LocalRegistry } from "./helpers/local-registry";

const TEMPLATES = ["analytics", "classifier", "detector", "frame-rate-monitor"] as const;
type Template = (typeof TEMPLATES)[number];
/** What `npm publish` publishes, in the order docs/releasing.md gives. */
const PUBLISHED = [
  { name: "ds-element-native", folder: "native-host" },
  { name: "ds-element", folder: "sdk" },
  { name: "create-ds-element", folder: "create-ds-element" },
];

/**
 * The published package carries the portable native build (native-host/build/Release);
 * `npm run test:deepstream` tests another build (DS_ELEMENT_NATIVE_DIR), which no release
 * publishes: there is nothing more to learn from publishing again on that run.
 */
const otherNativeBuild = process.env.DS_ELEMENT_NATIVE_DIR !== undefined;

interface Step {
  command: string;
  code: number | null;
  output: string;
  seconds: number;
}

/** A user's shell against the local registry: none of this `npm test`'s npm, vitest or ds-element variables. */
function userEnv(registry: LocalRegistry, workspace: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  for (const key of Object.keys(env)) if (/^(npm_|vitest|init_cwd$|ds_element_|onnxruntime_node_)/i.test(key)) delete env[key];
  return {
    ...env,
    npm_config_registry: registry.url,
    npm_config_userconfig: registry.npmrc,
    npm_config_cache: join(workspace, "npm-cache"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_yes: "true",
    // gst-inspect-1.0 and gst-launch-1.0 keep a registry cache: one of the test's, not the user's.
    GST_REGISTRY_1_0: join(workspace, "gst-registry.bin"),
  };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 300_000): Promise<Step> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const done = (code: number | null, error?: Error): void => {
      clearTimeout(timer);
      resolve({ command: [command, ...args].join(" "), code, output: error ? `${output}\n${error.message}` : output, seconds: (Date.now() - started) / 1000 });
    };
    child.once("error", (error) => done(null, error));
    child.once("close", (code) => done(code));
  });
}

/** Runs steps in order until one fails; returns them all by name. */
async function steps(list: [string, () => Promise<Step>][]): Promise<Map<string, Step>> {
  const results = new Map<string, Step>();
  for (const [name, step] of list) {
    const result = await step();
    results.set(name, result);
    if (result.code !== 0) break;
  }
  return results;
}

function expectStep(results: Map<string, Step> | undefined, name: string): Step {
  const step = results?.get(name);
  expect(step, `the step "${name}" did not run (an earlier one failed)`).toBeDefined();
  expect(step!.code, `${step!.command}\n${step!.output}`).toBe(0);
  return step!;
}

/** The element name the scaffolder derives from a folder name. */
const elementOf = (project: string): string => basename(project).replace(/[^a-z0-9]/g, "");

/** How each template's element is exercised in gst-launch-1.0 (its own tests check it in depth). */
function pipelineOf(template: Template, element: string): { prepare?: string; launch: string; env?: Record<string, string> } {
  const source = "videotestsrc num-buffers=10 ! video/x-raw,format=RGB,width=320,height=240";
  switch (template) {
    case "detector":
      return {
        prepare:
          'const t=require("ds-element/testing"),fs=require("fs");fs.writeFileSync("ball.onnx",t.ballDetectorModel());fs.writeFileSync("labels.txt",t.ballDetectorLabels().join("\\n"))',
        launch: `videotestsrc pattern=ball num-buffers=10 ! video/x-raw,format=RGB,width=320,height=240 ! ${element} model=ball.onnx labels-file=labels.txt ! dsmetadump location=dump.jsonl ! fakesink sync=false`,
      };
    case "classifier":
      return {
        prepare: 'require("fs").writeFileSync("color.onnx",require("ds-element/testing").colorClassifierModel())',
        launch: `${source} ! ${element} model=color.onnx ! dsmetadump location=dump.jsonl ! fakesink sync=false`,
        env: { GST_DEBUG: `${element}:4` },
      };
    case "analytics":
      return { launch: `${source} ! ${element} line=<160,0,160,240> ! dsmetadump location=dump.jsonl ! fakesink sync=false` };
    case "frame-rate-monitor":
      return { launch: `${source},framerate=30/1 ! ${element} every-n=5 ! fakesink sync=false`, env: { GST_DEBUG: `${element}:4` } };
  }
}

/** The dsmetadump lines a pipeline wrote in `project`. */
function dumped(project: string): { frameItems: { objectItems: { label: string }[]; userMetaItems: { metaType: string }[] }[] }[] {
  return readFileSync(join(project, "dump.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
}

describe.skipIf(otherNativeBuild)("the published path, from a local registry", () => {
  const workspace = mkdtempSync(join(tmpdir(), "ds-element-registry-"));
  let registry: LocalRegistry;
  let env: NodeJS.ProcessEnv;
  let thirdParty = 0;
  let checkoutBeforePublishing = false;
  let checkout: Map<string, Step>;
  let published: Map<string, Step>;
  const fromRegistry = new Map<Template, Map<string, Step>>();
  let example: Map<string, Step>;
  let publishSeconds = 0;

  beforeAll(async () => {
    registry = await startRegistry(registryDir(workspace));
    env = userEnv(registry, workspace);
    const manifest = (folder: string) => JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    const namesOf = (folder: string) => Object.keys({ ...manifest(folder).dependencies, ...manifest(folder).devDependencies });
    const publishStarted = Date.now();
    thirdParty = await publishThirdParty(
      registry,
      [
        ...TEMPLATES.map((template) => ({ from: `templates/${template}`, names: namesOf(`templates/${template}`) })),
        { from: "examples/ball-detector", names: namesOf("examples/ball-detector") },
        ...PUBLISHED.map(({ folder }) => ({ from: folder, names: Object.keys(manifest(folder).dependencies ?? {}) })),
      ],
      new Set(PUBLISHED.map(({ name }) => name)),
    );
    publishSeconds = (Date.now() - publishStarted) / 1000;

    // From this checkout, while the registry has no ds-element at all.
    checkoutBeforePublishing = !(await hasPackage(registry, "ds-element")) && !(await hasPackage(registry, "ds-element-native"));
    const fromCheckout = join(workspace, "checkout-detector");
    const checkoutInstalled = await steps([
      ["create", () => run(process.execPath, [join(repoRoot, "create-ds-element", "index.js"), fromCheckout, "--template", "detector"], workspace, env)],
      ["install", () => run("npm", ["install"], fromCheckout, env)],
    ]);

    // Published as a release publishes them.
    published = await steps(PUBLISHED.map(({ name, folder }) => [name, () => run("npm", ["publish"], join(repoRoot, folder), env)]));

    // `npm create` installs create-ds-element into one npx cache folder per package spec
    // (npm-cache/_npx/<hash>): two at once race, one running the bin while the other is still
    // installing it ("Cannot find module .../_npx/<hash>/node_modules/.bin/create-ds-element").
    // The creates take turns; everything after them runs side by side.
    let creating: Promise<unknown> = Promise.resolve();
    const oneCreateAtATime = (task: () => Promise<Step>): Promise<Step> => {
      const turn = creating.then(task);
      creating = turn.catch(() => undefined);
      return turn;
    };

    const userPath = async (template: Template): Promise<void> => {
      const project = join(workspace, `my-${template}`);
      const element = elementOf(project);
      const pipeline = pipelineOf(template, element);
      const npx = (...command: string[]) => run("npx", ["ds-element", "run", "--", ...command], project, { ...env, ...pipeline.env });
      fromRegistry.set(
        template,
        await steps([
          ["create", () => oneCreateAtATime(() => run("npm", ["create", "ds-element@latest", project, "--", "--template", template], workspace, env))],
          ["install", () => run("npm", ["install"], project, env)],
          ["build", () => run("npm", ["run", "build"], project, env)],
          ["test", () => run("npm", ["test"], project, env)],
          ["inspect", () => npx("gst-inspect-1.0", element)],
          ...(pipeline.prepare === undefined ? [] : ([["prepare", () => run(process.execPath, ["-e", pipeline.prepare!], project, env)]] as [string, () => Promise<Step>][])),
          ["launch", () => npx("gst-launch-1.0", "-q", ...pipeline.launch.split(" "))],
        ]),
      );
    };

    const exampleCopy = join(workspace, "ball-detector");
    const exampleSteps = async (): Promise<void> => {
      cpSync(join(repoRoot, "examples", "ball-detector"), exampleCopy, {
        recursive: true,
        filter: (source) => !["node_modules", "dist", "model"].includes(basename(source)),
      });
      example = await steps([
        ["install", () => run("npm", ["install"], exampleCopy, env)],
        ["build", () => run("npm", ["run", "build"], exampleCopy, env)],
        [
          "launch",
          () =>
            run(
              "npx",
              ["ds-element", "run", "--", "gst-launch-1.0", "-q", ...`videotestsrc pattern=ball num-buffers=10 ! video/x-raw,format=RGB,width=320,height=240 ! balldetector model=model/ball.onnx ! dsmetadump location=dump.jsonl ! fakesink sync=false`.split(" ")],
              exampleCopy,
              env,
            ),
        ],
      ]);
    };

    // Built, not tested again: the published detector's own tests run below on the same sources.
    const checkoutRest = async (): Promise<void> => {
      checkout = checkoutInstalled;
      if (checkout.get("install")?.code !== 0) return;
      checkout.set("build", await run("npm", ["run", "build"], fromCheckout, env));
    };

    // The projects are independent: side by side.
    if ([...published.values()].every((step) => step.code === 0)) {
      await Promise.all([...TEMPLATES.map(userPath), exampleSteps(), checkoutRest()]);
    } else {
      await checkoutRest();
    }
  }, 1_500_000);

  afterAll(() => {
    registry?.stop();
    rmSync(workspace, { recursive: true, force: true });
    // Where the time went (CI has a budget): seconds per step of each project.
    const projects: [string, Map<string, Step> | undefined][] = [
      ["publish", published],
      ["checkout detector", checkout],
      ...TEMPLATES.map((template) => [template, fromRegistry.get(template)] as [string, Map<string, Step> | undefined]),
      ["ball-detector example", example],
    ];
    const lines = projects.map(([name, results]) => `${name}: ${[...(results ?? new Map<string, Step>()).entries()].map(([step, { seconds }]) => `${step} ${seconds.toFixed(1)} s`).join(", ")}`);
    process.stdout.write(`registry test, seconds per step (third-party publish ${publishSeconds.toFixed(1)} s):\n  ${lines.join("\n  ")}\n`);
  });

  it("serves the templates' third-party packages from npm's cache, and no ds-element before it is published", () => {
    expect(thirdParty, registry.log()).toBeGreaterThan(30);
    expect(checkoutBeforePublishing).toBe(true);
  });

  it("a project scaffolded from this checkout installs with no registry copy of ds-element and builds", () => {
    expect(expectStep(checkout, "create").output).toContain("packed into ds-element-packages/");
    expectStep(checkout, "install");
    expect(expectStep(checkout, "build").output).toContain("ds-element build: types OK");
  });

  it("publishes ds-element-native, ds-element and create-ds-element with npm publish", () => {
    for (const { name } of PUBLISHED) expect(expectStep(published, name).output).toContain(`+ ${name}@`);
  });

  describe.each(TEMPLATES)("npm create ds-element@latest my-%s -- --template %s", (template) => {
    const results = () => fromRegistry.get(template);
    const element = `my${template.replace(/[^a-z0-9]/g, "")}`;

    it("creates the project and installs it from the registry", () => {
      expect(expectStep(results(), "create").output).toContain(`element "${element}" from the ${template} template`);
      expectStep(results(), "install");
    });

    it("builds it (type check included) and passes its own unit and pipeline tests", () => {
      expect(expectStep(results(), "build").output).toContain(`ds-element build: ${element} -> dist/ds-elements/${element}`);
      expect(expectStep(results(), "test").output).toMatch(/Test Files\s+\d+ passed/);
    });

    it("shows the element in gst-inspect-1.0 and runs it in gst-launch-1.0", () => {
      expect(expectStep(results(), "inspect").output).toMatch(/Plugin Details:\s+Name\s+dsnode/);
      const launched = expectStep(results(), "launch");
      const project = join(workspace, `my-${template}`);
      if (template === "detector") {
        expect(dumped(project).map((line) => line.frameItems[0]!.objectItems.map((object) => object.label))).toEqual(Array(10).fill(["ball"]));
      } else if (template === "classifier") {
        expect(launched.output).toMatch(new RegExp(`loaded color\\.onnx \\(onnxruntime\\)`));
        expect(dumped(project)).toHaveLength(10);
      } else if (template === "analytics") {
        expect(dumped(project).map((line) => line.frameItems[0]!.userMetaItems.map((user) => user.metaType))).toEqual(Array(10).fill(["DSELEMENT.ANALYTICS.FRAME"]));
      } else {
        expect(launched.output).toContain("source 0: 10 frames, 30.0 fps, 0 gaps (end of stream)");
      }
    });
  });

  it("builds and runs examples/ball-detector from a copy outside the repository", () => {
    expectStep(example, "install");
    expectStep(example, "build");
    expectStep(example, "launch");
    const lines = readFileSync(join(workspace, "ball-detector", "dump.jsonl"), "utf8").trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { frameItems: { objectItems: { label: string }[] }[] }).frameItems[0]!.objectItems.map((o) => o.label))).toEqual(
      Array(10).fill(["ball"]),
    );
  });
});
