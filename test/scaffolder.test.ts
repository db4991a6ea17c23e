// `npm create ds-element`'s bin, run from this checkout (create-vite's habit): the files it
// wrote, how it named the element, and the checkout's packages it packed so that the project's
// `npm install` needs no registry copy of ds-element. Installing, building, testing and running
// every template, from the checkout and from a registry as published, is test/registry.test.ts.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./helpers/gst";

const bin = join(repoRoot, "create-ds-element", "index.js");
const TOKEN = "template-element-name";
const TEMPLATES = ["analytics", "classifier", "detector", "frame-rate-monitor"];

// Projects are made outside the repository: under test/out a project's own tests would match
// this vitest project's "test/**/*.test.ts".
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

function scaffold(...args: string[]): Run {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: workspace, env: userEnv(), encoding: "utf8", timeout: 60_000 });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The template's files as the project should have them: renamed, packed packages added. */
function expectedFiles(template: string): string[] {
  const renamed = filesUnder(join(repoRoot, "templates", template))
    .filter((file) => !/^(node_modules|dist)\//.test(file))
    .map((file) => file.replace(/^_gitignore$/, ".gitignore").replace(/^_npmrc$/, ".npmrc"));
  return [...renamed, "ds-element-packages/ds-element-0.1.0.tgz", "ds-element-packages/ds-element-native-0.1.0.tgz"].sort();
}

describe("npm create ds-element my-filter (from this checkout)", () => {
  const project = join(workspace, "my-filter");
  const templateDir = join(repoRoot, "templates", "frame-rate-monitor");
  let created: Run;
  beforeAll(() => {
    created = scaffold("my-filter");
  });

  it("exits 0 and prints where ds-element comes from and the next steps", () => {
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toBe(
      `Created my-filter in ${project}: element "myfilter" from the frame-rate-monitor template.\n\n` +
        `ds-element comes from the checkout at ${repoRoot}, packed into ds-element-packages/ (npm install needs no registry copy of it).\n\n` +
        "Next steps:\n  cd my-filter\n  npm install\n  npm run build\n  npm test\n  npx ds-element run -- gst-inspect-1.0 myfilter\n",
    );
  });

  it("copies the template, with _gitignore renamed .gitignore, and the checkout's packages packed", () => {
    expect(filesUnder(project)).toEqual(expectedFiles("frame-rate-monitor"));
    expect(readFileSync(join(project, ".gitignore"), "utf8")).toBe("node_modules\ndist\n");
  });

  it("sets package.json's name from the directory and takes ds-element and ds-element-native from the tarballs", () => {
    const template = JSON.parse(readFileSync(join(templateDir, "package.json"), "utf8"));
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8"))).toEqual({
      ...template,
      name: "my-filter",
      dependencies: {
        ...template.dependencies,
        "ds-element": "file:ds-element-packages/ds-element-0.1.0.tgz",
        "ds-element-native": "file:ds-element-packages/ds-element-native-0.1.0.tgz",
      },
    });
  });

  it("names the element after the directory and changes nothing else", () => {
    expect(readFileSync(join(project, "src", "index.ts"), "utf8")).toContain('name: "myfilter",');
    for (const file of filesUnder(project).filter((name) => name !== "package.json" && !name.startsWith("ds-element-packages/"))) {
      const original = readFileSync(join(templateDir, file === ".gitignore" ? "_gitignore" : file), "utf8");
      expect(readFileSync(join(project, file), "utf8"), file).toBe(original.replaceAll(TOKEN, "myfilter"));
    }
  });

  it("keeps the version scaffolded projects ask of the registry equal to the SDK's", () => {
    const sdk = JSON.parse(readFileSync(join(repoRoot, "sdk", "package.json"), "utf8"));
    expect(readFileSync(bin, "utf8")).toContain(`const SDK_VERSION = "${sdk.version}";`);
  });
});

describe.each(TEMPLATES.filter((template) => template !== "frame-rate-monitor"))("--template %s", (template) => {
  it("writes the template's files, .npmrc and test fixtures included, with the element named everywhere", () => {
    const created = scaffold(`cam-${template}`, "--template", template, "--name", "camelement");
    expect(created.code, created.stderr).toBe(0);
    const project = join(workspace, `cam-${template}`);
    expect(filesUnder(project)).toEqual(expectedFiles(template));
    const sources = filesUnder(project).filter((file) => file.endsWith(".ts") || file === "README.md");
    for (const file of sources) expect(readFileSync(join(project, file), "utf8"), file).not.toContain(TOKEN);
    expect(readFileSync(join(project, "src", "index.ts"), "utf8")).toContain('name: "camelement",');
  });
});

describe("create-ds-element options and errors", () => {
  it("scaffolds into an existing empty directory with --name", () => {
    mkdirSync(join(workspace, "Cam Stats"));
    const created = scaffold("Cam Stats", "--name", "cam-stats", "--template", "frame-rate-monitor");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("Next steps:\n  cd 'Cam Stats'\n");
    expect(JSON.parse(readFileSync(join(workspace, "Cam Stats", "package.json"), "utf8")).name).toBe("cam-stats");
    expect(readFileSync(join(workspace, "Cam Stats", "src", "index.ts"), "utf8")).toContain('name: "cam-stats",');
  });

  it("--help prints the usage and the templates", () => {
    const help = scaffold("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm create ds-element@latest <dir> \[-- --template <template>\] \[--name <element-name>\]\n/);
    expect(help.stdout).toContain(`The project to start from: ${TEMPLATES.join(", ")} (default: frame-rate-monitor)`);
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
    const refused = scaffold("segmenter-project", "--template", "segmenter");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'create-ds-element: Expected one of "analytics", "classifier", "detector", "frame-rate-monitor" for --template but received "segmenter"\n',
    );
    expect(readdirSync(workspace)).not.toContain("segmenter-project");
  });

  it("refuses to scaffold from a checkout that is not built, naming the command that builds it", () => {
    const checkout = join(workspace, "unbuilt-checkout");
    cpSync(join(repoRoot, "create-ds-element", "index.js"), join(checkout, "create-ds-element", "index.js"));
    cpSync(join(repoRoot, "templates", "frame-rate-monitor"), join(checkout, "templates", "frame-rate-monitor"), { recursive: true });
    const result = spawnSync(process.execPath, [join(checkout, "create-ds-element", "index.js"), "from-unbuilt"], { cwd: workspace, env: userEnv(), encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `create-ds-element: Expected a built ds-element checkout at ${checkout} but received one without ` +
        `${join(checkout, "sdk", "dist", "index.js")}, ${join(checkout, "native-host", "build", "Release", "libgstdsnode.so")}; run \`npm run setup\` there first\n`,
    );
  });

  it("refuses a missing directory with the usage", () => {
    const refused = scaffold();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^create-ds-element: Expected a project directory for <dir> but received nothing\n\nUsage: /);
  });
});
