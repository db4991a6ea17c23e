// A local npm registry for the tests of the published path (test/registry.test.ts): verdaccio
// started on 127.0.0.1 with its own storage and no uplink, so nothing it serves comes from the
// network. It holds the third-party packages the templates need, published from what
// `npm ci` put in npm's cache (the very tarballs of package-lock.json, integrity and all), and
// whatever the test publishes with `npm publish`.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { repoRoot } from "./gst";

/** A running registry. */
export interface LocalRegistry {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** A user config (`npm_config_userconfig`) with the registry and a token that may publish. */
  npmrc: string;
  token: string;
  /** What verdaccio printed (warnings and errors). */
  log(): string;
  stop(): void;
}

/** Starts verdaccio with storage, config and users under `dir`; resolves once it listens. */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "uplinks: {}",
      "packages:",
      "  '@*/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "web:",
      "  enable: false",
      // Tokens as JWTs: checked by signature, not by hashing the password again on each request.
      "security:",
      "  api:",
      "    jwt:",
      "      sign:",
      "        expiresIn: 1d",
      "max_body_size: 500mb",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const server = spawn(process.execPath, [join(__dirname, "local-registry-server.cjs"), config], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`verdaccio did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    server.stdout!.on("data", read);
    server.stderr!.on("data", read);
    server.once("exit", (code) => reject(new Error(`verdaccio exited (${code}):\n${output}`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  const { token } = (await request("PUT", `${url}-/user/org.couchdb.user:ci`, undefined, { name: "ci", password: "ci-password" })) as {
    token: string;
  };
  const npmrc = join(dir, "npmrc");
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  return { url, npmrc, token, log: () => output, stop: () => server.kill("SIGTERM") };
}

/** One JSON request to verdaccio; an answer of 400 or more is an Error with its text. */
function request(method: string, url: string, token: string | undefined, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method,
        // A connection per request: a kept-alive one may be closed by the server (after its idle
        // timeout) while a big package's body is being prepared, and the write then fails.
        agent: false,
        headers: {
          "content-type": "application/json",
          ...(payload ? { "content-length": String(payload.length) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if ((response.statusCode ?? 500) >= 400) reject(new Error(`${method} ${url}: ${response.statusCode} ${text}`));
          else resolve(text === "" ? undefined : (JSON.parse(text) as unknown));
        });
      },
    );
    outgoing.on("error", (error) => reject(new Error(`${method} ${url}: ${error.message}`, { cause: error })));
    outgoing.end(payload);
  });
}

/** Whether the registry has a package of that name. */
export async function hasPackage(registry: LocalRegistry, name: string): Promise<boolean> {
  const response = await fetch(`${registry.url}${name.replace("/", "%2f")}`);
  await response.arrayBuffer();
  return response.ok;
}

// ---------------------------------------------------------------- third-party packages

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

/** One package version to publish: where package-lock.json has it and where its tarball is. */
interface ThirdParty {
  key: string;
  name: string;
  entry: LockEntry;
}

/**
 * The packages `from` (a folder of the repository, "" for its root) resolves `names` to, and
 * everything they need, as package-lock.json resolved them: lookups walk up the nested
 * node_modules folders the way Node's do. Packages named in `ours` are left out (the test
 * publishes those).
 */
function dependencyClosure(lock: Record<string, LockEntry>, roots: { from: string; names: string[] }[], ours: ReadonlySet<string>): ThirdParty[] {
  const found = new Map<string, ThirdParty>();
  const queue: { from: string; name: string; optional: boolean }[] = roots.flatMap(({ from, names }) => names.map((name) => ({ from, name, optional: false })));
  while (queue.length > 0) {
    const { from, name, optional } = queue.shift()!;
    if (ours.has(name)) continue;
    let key: string | undefined;
    for (let at = from; ; ) {
      const candidate = at === "" ? `node_modules/${name}` : `${at}/node_modules/${name}`;
      if (lock[candidate]) {
        key = candidate;
        break;
      }
      if (at === "") break;
      const nested = at.lastIndexOf("/node_modules/");
      at = nested < 0 ? "" : at.slice(0, nested);
    }
    if (key === undefined) {
      if (optional) continue;
      throw new Error(`package-lock.json has no ${name} for ${from || "the root"}: run npm install`);
    }
    if (found.has(key)) continue;
    const entry = lock[key]!;
    found.set(key, { key, name, entry });
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    for (const dependency of Object.keys(entry.dependencies ?? {})) queue.push({ from: key, name: dependency, optional: false });
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) queue.push({ from: key, name: dependency, optional: true });
    for (const peer of Object.keys(entry.peerDependencies ?? {})) {
      if (!optionalPeers[peer]?.optional) queue.push({ from: key, name: peer, optional: false });
    }
  }
  return [...found.values()];
}

function npmCacheDir(): string {
  return process.env.npm_config_cache || execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
}

/**
 * The package's tarball: from npm's content-addressed cache (`_cacache/content-v2/<algorithm>/…`,
 * where `npm ci` left it), else packed from the installed folder. Undefined for a package of
 * another platform (npm skips those, so neither exists here).
 */
function tarballOf(pkg: ThirdParty, cache: string, scratch: string): Buffer | undefined {
  const [algorithm, digest] = (pkg.entry.integrity ?? "").split("-", 2);
  if (algorithm && digest) {
    const hex = Buffer.from(digest, "base64").toString("hex");
    const file = join(cache, "_cacache", "content-v2", algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
    if (existsSync(file)) return readFileSync(file);
  }
  const installed = join(repoRoot, pkg.key);
  if (!existsSync(join(installed, "package.json"))) {
    if (pkg.entry.os || pkg.entry.cpu || pkg.entry.libc) return undefined;
    throw new Error(`${pkg.name}@${pkg.entry.version} is neither in npm's cache (${cache}) nor installed (${installed}): run npm ci`);
  }
  // npm up to 11 prints an array of what it packed, npm 12 (Debian sid) an object by package name.
  const report = JSON.parse(
    execFileSync("npm", ["pack", installed, "--ignore-scripts", "--json", "--pack-destination", scratch], { cwd: scratch, encoding: "utf8" }),
  ) as { filename: string }[] | Record<string, { filename: string }>;
  const [packed] = Array.isArray(report) ? report : Object.values(report);
  return readFileSync(join(scratch, packed!.filename));
}

/** package.json of a package tarball (the first entry named <folder>/package.json). */
function manifestOf(tarball: Buffer): Record<string, unknown> {
  const tar = gunzipSync(tarball);
  let longName: string | undefined;
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number): string => header.subarray(start, start + length).toString("utf8").replace(/\0.*$/s, "");
    const prefix = field(345, 155);
    let name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156]!);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = body.toString("utf8").replace(/\0.*$/s, "");
      continue;
    }
    if (type === "x") {
      longName = /\d+ path=([^\n]*)\n/.exec(body.toString("utf8"))?.[1] ?? longName;
      continue;
    }
    if (longName !== undefined) [name, longName] = [longName, undefined];
    if (name.replace(/^[^/]*\//, "") === "package.json") return JSON.parse(body.toString("utf8")) as Record<string, unknown>;
  }
  throw new Error("no package.json in the tarball");
}

/** Semver order, enough for the versions of one lock file: numbers, then a release after its prereleases. */
function compareVersions(a: string, b: string): number {
  const [coreA, preA] = a.split("-", 2);
  const [coreB, preB] = b.split("-", 2);
  const numbersA = coreA!.split(".").map(Number);
  const numbersB = coreB!.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (numbersA[i] !== numbersB[i]) return numbersA[i]! - numbersB[i]!;
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

/**
 * Publishes the third-party packages `roots` need (package-lock.json's resolution of them and
 * their dependencies) to `registry`, from npm's cache. Returns how many package versions.
 */
export async function publishThirdParty(registry: LocalRegistry, roots: { from: string; names: string[] }[], ours: ReadonlySet<string>): Promise<number> {
  const lock = (JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }).packages;
  const cache = npmCacheDir();
  const scratch = mkdtempSync(join(registry.npmrc, "..", "packed-"));
  const byName = new Map<string, { version: string; tarball: Buffer; integrity: string | undefined }[]>();
  try {
    for (const pkg of dependencyClosure(lock, roots, ours)) {
      const tarball = tarballOf(pkg, cache, scratch);
      if (tarball === undefined) continue;
      const versions = byName.get(pkg.name) ?? [];
      if (!versions.some((version) => version.version === pkg.entry.version)) {
        versions.push({ version: pkg.entry.version!, tarball, integrity: pkg.entry.integrity });
      }
      byName.set(pkg.name, versions);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const publishOne = async (name: string, version: string, tarball: Buffer, integrity: string | undefined): Promise<void> => {
    const manifest = manifestOf(tarball);
    const filename = `${name.replace(/^@[^/]*\//, "")}-${version}.tgz`;
    const dist = {
      integrity: integrity ?? `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
      shasum: createHash("sha1").update(tarball).digest("hex"),
      tarball: `${registry.url}${name}/-/${filename}`,
    };
    await request("PUT", `${registry.url}${name.replace("/", "%2f")}`, registry.token, {
      _id: name,
      name,
      "dist-tags": { latest: version },
      versions: { [version]: { ...manifest, _id: `${name}@${version}`, dist } },
      _attachments: { [filename]: { content_type: "application/octet-stream", data: tarball.toString("base64"), length: tarball.length } },
    });
  };
  // Versions of one package one after the other, lowest first (the last is `latest`); packages side by side.
  const groups = [...byName.entries()];
  const workers = Array.from({ length: 4 }, async () => {
    for (let group = groups.shift(); group !== undefined; group = groups.shift()) {
      const [name, versions] = group;
      for (const { version, tarball, integrity } of versions.sort((a, b) => compareVersions(a.version, b.version))) {
        await publishOne(name, version, tarball, integrity);
      }
    }
  });
  await Promise.all(workers);
  return [...byName.values()].reduce((count, versions) => count + versions.length, 0);
}

/** A folder for the registry's files. */
export function registryDir(parent: string): string {
  const dir = join(parent, "registry");
  mkdirSync(dir, { recursive: true });
  return dir;
}
