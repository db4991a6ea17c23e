#!/usr/bin/env python3
"""Checks the GPU fixture element's two runs against each other (scripts/gpu/device-run.sh).

The element (contract: docs/internals/gpu-testing.md) ran once on system memory (--cpu) and
once on GstCudaMemory (--cuda); each folder holds frames.jsonl (one JSON object per frame) and
frame-<frameNum>.bin (the letterboxed output, raw, C order). Passes when
  - both runs saw the same frames, at least --frames of them;
  - every CUDA-run frame was extracted as a CUDA tensor handle (device "cuda"), letterboxed on the
    GPU (outputDevice "cuda") with hostCopies == 0; every CPU-run frame is on device "cpu";
  - the outputs agree: same dtype and shape, and |cuda - cpu| <= atol + rtol * |cpu| for every
    element (floats: atol 1e-3, rtol 1e-5; integers: atol 0, i.e. equal; --atol/--rtol override).
Prints a readable account and writes it as JSON (--json). Exit status 0 when everything passes.
"""
import argparse
import array
import json
import os
import struct
import sys

try:
    import numpy as np
except ImportError:  # the outputs are then compared byte for byte
    np = None

DTYPES = {
    "uint8": ("u1", False), "int8": ("i1", False), "uint16": ("u2", False), "int16": ("i2", False),
    "int32": ("i4", False), "uint32": ("u4", False), "float16": ("f2", True), "float32": ("f4", True),
    "float64": ("f8", True),
}


# Typecodes of the array module (native order: x86-64 is little-endian, like the files).
ARRAY_CODES = {"u1": "B", "i1": "b", "u2": "H", "i2": "h", "u4": "I", "i4": "i", "f4": "f", "f8": "d"}


def value_differences(cpu_bytes, cuda_bytes, code, tol_abs, tol_rel):
    """Differences element by element: numpy where there is one, else the array module."""
    if np is not None:
        a = np.frombuffer(cpu_bytes, dtype="<" + code).astype(np.float64)
        b = np.frombuffer(cuda_bytes, dtype="<" + code).astype(np.float64)
        diff = np.abs(a - b)
        bad = diff > tol_abs + tol_rel * np.abs(a)
        first = int(np.argmax(bad)) if bad.any() else None
        return {
            "values": int(a.size), "maxAbsDiff": float(diff.max()), "meanAbsDiff": float(diff.mean()),
            "differing": int((diff > 0).sum()), "outOfTolerance": int(bad.sum()),
            "firstOutOfTolerance": None if first is None else {"index": first, "cpu": float(a[first]), "cuda": float(b[first])},
        }
    if code == "f2":
        count = len(cpu_bytes) // 2
        a, b = struct.unpack(f"<{count}e", cpu_bytes), struct.unpack(f"<{count}e", cuda_bytes)
    else:
        a, b = array.array(ARRAY_CODES[code], cpu_bytes), array.array(ARRAY_CODES[code], cuda_bytes)
    max_diff = total = 0.0
    differing = bad = 0
    first = None
    for index, (x, y) in enumerate(zip(a, b)):
        d = abs(x - y)
        if d:
            differing += 1
            total += d
            max_diff = max(max_diff, d)
            if d > tol_abs + tol_rel * abs(x):
                bad += 1
                if first is None:
                    first = {"index": index, "cpu": float(x), "cuda": float(y)}
    return {
        "values": len(a), "maxAbsDiff": max_diff, "meanAbsDiff": total / max(len(a), 1),
        "differing": differing, "outOfTolerance": bad, "firstOutOfTolerance": first,
    }


def read_run(folder):
    path = os.path.join(folder, "frames.jsonl")
    frames = {}
    if not os.path.exists(path):
        return None, f"{path} does not exist (did the element run?)"
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                return None, f"{path}:{number}: not JSON ({error})"
            if "frameNum" not in record:
                continue  # other lines (caps, eos) are the element's business
            frames[int(record["frameNum"])] = record
    return frames, None


def load_output(folder, record):
    path = os.path.join(folder, record.get("file") or f"frame-{record['frameNum']}.bin")
    with open(path, "rb") as f:
        return path, f.read()


def compare_frame(frame, cpu, cuda, cpu_dir, cuda_dir, atol, rtol):
    problems = []
    result = {"frameNum": frame}
    if cpu.get("device") != "cpu":
        problems.append(f"CPU run: input device {cpu.get('device')!r}, expected 'cpu'")
    if cuda.get("device") != "cuda":
        problems.append(f"CUDA run: input device {cuda.get('device')!r}, expected 'cuda' (a CUDA tensor handle)")
    if cuda.get("outputDevice", "cuda") != "cuda":
        problems.append(f"CUDA run: letterbox output on {cuda.get('outputDevice')!r}, expected 'cuda'")
    copies = cuda.get("hostCopies")
    result["hostCopies"] = copies
    if copies != 0:
        problems.append(f"CUDA run: hostCopies {copies!r}, expected 0")
    for key in ("dtype", "shape"):
        if cpu.get(key) != cuda.get(key):
            problems.append(f"{key} differs: CPU {cpu.get(key)!r}, CUDA {cuda.get(key)!r}")
    result["dtype"], result["shape"] = cuda.get("dtype"), cuda.get("shape")
    try:
        _, cpu_bytes = load_output(cpu_dir, cpu)
        _, cuda_bytes = load_output(cuda_dir, cuda)
    except OSError as error:
        if cpu.get("checksum") is not None and cuda.get("checksum") is not None:
            equal = cpu["checksum"] == cuda["checksum"]
            result.update(compared="checksum", equal=equal)
            if not equal:
                problems.append(f"checksums differ: CPU {cpu['checksum']}, CUDA {cuda['checksum']}")
        else:
            problems.append(f"output missing: {error}")
        result["problems"] = problems
        return result
    result["bytes"] = len(cuda_bytes)
    if len(cpu_bytes) != len(cuda_bytes):
        problems.append(f"output sizes differ: CPU {len(cpu_bytes)} bytes, CUDA {len(cuda_bytes)} bytes")
    elif cpu_bytes == cuda_bytes:
        result.update(compared="bytes", equal=True, maxAbsDiff=0.0)
    elif cuda.get("dtype") not in DTYPES:
        result.update(compared="bytes", equal=False)
        problems.append(f"outputs differ (compared byte for byte: unknown dtype {cuda.get('dtype')!r})")
    else:
        code, is_float = DTYPES[cuda["dtype"]]
        tol_abs = atol if atol is not None else (1e-3 if is_float else 0.0)
        tol_rel = rtol if rtol is not None else (1e-5 if is_float else 0.0)
        stats = value_differences(cpu_bytes, cuda_bytes, code, tol_abs, tol_rel)
        result.update(compared="values", equal=False, atol=tol_abs, rtol=tol_rel, **stats)
        if stats["outOfTolerance"]:
            i = stats["firstOutOfTolerance"]
            problems.append(
                f"{stats['outOfTolerance']} of {stats['values']} values out of tolerance (max |diff| "
                f"{stats['maxAbsDiff']:g}; first at index {i['index']}: CPU {i['cpu']:g}, CUDA {i['cuda']:g})")
    result["problems"] = problems
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu", required=True)
    parser.add_argument("--cuda", required=True)
    parser.add_argument("--frames", type=int, default=1, help="frames each run must have written")
    parser.add_argument("--atol", type=float)
    parser.add_argument("--rtol", type=float)
    parser.add_argument("--json")
    args = parser.parse_args()

    report = {"pass": False, "frames": [], "problems": []}
    cpu, error_cpu = read_run(args.cpu)
    cuda, error_cuda = read_run(args.cuda)
    for error in (error_cpu, error_cuda):
        if error:
            report["problems"].append(error)
    if cpu is not None and cuda is not None:
        report["cpuFrames"], report["cudaFrames"] = len(cpu), len(cuda)
        if len(cuda) < args.frames or len(cpu) < args.frames:
            report["problems"].append(f"expected {args.frames} frames, CPU run wrote {len(cpu)}, CUDA run {len(cuda)}")
        if set(cpu) != set(cuda):
            report["problems"].append(f"frame numbers differ: only CPU {sorted(set(cpu) - set(cuda))}, only CUDA {sorted(set(cuda) - set(cpu))}")
        for frame in sorted(set(cpu) & set(cuda)):
            result = compare_frame(frame, cpu[frame], cuda[frame], args.cpu, args.cuda, args.atol, args.rtol)
            report["frames"].append(result)
            report["problems"].extend(f"frame {frame}: {p}" for p in result["problems"])
        sample = next(iter(cuda.values()), {})
        report["cudaSample"] = {k: sample.get(k) for k in ("device", "outputDevice", "dtype", "shape", "hostCopies", "dataPtr", "first") if k in sample}
    report["pass"] = not report["problems"] and bool(report["frames"])
    if not report["frames"] and not report["problems"]:
        report["problems"].append("no frames to compare")

    for frame in report["frames"]:
        how = frame.get("compared", "-")
        detail = "equal" if frame.get("equal") else f"max |diff| {frame.get('maxAbsDiff', '?')}"
        print(f"frame {frame['frameNum']}: {frame.get('dtype')} {frame.get('shape')} hostCopies={frame.get('hostCopies')} "
              f"{how}: {detail}{'' if not frame['problems'] else ' -- ' + '; '.join(frame['problems'])}")
    for problem in report["problems"]:
        if not problem.startswith("frame "):
            print("problem:", problem)
    print("element-compare:", "PASS" if report["pass"] else "FAIL")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0 if report["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
