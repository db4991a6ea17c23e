#!/usr/bin/env python3
"""PyTorch peer of the CUDA pre-processing bench (native-host/test/ops_gpu_test.cu).

The same operation in eager PyTorch on the GPU: a uint8 NHWC batch already on the device,
16 x 1080x1920x3 (and 16 x 720x1280x3) -> float -> F.interpolate(bilinear,
align_corners=False) to the letterbox size (640x360) -> F.pad to 640x640 with 114 ->
(x/255 - mean)/std -> half, NCHW contiguous. Timed with CUDA events (median of --iterations
after 10 warm-ups), in two spellings — the obvious one (permute, then contiguous NCHW float)
and a channels-last one that keeps PyTorch on its NHWC interpolation kernel — and the faster
one is the peer's figure.

--check DIR compares PyTorch's result on the frame the C++ bench dumped there with ours.
Prints one JSON object (and writes it to --json PATH).

    python3 bench/gpu/torch_peer.py [--iterations N] [--check DIR] [--json PATH]
"""

import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)
PAD_VALUE = 114.0
OUT = 640


def letterbox_geometry(width, height):
    # ops.h: resized = round(side * min(out/w, out/h)), padding floored half of the rest.
    factor = min(OUT / width, OUT / height)
    resized_w = min(max(int(width * factor + 0.5), 1), OUT)
    resized_h = min(max(int(height * factor + 0.5), 1), OUT)
    pad_x, pad_y = (OUT - resized_w) // 2, (OUT - resized_h) // 2
    return resized_w, resized_h, pad_x, pad_y


def make_pipeline(width, height, channels_last):
    resized_w, resized_h, pad_x, pad_y = letterbox_geometry(width, height)
    padding = (pad_x, OUT - resized_w - pad_x, pad_y, OUT - resized_h - pad_y)
    mean = torch.tensor(MEAN, device="cuda").view(1, 3, 1, 1)
    std = torch.tensor(STD, device="cuda").view(1, 3, 1, 1)

    def run(frames):  # frames: uint8 [N, H, W, 3] on the GPU
        x = frames.permute(0, 3, 1, 2)  # NCHW view with channels-last strides
        x = x.float() if channels_last else x.contiguous().float()
        x = F.interpolate(x, size=(resized_h, resized_w), mode="bilinear", align_corners=False)
        x = F.pad(x, padding, value=PAD_VALUE)
        x = x.mul_(1.0 / 255.0).sub_(mean).div_(std)
        return x.half().contiguous()

    return run


def time_cuda(work, iterations, warmup=10):
    for _ in range(warmup):
        work()
    events = [torch.cuda.Event(enable_timing=True) for _ in range(iterations + 1)]
    events[0].record()
    for i in range(iterations):
        work()
        events[i + 1].record()
    torch.cuda.synchronize()
    times = sorted(events[i].elapsed_time(events[i + 1]) for i in range(iterations))
    median = times[iterations // 2] if iterations % 2 else (times[iterations // 2 - 1] + times[iterations // 2]) / 2
    return {"median_ms": round(median, 5), "min_ms": round(times[0], 5)}


def bench_case(name, width, height, iterations):
    generator = torch.Generator(device="cuda").manual_seed(width)
    frames = torch.randint(0, 256, (16, height, width, 3), dtype=torch.uint8, device="cuda", generator=generator)
    spellings = {}
    for spelling, channels_last in (("contiguous", False), ("channels_last", True)):
        run = make_pipeline(width, height, channels_last)
        result = run(frames)
        assert result.shape == (16, 3, OUT, OUT) and result.dtype == torch.float16 and result.is_contiguous()
        spellings[spelling] = time_cuda(lambda: run(frames), iterations)
    best = min(spellings, key=lambda key: spellings[key]["median_ms"])
    return {"name": name, "input": f"{width}x{height} RGB uint8", "spellings": spellings, "best": best,
            "median_ms": spellings[best]["median_ms"], "min_ms": spellings[best]["min_ms"]}


def check_against_ours(directory):
    """PyTorch on the dumped frame 0 vs our float16 output; both follow the same definition."""
    raw = open(os.path.join(directory, "input-frame0-1080x1920x3.u8"), "rb").read()
    ours = open(os.path.join(directory, "output-frame0-3x640x640.f16"), "rb").read()
    frame = torch.frombuffer(bytearray(raw), dtype=torch.uint8).view(1, 1080, 1920, 3).cuda()
    theirs = make_pipeline(1920, 1080, False)(frame)[0].float()
    mine = torch.frombuffer(bytearray(ours), dtype=torch.float16).view(3, OUT, OUT).cuda().float()
    difference = (theirs - mine).abs()
    # One float16 ulp at each value: the two compute in float32 in different orders.
    ulp = torch.maximum(mine.abs(), theirs.abs()).clamp(min=2.0**-14) * 2.0**-10
    return {"max_abs_diff": round(difference.max().item(), 6),
            "mean_abs_diff": float(f"{difference.mean().item():.3g}"),
            "within_one_half_ulp_pct": round(100.0 * (difference <= ulp).float().mean().item(), 4),
            "identical_pct": round(100.0 * (difference == 0).float().mean().item(), 4)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--check", metavar="DIR")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch_peer.py: no CUDA device for PyTorch", file=sys.stderr)
        return 2
    torch.backends.cudnn.benchmark = True
    report = {"torch": torch.__version__, "torch_cuda": torch.version.cuda,
              "device": torch.cuda.get_device_name(0),
              "cases": [bench_case("letterbox+normalise 16x1080p", 1920, 1080, args.iterations),
                        bench_case("letterbox+normalise 16x720p", 1280, 720, args.iterations)]}
    if args.check:
        report["check_vs_ours"] = check_against_ours(args.check)
    text = json.dumps(report)
    print(text)
    if args.json:
        with open(args.json, "w") as file:
            file.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
