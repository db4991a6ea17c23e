#!/usr/bin/env bash
# Builds gpu-bundle/ds-gpu-bundle.tar.xz: everything the GPU machine lacks to run ds-element
# pipelines (it has CUDA and python3, but no GStreamer and no Node), taken from this Debian 12
# machine: GStreamer's tools and the plugins the GPU tests use (coreelements, videotestsrc,
# videoconvertscale, nvcodec for cudaupload/cudadownload), Debian's libnode (Node 18) and the
# JS builtins it reads from /usr/share/nodejs, our native libraries, and built dist/ folders,
# each with the shared libraries they need. scripts/gpu/device-run.sh unpacks and uses it.
#
#   bash scripts/gpu/make-bundle.sh            # after `npm run build` (scripts/setup.sh)
#
# Left out on purpose: glibc's libraries (every file of package libc6: they must match the
# device's loader) and the NVIDIA driver's (libcuda, libnvidia-*, libnvcuvid: the device's
# driver provides them). libstdc++/libgcc_s go to lib-fallback/, used only where the device
# has none (bundle-env.sh).
#
# Environment:
#   GPU_BUNDLE_DIR       output folder (default gpu-bundle, git-ignored)
#   GPU_BUNDLE_NATIVE_DIR  the native build to take (default native-host/build/Release): its
#                        libgstdsnode.so and libdsnode-runtime.so.0 go into every dist/ folder
#   GPU_BUNDLE_ELEMENTS  fixture elements (test/fixtures/elements) the GPU tests run
#                        (default: cudaprobe pixelprobe); the others are left out of the bundle
#   GPU_BUNDLE_DISTS     more dist/ folders to take, space-separated (name = folder's parent)
#   GPU_BUNDLE_DEEPSTREAM_DIR  the DeepStream build's Release folder (scripts/test-deepstream.sh with
#                        DS_BUILD_ONLY=1; default: native-host/build-deepstream/Release when its
#                        deepstream-lib-dir exists, "none" to leave it out): goes to deepstream/ with
#                        NVIDIA's two libraries and the dsnvmmtestmux test plugin, and
#                        dists/fixtures-deepstream gets its plugin (test/gpu/nvmm.sh); with it, the
#                        many-stream bench's parts (bench/, dists/bench-deepstream, the dsyolopeer
#                        plugin, bin/streams-bench: scripts/gpu/run-streams-device.sh)
#   GPU_BUNDLE_KEEP_STAGE=1  keep the unpacked staging folder (path printed)
#   XZ_OPT               passed to xz (default: -9 -T1; -T1 because threads cost ratio)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

out_dir="${GPU_BUNDLE_DIR:-gpu-bundle}"
native_dir="${GPU_BUNDLE_NATIVE_DIR:-native-host/build/Release}"
gpu_elements="${GPU_BUNDLE_ELEMENTS:-cudaprobe pixelprobe batchrate}"
ds_dir="${GPU_BUNDLE_DEEPSTREAM_DIR:-}"
if [ -z "$ds_dir" ] && [ -e native-host/build-deepstream/deepstream-lib-dir ]; then ds_dir=native-host/build-deepstream/Release; fi
[ "$ds_dir" = none ] && ds_dir=""
archive="$out_dir/ds-gpu-bundle.tar.xz"
# What one device call may carry in all (device README: 64 MiB, working tree included).
carry_limit=$((64 * 1024 * 1024))

log() { printf '\033[1m[gpu-bundle]\033[0m %s\n' "$*"; }
die() { echo "make-bundle: $*" >&2; exit 1; }

multiarch=/usr/lib/x86_64-linux-gnu
gst_plugins=(coreelements videotestsrc videoconvertscale nvcodec)
gst_tools=(/usr/bin/gst-launch-1.0 /usr/bin/gst-inspect-1.0)
gst_scanner="$multiarch/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner"
libnode="$multiarch/libnode.so.108"
# The externalized builtins libnode reads, by absolute path, when its first environment starts
# (BuiltinLoader aborts the process when one is missing): `strings libnode.so.108 | grep share/nodejs`.
builtins=(cjs-module-lexer/lexer.js cjs-module-lexer/dist/lexer.js undici/undici-fetch.js acorn/dist/acorn.js acorn-walk/dist/walk.js)

# --- checks -----------------------------------------------------------------------------------
[ "$(uname -m)" = x86_64 ] || die "builds x86-64 bundles only (the GPU machine is x86-64); this is $(uname -m)"
for f in "${gst_tools[@]}" "$gst_scanner" "$libnode"; do
  [ -e "$f" ] || die "$f is missing: run \`npm run setup\` (scripts/setup.sh) first"
done
for p in "${gst_plugins[@]}"; do
  [ -e "$multiarch/gstreamer-1.0/libgst$p.so" ] || die "GStreamer plugin $p is missing ($multiarch/gstreamer-1.0/libgst$p.so): install gstreamer1.0-plugins-base/-bad (scripts/setup.sh)"
done
for b in "${builtins[@]}"; do
  [ -e "/usr/share/nodejs/$b" ] || die "/usr/share/nodejs/$b is missing: run \`npm run setup\`"
done
[ -e "$native_dir/libgstdsnode.so" ] && [ -e "$native_dir/libdsnode-runtime.so.0" ] \
  || die "the native host is not built ($native_dir has no libgstdsnode.so/libdsnode-runtime.so.0): run \`npm run build\`"
command -v node >/dev/null || die "node is needed to build the element folders"
command -v gcc >/dev/null || die "gcc is needed to build the NVDEC stub"
command -v xz >/dev/null || die "xz is needed (apt-get install xz-utils)"

stage=$(mktemp -d /tmp/ds-gpu-bundle-stage.XXXXXX)
cleanup() { if [ "${GPU_BUNDLE_KEEP_STAGE:-0}" = 1 ]; then log "staging folder kept: $stage"; else rm -rf "$stage"; fi; }
trap cleanup EXIT
mkdir -p "$stage"/{bin,libexec,lib,lib-fallback,stub,native,gstreamer-1.0,share/nodejs,dists}

# --- element folders --------------------------------------------------------------------------
# The example (a pipeline that needs no GPU: tells a broken bundle from a broken GPU path),
# the SDK's built-in elements, and the fixture elements the GPU tests run. Built fresh with the
# real CLI (JavaScript parts), then given the native files of $native_dir, all the same ones.
cli=(node sdk/bin/ds-element.js build --no-typecheck --skip-native)
log "building element folders (native files from $native_dir)"
build_dist() {
  "${cli[@]}" --project "$1" --out "$2" > "$stage/build.log" 2>&1 || { cat "$stage/build.log" >&2; die "ds-element build failed for $1"; }
  rm -f "$stage/build.log"
}
build_dist examples/frame-counter "$stage/dists/frame-counter"
build_dist test/fixtures/elements "$stage/dists/fixtures"
kept=()
for dir in "$stage"/dists/fixtures/ds-elements/*/; do
  name=$(basename "$dir")
  if [[ " $gpu_elements " == *" $name "* ]]; then kept+=("$name"); else rm -rf "$dir"; fi
done
for name in $gpu_elements; do
  [[ " ${kept[*]:-} " == *" $name "* ]] \
    || log "WARNING: fixture element '$name' is not in test/fixtures/elements: the GPU pipeline test will fail on the device until it exists"
done
if [ -d sdk/builtin/dist/ds-elements ]; then cp -a sdk/builtin/dist "$stage/dists/builtin"; fi
for extra in ${GPU_BUNDLE_DISTS:-}; do
  [ -d "$extra/ds-elements" ] || die "GPU_BUNDLE_DISTS: $extra is not a dist/ folder (no ds-elements/)"
  cp -a "$extra" "$stage/dists/$(basename "$(dirname "$(realpath "$extra")")")"
done
# Every shared object of the native build (the plugin, the runtime, the standalone binding...), for
# programs and tests that load them by name; the dist/ folders get hard links (stored once).
find "$native_dir" -maxdepth 1 -type f \( -name '*.so' -o -name '*.so.*' -o -name '*.node' \) \
  -exec cp -L {} "$stage/native/" \;
for dist in "$stage"/dists/*/; do
  [[ "$dist" == */fixtures-deepstream/ ]] && continue
  mkdir -p "$dist/dsnode"
  ln -f "$stage/native/libgstdsnode.so" "$dist/libgstdsnode.so"
  ln -f "$stage/native/libdsnode-runtime.so.0" "$dist/dsnode/libdsnode-runtime.so.0"
done

# The DeepStream build (NVMM batches, test/gpu/nvmm.sh): its plugin and runtime, NVIDIA's
# libnvds_meta/libnvdsgst_meta it was built against (built from NVIDIA's Apache-2.0 source; they
# travel to the GPU machine, never into the repository), the dsnvmmtestmux test plugin, and the
# fixture elements with its plugin.
if [ -n "$ds_dir" ]; then
  ds_build=$(dirname "$ds_dir")
  # The test plugin up to date with its source (incremental; the check below names what is missing).
  cmake --build "$ds_build" --target dsnode-nvmm-testmux > /dev/null 2>&1 || true
  ds_libs=$(cat "$ds_build/deepstream-lib-dir" 2>/dev/null) \
    || die "$ds_build/deepstream-lib-dir is missing: build with DS_BUILD_ONLY=1 bash scripts/test-deepstream.sh"
  for f in "$ds_dir/libgstdsnode.so" "$ds_dir/libdsnode-runtime.so.0" "$ds_libs/libnvds_meta.so" \
      "$ds_libs/libnvdsgst_meta.so" "$ds_build/test-plugins/libgstdsnvmmtestmux.so"; do
    [ -e "$f" ] || die "$f is missing: build with DS_BUILD_ONLY=1 bash scripts/test-deepstream.sh"
  done
  log "DeepStream build from $ds_dir, NVIDIA's libraries from $ds_libs"
  mkdir -p "$stage"/deepstream/{native,lib,test-plugins}
  cp -L "$ds_dir/libgstdsnode.so" "$ds_dir/libdsnode-runtime.so.0" "$stage/deepstream/native/"
  cp -L "$ds_libs/libnvds_meta.so" "$ds_libs/libnvdsgst_meta.so" "$stage/deepstream/lib/"
  cp -L "$ds_build/test-plugins/libgstdsnvmmtestmux.so" "$stage/deepstream/test-plugins/"
  cp -a "$stage/dists/fixtures" "$stage/dists/fixtures-deepstream"
  ln -f "$stage/deepstream/native/libgstdsnode.so" "$stage/dists/fixtures-deepstream/libgstdsnode.so"
  ln -f "$stage/deepstream/native/libdsnode-runtime.so.0" "$stage/dists/fixtures-deepstream/dsnode/libdsnode-runtime.so.0"
  # The many-stream bench (scripts/gpu/run-streams-device.sh): its ds-element detector
  # (bench/elements, yolostandin only) with the DeepStream plugin, the stand-in model's Node-API
  # module, the C++ peer plugin and the host process. Built here (CUDA needed: nvcc at configure
  # time); without them the bundle is made all the same and the bench says what is missing.
  if cmake --build "$(dirname "$native_dir")" --target dsnode-bench-standin-binding > "$stage/bench-build.log" 2>&1 \
      && cmake --build "$ds_build" --target dsnode-bench-yolo-peer >> "$stage/bench-build.log" 2>&1; then
    mkdir -p "$stage/bench"
    cp -L "$(dirname "$native_dir")/bench-modules/dsbench_standin.node" "$stage/bench/"
    cp -L "$ds_build/test-plugins/libgstdsyolopeer.so" "$stage/deepstream/test-plugins/"
    build_dist bench/elements "$stage/dists/bench-deepstream"
    rm -rf "$stage/dists/bench-deepstream/node_modules"
    find "$stage/dists/bench-deepstream/ds-elements" -mindepth 1 -maxdepth 1 ! -name yolostandin -exec rm -rf {} +
    # dstracker after it: the bench's second variant (the built-in element's own folder, a whole bundle).
    if [ -d sdk/builtin/dist/ds-elements/dstracker ]; then cp -a sdk/builtin/dist/ds-elements/dstracker "$stage/dists/bench-deepstream/ds-elements/"; fi
    ln -f "$stage/deepstream/native/libgstdsnode.so" "$stage/dists/bench-deepstream/libgstdsnode.so"
    ln -f "$stage/deepstream/native/libdsnode-runtime.so.0" "$stage/dists/bench-deepstream/dsnode/libdsnode-runtime.so.0"
    # shellcheck disable=SC2046
    cc -O2 -Wall bench/streams/streams_bench.c $(pkg-config --cflags --libs gstreamer-1.0) -o "$stage/bin/streams-bench"
    log "many-stream bench: yolostandin, dstracker, dsyolopeer, dsbench_standin.node, streams-bench"
  else
    tail -n 20 "$stage/bench-build.log" >&2
    log "WARNING: the many-stream bench's parts did not build (above; CUDA needed): scripts/gpu/run-streams-device.sh will say so"
  fi
  rm -f "$stage/bench-build.log"
fi

# --- GStreamer, libnode, our native libraries -------------------------------------------------
log "collecting GStreamer, libnode and native libraries"
cp -L "${gst_tools[@]}" "$stage/bin/"
cp -L "$gst_scanner" "$stage/libexec/"
for p in "${gst_plugins[@]}"; do cp -L "$multiarch/gstreamer-1.0/libgst$p.so" "$stage/gstreamer-1.0/"; done
cp -L "$libnode" "$stage/lib/libnode.so.108"
for b in "${builtins[@]}"; do
  mkdir -p "$stage/share/nodejs/$(dirname "$b")"
  cp -L "/usr/share/nodejs/$b" "$stage/share/nodejs/$b"
done
gcc -shared -fPIC -O2 -Wl,-soname,libnvcuvid.so.1 -o "$stage/stub/libnvcuvid.so.1" scripts/gpu/nvcuvid-stub.c

# --- shared-library closure -------------------------------------------------------------------
# ldd lists the whole closure of each ELF file. glibc's own files (package libc6) and the
# driver's are left to the device; libstdc++/libgcc_s go to lib-fallback/.
declare -A glibc_owned=()
while read -r path; do glibc_owned["$(basename "$path")"]=1; done < <(dpkg -L libc6 | grep -E '\.so(\.[0-9]+)*$')
is_driver_lib() { [[ "$1" =~ ^(libcuda\.so|libnvidia-|libnvcuvid\.so|libnvidia-encode\.so) ]]; }

declare -A copied=()
missing=()
mapfile -t elf_files < <(find "$stage" -type f -print0 | xargs -0 file -L | awk -F: '/ELF 64-bit/ { print $1 }')
for elf in "${elf_files[@]}"; do
  while read -r line; do
    if [[ "$line" =~ ^([^[:space:]]+)[[:space:]]+=\>[[:space:]]+not\ found ]]; then
      name="${BASH_REMATCH[1]}"
      is_driver_lib "$name" || [ -e "$stage/native/$name" ] || [ -e "$stage/deepstream/lib/$name" ] \
        || missing+=("$name (needed by ${elf#"$stage"/})")
      continue
    fi
    [[ "$line" =~ ^([^[:space:]]+)[[:space:]]+=\>[[:space:]]+(/[^[:space:]]+) ]] || continue
    name="${BASH_REMATCH[1]}"
    path="${BASH_REMATCH[2]}"
    [ -n "${copied[$name]:-}" ] && continue
    copied[$name]=1
    if [ -n "${glibc_owned[$name]:-}" ] || is_driver_lib "$name"; then continue; fi
    case "$name" in
      libstdc++.so.6|libgcc_s.so.1) cp -L "$path" "$stage/lib-fallback/$name" ;;
      *) [ -e "$stage/lib/$name" ] || [ -e "$stage/native/$name" ] || [ -e "$stage/deepstream/lib/$name" ] \
           || cp -L "$path" "$stage/lib/$name" ;;
    esac
  done < <(ldd "$elf" 2>/dev/null || true)
done
if [ ${#missing[@]} -gt 0 ]; then
  printf '  %s\n' "${missing[@]}" | sort -u >&2
  die "the libraries above are not found on this machine, so the bundle would be incomplete"
fi

# --- environment, manifest, archive -----------------------------------------------------------
cp scripts/gpu/bundle-env.sh "$stage/env.sh"
{
  echo "ds-element GPU runtime bundle"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME") ($(uname -m))"
  echo "repo: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "gstreamer: $(dpkg-query -W -f='${Version}' libgstreamer1.0-0 2>/dev/null), plugins-bad $(dpkg-query -W -f='${Version}' gstreamer1.0-plugins-bad 2>/dev/null)"
  echo "libnode: $(strings -n 6 "$libnode" | grep -m1 -oE 'nodejs-18\.[0-9]+\.[0-9]+[^/]*' || true)"
  echo "elements: $(cd "$stage/dists" && for d in */ds-elements/*/; do printf '%s ' "${d%/}"; done)"
  echo
  (cd "$stage" && find . -type f -printf '%s\t%P\n' | sort -k2)
} > "$stage/MANIFEST"

mkdir -p "$out_dir"
log "compressing (xz ${XZ_OPT:--9 -T1})"
staged_bytes=$(du -sb "$stage" | cut -f1)
tar -C "$stage" --owner=0 --group=0 --sort=name -cf - . | XZ_OPT="${XZ_OPT:--9 -T1}" xz -c > "$archive.tmp"
mv "$archive.tmp" "$archive"
cp "$stage/MANIFEST" "$out_dir/MANIFEST"
# The ball model's outputs for real frames, for the GPU post-processing test
# (scripts/gpu/run-postprocess-device.sh), which runs without Node and ONNX Runtime.
node scripts/gpu/ball-outputs.mjs --out "$out_dir/ball-outputs.bin" >&2

bundle_bytes=$(stat -c %s "$archive")
# What else travels with a device call: tracked files and untracked files git does not ignore.
tree_bytes=$( { git ls-files -z; git ls-files -z --others --exclude-standard; } | xargs -0 -r stat -c %s 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
total=$((bundle_bytes + tree_bytes + $(stat -c %s "$out_dir/MANIFEST") + $(stat -c %s "$out_dir/ball-outputs.bin")))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
log "bundle: $archive $(mib "$bundle_bytes") ($(mib "$staged_bytes") unpacked)"
log "with the working tree ($(mib "$tree_bytes")) a device call carries $(mib "$total") of $(mib "$carry_limit")"
if [ "$total" -gt "$carry_limit" ]; then
  die "over the device's 64 MiB per call: trim GPU_BUNDLE_ELEMENTS / GPU_BUNDLE_DISTS"
elif [ "$total" -gt $((carry_limit * 7 / 8)) ]; then
  log "WARNING: within 1/8 of the device's 64 MiB per call"
fi
