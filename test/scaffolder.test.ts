// `npm create ds-element` end to end (create-vite's habit): the real bin, the files it wrote, and
// the project it made, built, unit-tested and run in GStreamer the way its user would — offline:
// ds-element is not published, so "npm install" is replaced by links to this repository.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspect, launch, repoRoot } from "./helpers/gst";

const bin = join(repoRoot, "create-ds-element", "index.js");
const templateDir = join(repoRoot, "templates", "frame-filter");
const TOKEN = "template-element-name";

// Projects are made outside the repository: under test/out a project's own tests would match
// this vitest project's "test/**/*.test.ts", and module lookups would fall back to the
// repository's node_modules, hiding a missing dependency.
const workspace = mkdtempSync(join(tmpdir(), "ds-element-scaffolder-"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A user's shell: without the npm_* and VITEST* variables of the `npm test` running this file. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  for (const key of Object.keys(env)) if (/^(npm_|vitest|init_cwd$)/i.test(key)) delete env[key];
  return env;
}

function run(command: string, args: string[], cwd: string): Run {
  const result = spawnSync(command, args, { cwd, env: userEnv(), encoding: "utf8", timeout: 60_000 });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function scaffold(...args: string[]): Run {
  return run(process.execPath, [bin, ...args], workspace);
}

/** Every file under `dir`, relative, sorted; node_modules and dist left out. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !/^(node_modules|dist)\//.test(file))
    .sort();
}

/** What `npm install` would put in node_modules: the repository's packages, linked. */
function linkDependencies(project: string): void {
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "@types"), { recursive: true });
  mkdirSync(join(modules, ".bin"));
  symlinkSync(join(repoRoot, "sdk"), join(modules, "ds-element"));
  for (const name of ["typescript", "vitest", "@types/node"]) symlinkSync(join(repoRoot, "node_modules", name), join(modules, name));
  symlinkSync("../ds-element/bin/ds-element.js", join(modules, ".bin", "ds-element"));
  symlinkSync("../vitest/vitest.mjs", join(modules, ".bin", "vitest"));
  symlinkSync("../typescript/bin/tsc", join(modules, ".bin", "tsc"));
}

describe("npm create ds-element my-filter", () => {
  const project = join(workspace, "my-filter");
  const dist = join(project, "dist");
  let created: Run;
  beforeAll(() => {
    created = scaffold("my-filter");
  });

  it("exits 0 and prints the next steps", () => {
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toBe(
      `Created my-filter in ${project}: element "myfilter" from the frame-filter template.\n\n` +
        "Next steps:\n  cd my-filter\n  npm install\n  npm run build\n  npm test\n  npx ds-element run -- gst-inspect-1.0 myfilter\n",
    );
  });

  it("copies the template, with _gitignore renamed .gitignore", () => {
    expect(filesUnder(project)).toEqual([
      ".gitignore",
      "README.md",
      "package.json",
      "src/frame-statistics.test.ts",
      "src/frame-statistics.ts",
      "src/index.test.ts",
      "src/index.ts",
      "tsconfig.json",
      "vitest.config.mts",
    ]);
    expect(readFileSync(join(project, ".gitignore"), "utf8")).toBe("node_modules\ndist\n");
  });

  it("sets package.json's name from the directory and pins ds-element to the SDK's version", () => {
    const template = JSON.parse(readFileSync(join(templateDir, "package.json"), "utf8"));
    const sdk = JSON.parse(readFileSync(join(repoRoot, "sdk", "package.json"), "utf8"));
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8"))).toEqual({
      ...template,
      name: "my-filter",
      dependencies: { ...template.dependencies, "ds-element": sdk.version },
    });
  });

  it("names the element after the directory and changes nothing else", () => {
    expect(readFileSync(join(project, "src", "index.ts"), "utf8")).toContain('name: "myfilter",');
    for (const file of filesUnder(project).filter((name) => name !== "package.json")) {
      const original = readFileSync(join(templateDir, file === ".gitignore" ? "_gitignore" : file), "utf8");
      expect(readFileSync(join(project, file), "utf8"), file).toBe(original.replaceAll(TOKEN, "myfilter"));
    }
  });

  it("builds with npm run build", () => {
    linkDependencies(project);
    const build = run("npm", ["run", "build"], project);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stderr).toContain("ds-element build: types OK");
    expect(build.stderr).toContain(`ds-element build: 1 element(s) in ${dist}`);
    expect(filesUnder(join(dist, "ds-elements"))).toEqual(["myfilter/element.json", "myfilter/index.js", "myfilter/index.js.map"]);
  });

  it("passes its own tests with npm test", () => {
    const test = run("npm", ["test"], project);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/Test Files\s+2 passed \(2\)/);
  });

  it("shows the element and its properties in gst-inspect-1.0", () => {
    const inspected = inspect(["myfilter"], { dists: [dist] });
    expect(inspected.code, inspected.output).toBe(0);
    expect(inspected.stdout).toMatch(/Long-name\s+Frame statistics/);
    expect(inspected.stdout).toMatch(/Capabilities:\s+video\/x-raw\s+video\/x-raw\(memory:NVMM\)/);
    expect(inspected.stdout).toMatch(/every-n\s+: Log a statistics line \(INFO\) every N frames of a source[^]*?Integer\. Range: 1 - 2147483647 Default: 30/);
    expect(inspected.stdout).toMatch(/rate-window\s+: [^]*?Double\. Range:\s+0\.1 -\s+60 Default:\s+1/);
    expect(inspected.stdout).toMatch(/gap-factor\s+: [^]*?Double\. Range:\s+1 -\s+1000 Default:\s+2/);
  });

  it("logs frame statistics in a gst-launch-1.0 pipeline", () => {
    const launched = launch(
      "videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=320,height=240,framerate=30/1 ! myfilter every-n=10 ! fakesink",
      { dists: [dist], env: { GST_DEBUG: "myfilter:4" } },
    );
    expect(launched.code, launched.output).toBe(0);
    const lines = launched.stderr.split("\n").filter((line) => line.includes("source 0:"));
    expect(lines.map((line) => line.replace(/^.*<myfilter0>\s*/, ""))).toEqual([
      "source 0: 10 frames, 30.0 fps, 0 gaps",
      "source 0: 20 frames, 30.0 fps, 0 gaps",
      "source 0: 30 frames, 30.0 fps, 0 gaps",
      "source 0: 30 frames, 30.0 fps, 0 gaps (end of stream)",
    ]);
  });
});

describe("create-ds-element options and errors", () => {
  it("scaffolds into an existing empty directory with --name", () => {
    mkdirSync(join(workspace, "Cam Stats"));
    const created = scaffold("Cam Stats", "--name", "cam-stats", "--template", "frame-filter");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("Next steps:\n  cd 'Cam Stats'\n");
    expect(JSON.parse(readFileSync(join(workspace, "Cam Stats", "package.json"), "utf8")).name).toBe("cam-stats");
    expect(readFileSync(join(workspace, "Cam Stats", "src", "index.ts"), "utf8")).toContain('name: "cam-stats",');
  });

  it("--help prints the usage and the templates", () => {
    const help = scaffold("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm create ds-element@latest <dir> \[-- --template <template>\] \[--name <element-name>\]\n/);
    expect(help.stdout).toContain("The project to start from: frame-filter (default: frame-filter)");
  });

  it("refuses a non-empty directory and leaves it alone", () => {
    mkdirSync(join(workspace, "occupied"));
    writeFileSync(join(workspace, "occupied", "notes.txt"), "mine\n");
    const refused = scaffold("occupied");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'create-ds-element: Expected an empty or new directory for <dir> but received "occupied", which contains notes.txt; ' +
        "choose another directory or empty this one\n",
    );
    expect(readdirSync(join(workspace, "occupied"))).toEqual(["notes.txt"]);
  });

  it("refuses a file as the directory", () => {
    writeFileSync(join(workspace, "a-file"), "");
    const refused = scaffold("a-file");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('create-ds-element: Expected an empty or new directory for <dir> but received "a-file", a file\n');
  });

  it("refuses an invalid --name and writes nothing", () => {
    const refused = scaffold("bad-name", "--name", "My_Filter");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'create-ds-element: Expected an element name (a lowercase letter, then lowercase letters, digits or "-") for --name but received "My_Filter"\n',
    );
    expect(readdirSync(workspace)).not.toContain("bad-name");
  });

  it("refuses a directory name no element name can be derived from", () => {
    const refused = scaffold("2024");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'create-ds-element: Expected a directory name with a letter in it (the element is named after it) for <dir> but received "2024"; ' +
        "pass --name <element-name>\n",
    );
  });

  it("refuses an unknown template", () => {
    const refused = scaffold("detector-project", "--template", "detector");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('create-ds-element: Expected one of "frame-filter" for --template but received "detector"\n');
  });

  it("refuses a missing directory with the usage", () => {
    const refused = scaffold();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^create-ds-element: Expected a project directory for <dir> but received nothing\n\nUsage: /);
  });
});
