#!/usr/bin/env bash
# The GPU acceptance run, in one call on a machine with an NVIDIA GPU: run from the
# repository root of a copy of the working tree, with gpu-bundle/ carried along
# (scripts/gpu/make-bundle.sh; docs/internals/gpu-testing.md has the exact device call).
#
#   bash scripts/gpu/device-run.sh
#
# Steps, in order; a failing step does not stop the ones after it:
#   bundle          unpack gpu-bundle/ds-gpu-bundle.tar.xz into $DS_GPU_WORK (GStreamer, libnode,
#                   dist/ folders) and make libnode's JS builtins readable (see setup_builtins)
#   ops             scripts/gpu/run-device.sh: CUDA ops against the CPU ops, bench against PyTorch
#   gst-sanity      a plain pipeline and the frame-counter example (no GPU): the bundle works
#   cuda-elements   gst-inspect-1.0 cudaupload / cudadownload (GStreamer's nvcodec plugin)
#   element-cpu     the GPU fixture element on system memory
#   element-cuda    the same on GstCudaMemory: videotestsrc ! cudaupload ! <element> ! cudadownload
#   element-compare CUDA path = CPU path, CUDA tensor handles, no host copy (compare-element.py)
#   hooks           every script or program under test/gpu/ that runs without Node
# Everything printed also goes to $OUT/gpu-run.log; the results to $OUT/gpu-results.json (OUT is
# the device tool's return folder; elsewhere $DS_GPU_WORK/out). Exit status 0 only when no step
# failed.
#
# Environment (defaults in brackets):
#   DS_GPU_MODE          bundle | local: local uses this machine's GStreamer and libnode and the
#                        repo's built dist/ folders (scripts/test-gpu.sh on a GPU machine) [bundle]
#   DS_GPU_WORK          scratch folder [/tmp/ds-gpu]
#   DS_GPU_BUDGET_S      seconds for the whole run; steps are cut to fit [480]
#   DS_GPU_OPS_TIMEOUT   seconds for scripts/gpu/run-device.sh [270]
#   DS_GPU_HOOK_TIMEOUT  seconds for each test/gpu/ hook [180]
#   DS_GPU_ELEMENT       the fixture element of the pipeline test [cudaprobe]
#   DS_GPU_ELEMENT_PROPS extra element properties, e.g. "width=640 height=640" []
#   DS_GPU_FRAMES, DS_GPU_WIDTH, DS_GPU_HEIGHT, DS_GPU_PATTERN   test video [8, 1280, 720, ball]
#   DS_GPU_BUILTINS      auto | system | install | patch (see setup_builtins) [auto]
#   DS_GPU_GST_DEBUG     GST_DEBUG of the GStreamer steps [*:2]
#   DS_GPU_STEPS         all | bundle: only unpack and set up the bundle [all]
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

start_s=$(date +%s)
budget_s=${DS_GPU_BUDGET_S:-480}
mode=${DS_GPU_MODE:-bundle}
work=${DS_GPU_WORK:-/tmp/ds-gpu}
results="$work/results"
out="${OUT:-$work/out}"
bundle="$work/bundle"
bundle_tar="${DS_GPU_BUNDLE_TAR:-$repo/gpu-bundle/ds-gpu-bundle.tar.xz}"
element="${DS_GPU_ELEMENT:-cudaprobe}"
element_props="${DS_GPU_ELEMENT_PROPS:-}"
frames="${DS_GPU_FRAMES:-8}"
width="${DS_GPU_WIDTH:-1280}"
height="${DS_GPU_HEIGHT:-720}"
pattern="${DS_GPU_PATTERN:-ball}"
gst_debug="${DS_GPU_GST_DEBUG:-*:2}"
# Same length as /usr/share/nodejs: the patched libnode reads its builtins from here.
patched_builtins_dir=/tmp/dsgpu-nodejs

rm -rf "$results"
mkdir -p "$results/steps" "$out"
exec > >(tee "$out/gpu-run.log") 2>&1
tee_pid=$!

say() { printf '\n==== %s\n' "$*"; }
remaining() { echo $((start_s + budget_s - $(date +%s))); }

# run_step NAME SECONDS COMMAND...: runs COMMAND (a function or program) with a time limit cut
# to what is left of the budget, records pass/fail/skip in steps.tsv. A command that wants to
# report "skip" exits 77 and writes its reason as the last line of its output.
run_step() {
  local name="$1" limit="$2"; shift 2
  local left=$(( $(remaining) - 5 ))
  local steplog="$results/steps/$name.log"
  if [ "$left" -lt 10 ]; then
    printf '%s\tfail\t-\t0\tout of time (budget %ss)\n' "$name" "$budget_s" >> "$results/steps.tsv"
    say "$name: FAIL (out of time)"
    return 1
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  say "$name (limit ${limit}s)"
  local t0=$(date +%s) rc status detail=""
  ( "$@" 2>&1 | tee "$steplog"; exit "${PIPESTATUS[0]}" ) &
  local pid=$!
  # The step's own processes are stopped at the limit (its process group, then hard).
  ( sleep "$limit"; kill -TERM -- -"$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null; sleep 10; kill -KILL -- -"$pid" 2>/dev/null ) &
  local watchdog=$!
  wait "$pid"; rc=$?
  kill -- -"$watchdog" 2>/dev/null || kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null
  local seconds=$(( $(date +%s) - t0 ))
  if [ "$rc" -eq 0 ]; then status=pass
  elif [ "$rc" -eq 77 ]; then status=skip; detail=$(tail -n 1 "$steplog")
  else
    status=fail
    if [ "$seconds" -ge "$limit" ]; then detail="timed out after ${limit}s"; else detail="exit status $rc"; fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$status" "$rc" "$seconds" "$detail" >> "$results/steps.tsv"
  printf -- '---- %s: %s (%ss%s)\n' "$name" "${status^^}" "$seconds" "${detail:+, $detail}"
  return 0
}
# Steps run in their own process group, so the watchdog stops everything they started.
set -m

# ---------------------------------------------------------------------------------------------
say "machine"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "mode: $mode"
  echo "os: $( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null)"
  echo "kernel: $(uname -r)"
  echo "cpus: $(nproc)"
  echo "nvidia-smi -L:"; nvidia-smi -L 2>&1 | sed 's/^/  /'
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1 | head -n 4 | paste -sd ';')"
  echo "nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*, V[0-9.]*' || echo 'not found')"
  echo "cmake: $(cmake --version 2>/dev/null | head -n 1 || echo 'not found')"
  echo "python3: $(python3 -c 'import sys; print(sys.version.split()[0])' 2>/dev/null || echo 'not found')"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo 'not importable')"
  echo "numpy: $(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || echo 'not importable')"
  echo "xz: $(command -v xz || echo 'not found (python3 unpacks)')"
  # The device copy's .git can lag its working tree; the bundle says what its dist/ was built from.
  echo "repo: $(git rev-parse --short HEAD 2>/dev/null || echo 'no git here')"
  echo "bundle built from: $(sed -n 's/^repo: //p' "$repo/gpu-bundle/MANIFEST" 2>/dev/null | head -n 1)"
} | tee "$results/machine.txt"

# ---------------------------------------------------------------------------------------------
# libnode (Debian's Node 18) reads five JS builtins from /usr/share/nodejs by absolute path when
# its first environment starts, and aborts the process when one is missing; nothing redirects
# it. auto: use /usr/share/nodejs when it already holds the bundle's files; install them there
# when it holds none of them (the GPU machine is a throwaway one and we run as root); otherwise
# (not writable, or other versions there) patch a copy of libnode to read them from
# $patched_builtins_dir, a link to the bundle's copy: a same-length string swap in its data.
setup_builtins() {
  local want="${DS_GPU_BUILTINS:-auto}" src="$bundle/share/nodejs" rel present=0 same=1
  local -a files
  mapfile -t files < <(cd "$src" && find . -type f | sed 's|^\./||' | sort)
  for rel in "${files[@]}"; do
    if [ -e "/usr/share/nodejs/$rel" ]; then
      present=1
      cmp -s "$src/$rel" "/usr/share/nodejs/$rel" || same=0
    else
      same=0
    fi
  done
  if [ "$want" = auto ]; then
    if [ "$same" = 1 ]; then want=system
    elif [ "$present" = 0 ]; then want=install
    else want=patch; echo "other versions of the builtins are in /usr/share/nodejs: leaving them alone"
    fi
  fi
  case "$want" in
    system) echo "builtins: /usr/share/nodejs already holds them" ;;
    install)
      if (cd "$src" && for rel in "${files[@]}"; do mkdir -p "/usr/share/nodejs/$(dirname "$rel")" && cp "$rel" "/usr/share/nodejs/$rel" || exit 1; done); then
        echo "builtins: installed into /usr/share/nodejs: ${files[*]}"
      else
        echo "builtins: /usr/share/nodejs is not writable; patching libnode instead"
        want=patch
      fi ;;
  esac
  if [ "$want" = patch ]; then
    mkdir -p "$bundle/lib-patched"
    ln -sfn "$src" "$patched_builtins_dir"
    python3 - "$bundle/lib/libnode.so.108" "$bundle/lib-patched/libnode.so.108" "$patched_builtins_dir" <<'PY' || return 1
import sys
source, target, new_dir = sys.argv[1], sys.argv[2], sys.argv[3]
old, new = b"/usr/share/nodejs/", new_dir.encode() + b"/"
assert len(old) == len(new), (old, new)
data = open(source, "rb").read()
count = data.count(old)
if count < 5:
    sys.exit(f"expected at least 5 builtin paths in {source}, found {count}")
open(target, "wb").write(data.replace(old, new))
print(f"builtins: patched {count} paths in a copy of libnode ({target}) to {new_dir}/")
PY
  fi
  echo "$want" > "$results/builtins-mode"
}

unpack_bundle() {
  [ -f "$bundle_tar" ] || { echo "no bundle at $bundle_tar: build it with scripts/gpu/make-bundle.sh and carry gpu-bundle"; return 1; }
  rm -rf "$bundle" && mkdir -p "$bundle" || return 1
  if command -v xz >/dev/null; then
    tar -C "$bundle" -xJf "$bundle_tar" || return 1
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$bundle_tar" "$bundle" || return 1
  fi
  head -n 6 "$bundle/MANIFEST"
  echo "unpacked: $(du -sh "$bundle" | cut -f1) into $bundle"
  setup_builtins || return 1
  # Prints the choices bundle-env.sh makes on this machine (stub, fallbacks, libnode).
  (source_bundle_env && echo "env: $DS_GPU_BUNDLE_NOTES" && echo "$DS_GPU_BUNDLE_NOTES" > "$results/bundle-notes")
}

# The bundle's environment (scripts/gpu/bundle-env.sh, from the working tree rather than the
# bundle's copy, so a fix to it needs no new bundle). Only in subshells that run GStreamer.
source_bundle_env() {
  export DS_GPU_BUNDLE="$bundle" DS_GPU_REGISTRY="$work/registry.bin"
  source "$repo/scripts/gpu/bundle-env.sh"
}

# Where the element folders are: the bundle's, or (local mode) the repo's builds.
if [ "$mode" = local ]; then
  dist_example="$repo/examples/frame-counter/dist"
  dist_fixtures="${DS_GPU_FIXTURES_DIST:-$repo/test/out/fixture-elements}"
else
  dist_example="$bundle/dists/frame-counter"
  dist_fixtures="$bundle/dists/fixtures"
fi
export GST_REGISTRY_LOCAL="$work/registry.bin"

# gst DISTS COMMAND...: a GStreamer command with the given dist/ folders on GST_PLUGIN_PATH,
# from the bundle (bundle mode) or this machine.
gst() {
  local dists="$1"; shift
  (
    if [ "$mode" = local ]; then
      export GST_REGISTRY="$GST_REGISTRY_LOCAL" GST_REGISTRY_1_0="$GST_REGISTRY_LOCAL"
      unset GST_PLUGIN_PATH_1_0
    else
      source_bundle_env
    fi
    export GST_PLUGIN_PATH="$dists" GST_DEBUG="$gst_debug" GST_DEBUG_NO_COLOR=1
    exec "$@"
  )
}

# ---------------------------------------------------------------------------------------------
if [ "$mode" = local ]; then
  printf 'bundle\tskip\t-\t0\tlocal mode: this machine'"'"'s GStreamer and libnode\n' >> "$results/steps.tsv"
else
  run_step bundle 120 unpack_bundle
fi
# DS_GPU_STEPS=bundle: unpack and set up the bundle only (scripts/gpu/run-streams-device.sh).
if [ "${DS_GPU_STEPS:-all}" = bundle ]; then
  grep -q "^bundle	pass" "$results/steps.tsv" 2>/dev/null
  exit $?
fi

# (a) The ops test and bench, written by whoever owns the ops; it builds on this machine with
# nvcc, so it runs without the bundle on the library path. Its own results land in
# $DS_GPU_OPS_OUT (it sees that folder as OUT too, so it cannot crowd the tool's return folder).
ops_step() {
  local script="$repo/scripts/gpu/run-device.sh"
  [ -f "$script" ] || { echo "scripts/gpu/run-device.sh is missing (the CUDA ops test)"; return 1; }
  mkdir -p "$results/ops"
  OUT="$results/ops" DS_GPU_OPS_OUT="$results/ops" bash "$script"
}
ops_limit=${DS_GPU_OPS_TIMEOUT:-270}
# Keep at least 150 s for the steps after it.
[ $(( $(remaining) - 150 )) -lt "$ops_limit" ] && ops_limit=$(( $(remaining) - 150 ))
[ "$ops_limit" -lt 30 ] && ops_limit=30
run_step ops "$ops_limit" ops_step
# Its own files come back too (the tool returns 8 files at most: 5 of them, up to 8 MiB each;
# JSON first, then text, then the rest).
find "$results/ops" -maxdepth 1 -type f -size -8M 2>/dev/null \
  | awk '{ k = /\.json$/ ? 0 : /\.txt$/ ? 1 : 2; print k "\t" $0 }' | sort | cut -f2- | head -n 5 | while read -r f; do
  mkdir -p "$out/ops" && cp "$f" "$out/ops/"
done

gst_sanity() {
  gst "" gst-launch-1.0 -q videotestsrc num-buffers=10 ! fakesink || { echo "plain GStreamer pipeline failed"; return 1; }
  echo "plain pipeline: ok"
  local lines="$results/frame-counter.jsonl"
  gst "$dist_example" gst-launch-1.0 -q videotestsrc num-buffers=10 ! video/x-raw,format=RGBA,width=320,height=240 \
    ! framecounter location="$lines" ! fakesink || { echo "frame-counter pipeline failed"; return 1; }
  local n
  n=$(grep -c '"type":"frame"' "$lines" 2>/dev/null)
  echo "frame-counter: $n frame lines in $lines"
  [ "$n" -ge 10 ] || { echo "expected 10 frame lines"; head -n 5 "$lines" 2>/dev/null; return 1; }
}
run_step gst-sanity 90 gst_sanity

cuda_elements() {
  local ok=0
  for e in cudaupload cudadownload; do
    if gst "" gst-inspect-1.0 "$e" > "$results/inspect-$e.txt" 2>&1; then
      echo "$e: $(grep -m1 'Long-name' "$results/inspect-$e.txt" | sed 's/^ *//')"
    else
      ok=1
      echo "$e: not registered"; cat "$results/inspect-$e.txt"
    fi
  done
  if [ "$ok" != 0 ]; then
    echo "-- gst-inspect-1.0 nvcodec, with the plugin's own log:"
    GST_DEBUG_SAVE="$gst_debug"; gst_debug="nvcodec:5,cuda*:4,*:2"
    rm -f "$work/registry.bin"
    gst "" gst-inspect-1.0 nvcodec 2>&1 | tail -n 60
    gst_debug="$GST_DEBUG_SAVE"
  fi
  return $ok
}
run_step cuda-elements 90 cuda_elements

# (c) The GPU fixture element, contract in docs/internals/gpu-testing.md: given
# location=<folder> it writes frames.jsonl and frame-<n>.bin there.
caps="video/x-raw,format=RGBA,width=$width,height=$height"
element_run() {
  local kind="$1" dir="$results/element/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  gst "$dist_fixtures" gst-inspect-1.0 "$element" > "$results/inspect-$element.txt" 2>&1 \
    || { cat "$results/inspect-$element.txt"; echo "element $element is not registered from $dist_fixtures"; return 1; }
  # shellcheck disable=SC2086
  if [ "$kind" = cpu ]; then
    gst "$dist_fixtures" gst-launch-1.0 videotestsrc num-buffers="$frames" pattern="$pattern" ! "$caps" \
      ! "$element" location="$dir" $element_props ! fakesink
  else
    gst "$dist_fixtures" gst-launch-1.0 videotestsrc num-buffers="$frames" pattern="$pattern" ! "$caps" \
      ! cudaupload ! "video/x-raw(memory:CUDAMemory),format=RGBA" \
      ! "$element" location="$dir" $element_props ! cudadownload ! fakesink
  fi || return 1
  echo "$kind: $(ls "$dir" | wc -l) files in $dir"; head -c 600 "$dir/frames.jsonl" 2>/dev/null; echo
}
run_step element-cpu 90 element_run cpu
run_step element-cuda 90 element_run cuda
run_step element-compare 60 python3 "$repo/scripts/gpu/compare-element.py" \
  --cpu "$results/element/cpu" --cuda "$results/element/cuda" --frames "$frames" --json "$results/element-compare.json"

# (d) test/gpu/: each *.sh (bash), *.py (python3) or other executable file there runs with the
# repo root as cwd, on this machine's environment; DS_GPU_BUNDLE_ENV names a file to source for
# the bundle's GStreamer and libnode. *.ts/*.js need Node: skipped here, listed. A program that
# prints "N passed, M failed" has those counted.
run_hooks() {
  local dir="$repo/test/gpu" f name rc any=0 failed=0 limit
  : > "$results/hooks.tsv"
  [ -d "$dir" ] || { echo "no test/gpu/ folder: nothing to run"; exit 77; }
  while IFS= read -r -d '' f; do
    name="${f#"$repo"/}"
    local -a cmd=()
    case "$f" in
      *.ts|*.mts|*.cts|*.js|*.mjs|*.cjs)
        printf '%s\tskip\t-\t0\tneeds Node (runs under npm run test:gpu on a GPU machine)\n' "$name" >> "$results/hooks.tsv"; continue ;;
      *.sh) cmd=(bash "$f") ;;
      *.py) cmd=(python3 "$f") ;;
      *) [ -x "$f" ] && cmd=("$f") || continue ;;
    esac
    any=1
    limit=${DS_GPU_HOOK_TIMEOUT:-180}
    [ $(( $(remaining) - 10 )) -lt "$limit" ] && limit=$(( $(remaining) - 10 ))
    if [ "$limit" -lt 5 ]; then
      printf '%s\tfail\t-\t0\tout of time\n' "$name" >> "$results/hooks.tsv"; failed=1; continue
    fi
    local hook_out="$results/hooks/$(echo "$name" | tr '/' '_')"
    mkdir -p "$hook_out"
    echo "-- $name (limit ${limit}s)"
    local t0=$(date +%s)
    DS_GPU_BUNDLE="$bundle" DS_GPU_BUNDLE_ENV="$([ "$mode" = local ] || echo "$repo/scripts/gpu/bundle-env.sh")" \
      DS_GPU_FIXTURES_DIST="$dist_fixtures" DS_GPU_HOOK_OUT="$hook_out" OUT="$hook_out" \
      timeout -k 10 "$limit" "${cmd[@]}" > "$hook_out/output.log" 2>&1
    rc=$?
    cat "$hook_out/output.log"
    local counts
    counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$hook_out/output.log" | tail -n 1)
    if [ "$rc" -eq 0 ]; then
      printf '%s\tpass\t0\t%s\t%s\n' "$name" $(( $(date +%s) - t0 )) "$counts" >> "$results/hooks.tsv"
    else
      failed=1
      local why="exit status $rc"
      [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && why="timed out after ${limit}s"
      printf '%s\tfail\t%s\t%s\t%s\n' "$name" "$rc" $(( $(date +%s) - t0 )) "${counts:+$counts, }$why" >> "$results/hooks.tsv"
    fi
    echo "-- $name: exit status $rc ${counts:+($counts)}"
  done < <(find "$dir" -mindepth 1 -maxdepth 1 -type f -print0 | sort -z)
  [ "$any" = 1 ] || { echo "test/gpu/ has nothing that runs without Node"; exit 77; }
  return $failed
}
run_step hooks 600 run_hooks

# ---------------------------------------------------------------------------------------------
set +m
say "results"
python3 "$repo/scripts/gpu/summarize.py" --results "$results" --mode "$mode" --json "$out/gpu-results.json" \
  --elapsed $(( $(date +%s) - start_s ))
status=$?
echo "(log: $out/gpu-run.log, results: $out/gpu-results.json)"
exec 1>&- 2>&-
wait "$tee_pid" 2>/dev/null
exit "$status"
