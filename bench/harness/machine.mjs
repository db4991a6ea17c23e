// What the figures were measured on: they mean little without the CPU, the core count and the
// versions of everything in the per-buffer path.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";

export function describeMachine() {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const model = cpuinfo.match(/^model name\s*:\s*(.*)$/m)?.[1]?.trim() ?? "unknown";
  const memoryGiB = os.totalmem() / 2 ** 30;
  return {
    date: new Date().toISOString(),
    cpu: model,
    cores: os.cpus().length,
    memory: `${memoryGiB.toFixed(1)} GiB`,
    kernel: `${os.type()} ${os.release()}`,
    virtualization: output(["systemd-detect-virt"]) ?? "unknown",
    load: os.loadavg().map((value) => value.toFixed(2)).join(" "),
  };
}

export function describeVersions(root, libnodePath) {
  return {
    gstreamer: output(["gst-launch-1.0", "--version"])?.match(/GStreamer ([\d.]+)/)?.[1] ?? "unknown",
    node: process.version,
    libnode: libnodeVersion(libnodePath),
    gstPython: output(["dpkg-query", "-W", "-f", "${Version}", "gstreamer1.0-python3-plugin-loader"]) ?? "unknown",
    python: output(["/usr/bin/python3", "--version"])?.replace("Python ", "") ?? "unknown",
    commit: gitState(root),
  };
}

function libnodeVersion(libnodePath) {
  // Debian's libnode is unpacked, not installed (scripts/setup.sh), so dpkg does not know it;
  // its headers, unpacked from the same release, carry the version.
  const header = "/usr/include/nodejs/src/node_version.h";
  if (!existsSync(header)) return `unknown (${libnodePath})`;
  const text = readFileSync(header, "utf8");
  const part = (name) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  return `${part("MAJOR")}.${part("MINOR")}.${part("PATCH")} (${libnodePath})`;
}

function gitState(root) {
  const head = output(["git", "-C", root, "rev-parse", "--short", "HEAD"]);
  if (!head) return "unknown";
  const changed = output(["git", "-C", root, "status", "--porcelain", "--", "native-host", "sdk"]);
  return changed ? `${head} + uncommitted changes in native-host/ or sdk/` : head;
}

function output(argv) {
  try {
    return execFileSync(argv[0], argv.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}
