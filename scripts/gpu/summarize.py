#!/usr/bin/env python3
"""Gathers what scripts/gpu/device-run.sh left in its results folder into one JSON file, prints
a compact copy and a table, and exits 0 only when no step failed.

Embedded: the machine, each step (status, exit status, seconds, the end of its log), the ops
test's own JSON files (whatever scripts/gpu/run-device.sh wrote into its OUT folder), the element
comparison (compare-element.py), and the test/gpu hooks.
"""
import argparse
import glob
import json
import os
import sys

LOG_TAIL = 3000


def read(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def read_json(path):
    text = read(path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        return {"unparsable": str(error), "text": text[:LOG_TAIL]}


def tsv(path, fields):
    rows = []
    for line in (read(path) or "").splitlines():
        if line.strip():
            values = line.split("\t")
            rows.append(dict(zip(fields, values + [""] * (len(fields) - len(values)))))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--mode", default="bundle")
    parser.add_argument("--elapsed", type=int, default=0)
    args = parser.parse_args()
    r = args.results

    machine = {}
    for line in (read(os.path.join(r, "machine.txt")) or "").splitlines():
        if ":" in line and not line.startswith(" "):
            key, _, value = line.partition(":")
            machine[key.strip()] = value.strip()
    gpus = [l.strip() for l in (read(os.path.join(r, "machine.txt")) or "").splitlines() if l.startswith("  GPU ")]
    machine["gpus"] = gpus
    machine.pop("nvidia-smi -L", None)

    steps = tsv(os.path.join(r, "steps.tsv"), ["name", "status", "rc", "seconds", "detail"])
    for step in steps:
        log = read(os.path.join(r, "steps", step["name"] + ".log"), "")
        step["logTail"] = log[-LOG_TAIL:]
        try:
            step["seconds"] = int(step["seconds"])
        except ValueError:
            pass

    ops = {}
    for path in sorted(glob.glob(os.path.join(r, "ops", "**", "*.json"), recursive=True)):
        ops[os.path.relpath(path, os.path.join(r, "ops"))] = read_json(path)

    report = {
        "acceptance": "issue 4: CUDA ops = CPU ops; GstCudaMemory pipeline through a TS element, no host copy",
        "mode": args.mode,
        "elapsedSeconds": args.elapsed,
        "machine": machine,
        "bundle": {
            "env": (read(os.path.join(r, "bundle-notes"), "") or "").strip() or None,
            "builtins": (read(os.path.join(r, "builtins-mode"), "") or "").strip() or None,
        },
        "steps": steps,
        "ops": ops or None,
        "elementCompare": read_json(os.path.join(r, "element-compare.json")),
        "hooks": tsv(os.path.join(r, "hooks.tsv"), ["name", "status", "rc", "seconds", "detail"]),
    }
    failed = [s["name"] for s in steps if s["status"] == "fail"]
    report["pass"] = not failed and any(s["status"] == "pass" for s in steps)
    report["failed"] = failed
    with open(args.json, "w") as f:
        json.dump(report, f, indent=1)

    compact = dict(report)
    compact["steps"] = [{k: v for k, v in s.items() if k != "logTail"} for s in steps]
    if isinstance(compact.get("elementCompare"), dict):
        ec = compact["elementCompare"]
        compact["elementCompare"] = {k: ec.get(k) for k in ("pass", "cpuFrames", "cudaFrames", "cudaSample", "problems")}
        compact["elementCompare"]["problems"] = (ec.get("problems") or [])[:5]
    print(json.dumps(compact, indent=None, separators=(",", ":"))[:6000])
    print()
    print(f"{'step':<16} {'status':<6} {'secs':>5}  detail")
    for s in steps:
        print(f"{s['name']:<16} {s['status']:<6} {str(s['seconds']):>5}  {s['detail']}")
    for h in report["hooks"]:
        print(f"  hook {h['name']}: {h['status']} {h['detail']}")
    print(f"GPU RESULT: {'PASS' if report['pass'] else 'FAIL'}"
          f"{'' if report['pass'] else ' (' + ', '.join(failed or ['nothing passed']) + ')'} in {args.elapsed}s")
    return 0 if report["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
