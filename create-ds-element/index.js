#!/usr/bin/env node
// `npm create ds-element <dir>`: copies a template project into <dir> and names it.
// Plain Node, no dependencies, no build step, nothing imported from the ds-element SDK: it
// runs before anything is installed (DESIGN.md §1).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** The ds-element version scaffolded projects depend on; test/scaffolder.test.ts keeps it equal to sdk/package.json's. */
const SDK_VERSION = "0.1.0";
const DEFAULT_TEMPLATE = "frame-rate-monitor";
/**
 * Written in the templates' src/ and test/ TypeScript and README.md where the element's name
 * goes. It is itself a valid element name, so a template builds and tests in place, in the
 * repository.
 */
const ELEMENT_NAME_TOKEN = "template-element-name";
/** The SDK's rule for element names (Element.define() enforces it again at build time). */
const ELEMENT_NAME = /^[a-z][a-z0-9-]*$/;
/** Never copied: what a template developed in place (an npm workspace) may hold. */
const NOT_COPIED = new Set(["node_modules", "dist"]);
/** npm drops .gitignore and .npmrc files from published packages, so templates carry `_gitignore` and `_npmrc`. */
const RENAMED = new Map([
  ["_gitignore", ".gitignore"],
  ["_npmrc", ".npmrc"],
]);
/** Where a project scaffolded from a checkout gets the checkout's packages, packed. */
const PACKAGES_FOLDER = "ds-element-packages";

/** A mistake of the caller's: printed without a stack. `usage` adds the usage text (exit code 2). */
class ScaffoldError extends Error {
  constructor(message, { usage = false } = {}) {
    super(message);
    this.usage = usage;
  }
}

/**
 * Where the templates are. The published package carries a copy in ./templates (made by its
 * `prepack` script); in the repository they live beside this package, in ../templates, the one
 * copy that is edited and tested. ./templates is tried first: installed from the registry,
 * ../templates would be some other package's folder.
 */
function templatesRoot() {
  return templateSource().root;
}

/**
 * The templates, and whether they come from a ds-element checkout (the repository: then the
 * project gets the checkout's packages, since the registry may not have them).
 */
function templateSource() {
  const here = dirname(fileURLToPath(import.meta.url));
  const packaged = join(here, "templates");
  if (existsSync(packaged)) return { root: packaged, checkout: undefined };
  const repository = join(here, "..");
  if (existsSync(join(repository, "templates"))) return { root: join(repository, "templates"), checkout: repository };
  throw new ScaffoldError(`Expected a templates folder at ${packaged} or ${join(repository, "templates")} but received nothing; reinstall create-ds-element`);
}

/** The usage text, listing the templates there are. */
function usage() {
  let templates;
  try {
    templates = templateNames(templatesRoot()).join(", ");
  } catch {
    templates = "(none found)";
  }
  return `Usage: npm create ds-element@latest <dir> [-- --template <template>] [--name <element-name>]
       create-ds-element <dir> [--template <template>] [--name <element-name>]

Creates a ds-element project (a GStreamer element written in TypeScript) in <dir>.

Options:
  -t, --template <template>  The project to start from: ${templates} (default: ${DEFAULT_TEMPLATE})
  --name <element-name>      The element's GStreamer name (default: <dir>'s name, lowercase
                             letters and digits only: my-filter -> myfilter)
  -h, --help                 Show this help
`;
}

function templateNames(root) {
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, "package.json")))
    .sort();
}

/** "my-detector" -> "mydetector": GStreamer element names are usually one lowercase word. */
function elementNameFrom(directoryName) {
  return directoryName.toLowerCase().replace(/[^a-z0-9]/g, "").replace(/^[0-9]+/, "");
}

/** A valid npm package name from a directory name (create-vite's rule); "" when nothing is left. */
function packageNameFrom(directoryName) {
  return directoryName
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "-")
    .replace(/^[._]+/, "")
    .replace(/[^a-z0-9\-~]+/g, "-");
}

function listed(names) {
  const shown = names.slice(0, 5).join(", ");
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

function quoted(value) {
  return JSON.stringify(value);
}

/** Checks everything before anything is written. */
function plan(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        template: { type: "string", short: "t" },
        name: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new ScaffoldError(error.message, { usage: true });
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };

  if (positionals.length === 0) throw new ScaffoldError("Expected a project directory for <dir> but received nothing", { usage: true });
  if (positionals.length > 1) {
    throw new ScaffoldError(
      `Expected one project directory for <dir> but received ${positionals.length}: ${positionals.map(quoted).join(", ")}`,
      { usage: true },
    );
  }
  const [dir] = positionals;
  const target = resolve(dir);
  const directoryName = basename(target);

  const { root, checkout } = templateSource();
  const templates = templateNames(root);
  const template = values.template ?? DEFAULT_TEMPLATE;
  if (!templates.includes(template)) {
    throw new ScaffoldError(`Expected one of ${templates.map(quoted).join(", ")} for --template but received ${quoted(template)}`);
  }

  let elementName = values.name;
  if (elementName !== undefined && !ELEMENT_NAME.test(elementName)) {
    throw new ScaffoldError(
      `Expected an element name (a lowercase letter, then lowercase letters, digits or "-") for --name but received ${quoted(elementName)}`,
    );
  }
  if (elementName === undefined) {
    elementName = elementNameFrom(directoryName);
    if (elementName === "") {
      throw new ScaffoldError(
        `Expected a directory name with a letter in it (the element is named after it) for <dir> but received ${quoted(directoryName)}; ` +
          "pass --name <element-name>",
      );
    }
  }

  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) {
      throw new ScaffoldError(`Expected an empty or new directory for <dir> but received ${quoted(dir)}, a file`);
    }
    const entries = readdirSync(target).sort();
    if (entries.length > 0) {
      throw new ScaffoldError(
        `Expected an empty or new directory for <dir> but received ${quoted(dir)}, which contains ${listed(entries)}; ` +
          "choose another directory or empty this one",
      );
    }
  }

  return {
    help: false,
    target,
    template,
    templateDir: join(root, template),
    checkout,
    elementName,
    packageName: packageNameFrom(directoryName) || elementName,
  };
}

/** Copies `from` into `to`, leaving out NOT_COPIED and renaming RENAMED; returns the files written. */
function copyTemplate(from, to) {
  const written = [];
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (NOT_COPIED.has(entry.name)) continue;
    const source = join(from, entry.name);
    const destination = join(to, RENAMED.get(entry.name) ?? entry.name);
    if (entry.isDirectory()) written.push(...copyTemplate(source, destination));
    else {
      copyFileSync(source, destination);
      written.push(destination);
    }
  }
  return written;
}

/**
 * The ds-element packages of a checkout, packed into the project (`npm pack`, what a release
 * publishes): the project's `npm install` then needs no registry copy of them. Returns the
 * tarballs, by package name, relative to the project.
 */
function packCheckout(checkout, project) {
  const missing = [join(checkout, "sdk", "dist", "index.js"), join(checkout, "native-host", "build", "Release", "libgstdsnode.so")].filter(
    (file) => !existsSync(file),
  );
  if (missing.length > 0) {
    throw new ScaffoldError(
      `Expected a built ds-element checkout at ${checkout} but received one without ${missing.join(", ")}; run \`npm run setup\` there first`,
    );
  }
  const destination = join(project, PACKAGES_FOLDER);
  mkdirSync(destination, { recursive: true });
  const packed = spawnSync("npm", ["pack", join(checkout, "native-host"), join(checkout, "sdk"), "--json", "--pack-destination", destination], {
    cwd: destination,
    encoding: "utf8",
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  if (packed.error || packed.status !== 0) {
    throw new ScaffoldError(`Cannot pack the checkout's packages (npm pack in ${checkout}): ${packed.error?.message ?? packed.stderr.trim()}`);
  }
  const tarballs = {};
  // npm up to 11 prints an array of what it packed, npm 12 (Debian sid) an object by package name.
  const report = JSON.parse(packed.stdout);
  for (const { name, filename } of Array.isArray(report) ? report : Object.values(report)) {
    tarballs[name] = `file:${PACKAGES_FOLDER}/${filename}`;
  }
  return tarballs;
}

/**
 * The only edit of package.json, made on the parsed JSON: its name and where ds-element comes
 * from (the SDK's version on the registry, or the checkout's tarballs, ds-element-native among
 * them so that npm takes it from there too).
 */
function editPackageJson(project, packageName, tarballs) {
  const file = join(project, "package.json");
  const pkg = JSON.parse(readFileSync(file, "utf8"));
  pkg.name = packageName;
  pkg.dependencies = tarballs === undefined ? { ...pkg.dependencies, "ds-element": SDK_VERSION } : { ...pkg.dependencies, ...tarballs };
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}

/** Puts the element name where the template has ELEMENT_NAME_TOKEN: src/ and test/ TypeScript, README.md. */
function nameElement(project, files, elementName) {
  const named = files.filter(
    (file) =>
      (["src", "test"].some((folder) => file.startsWith(`${join(project, folder)}${sep}`)) && file.endsWith(".ts")) ||
      file === join(project, "README.md"),
  );
  for (const file of named) {
    const text = readFileSync(file, "utf8");
    if (text.includes(ELEMENT_NAME_TOKEN)) writeFileSync(file, text.replaceAll(ELEMENT_NAME_TOKEN, elementName));
  }
}

function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function nextSteps(target, elementName) {
  // "../../x" from an unrelated folder reads worse than "/x": show the shorter.
  const relativePath = relative(process.cwd(), target);
  const where = relativePath.length <= target.length ? relativePath : target;
  const steps = [
    ...(where === "" ? [] : [`cd ${shellWord(where)}`]),
    "npm install",
    "npm run build",
    "npm test",
    `npx ds-element run -- gst-inspect-1.0 ${elementName}`,
  ];
  return steps.map((step) => `  ${step}`).join("\n");
}

function main(argv) {
  try {
    const scaffold = plan(argv);
    if (scaffold.help) {
      process.stdout.write(usage());
      return 0;
    }
    const files = copyTemplate(scaffold.templateDir, scaffold.target);
    const tarballs = scaffold.checkout === undefined ? undefined : packCheckout(scaffold.checkout, scaffold.target);
    editPackageJson(scaffold.target, scaffold.packageName, tarballs);
    nameElement(scaffold.target, files, scaffold.elementName);
    const origin =
      scaffold.checkout === undefined
        ? ""
        : `ds-element comes from the checkout at ${scaffold.checkout}, packed into ${PACKAGES_FOLDER}/ (npm install needs no registry copy of it).\n\n`;
    process.stdout.write(
      `Created ${scaffold.packageName} in ${scaffold.target}: element "${scaffold.elementName}" from the ${scaffold.template} template.\n\n` +
        origin +
        `Next steps:\n${nextSteps(scaffold.target, scaffold.elementName)}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ScaffoldError)) throw error;
    process.stderr.write(`create-ds-element: ${error.message}\n`);
    if (error.usage) process.stderr.write(`\n${usage()}`);
    return error.usage ? 2 : 1;
  }
}

process.exitCode = main(process.argv.slice(2));
