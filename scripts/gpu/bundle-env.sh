# Sourced, not run: puts the unpacked GPU runtime bundle (scripts/gpu/make-bundle.sh) in charge
# of GStreamer and libnode for the commands that follow in this shell.
#
#   source /tmp/ds-gpu/bundle/env.sh          # this file, copied into the bundle as env.sh
#   GST_PLUGIN_PATH=/tmp/ds-gpu/bundle/dists/frame-counter gst-launch-1.0 ...
#
# Only the processes that need the bundle should see it: its libraries go in front of the
# machine's on LD_LIBRARY_PATH, so a program built on the device (nvcc, cmake) is best run from
# a shell that did not source this file. The machine's own LD_LIBRARY_PATH stays behind ours:
# that is where the NVIDIA driver's libcuda.so.1 is often found.
#
# Sets DS_GPU_BUNDLE_NOTES to a one-line account of the choices made (stub, fallback, builtins).

if [ -z "${BASH_VERSION:-}" ]; then
  echo "bundle env.sh: source it from bash" >&2
  return 1 2>/dev/null || exit 1
fi

DS_GPU_BUNDLE="${DS_GPU_BUNDLE:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}"
export DS_GPU_BUNDLE
DS_GPU_BUNDLE_NOTES=""

# True when the machine (not the bundle) provides library $1: the loader's cache, then the
# folders of the machine's LD_LIBRARY_PATH. Paths in the cache are checked to exist.
_ds_gpu_system_has() {
  local name="$1" dir path
  if command -v ldconfig >/dev/null 2>&1; then
    while read -r path; do
      [ -e "$path" ] && return 0
    done < <(ldconfig -p 2>/dev/null | awk -v n="$name" '$1 == n { print $NF }')
  fi
  local IFS=:
  for dir in ${DS_GPU_SYSTEM_LD_LIBRARY_PATH:-}; do
    [ -n "$dir" ] && [ -e "$dir/$name" ] && return 0
  done
  for dir in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /lib64; do
    [ -e "$dir/$name" ] && return 0
  done
  return 1
}

# The machine's own path, kept once even when this file is sourced twice.
export DS_GPU_SYSTEM_LD_LIBRARY_PATH="${DS_GPU_SYSTEM_LD_LIBRARY_PATH-${LD_LIBRARY_PATH:-}}"

_ds_gpu_ld="$DS_GPU_BUNDLE/lib:$DS_GPU_BUNDLE/native"
# libnode patched to read its JS builtins from the bundle (device-run.sh makes it when
# /usr/share/nodejs cannot be used): first, so the runtime's DT_NEEDED finds it too.
if [ -e "$DS_GPU_BUNDLE/lib-patched/libnode.so.108" ]; then
  _ds_gpu_ld="$DS_GPU_BUNDLE/lib-patched:$_ds_gpu_ld"
  export DS_ELEMENT_LIBNODE="$DS_GPU_BUNDLE/lib-patched/libnode.so.108"
  DS_GPU_BUNDLE_NOTES+="libnode=patched(builtins from $DS_GPU_BUNDLE/share/nodejs) "
else
  export DS_ELEMENT_LIBNODE="$DS_GPU_BUNDLE/lib/libnode.so.108"
  DS_GPU_BUNDLE_NOTES+="libnode=bundle(builtins from /usr/share/nodejs) "
fi
# Debian's C++ runtime only where the machine has none: a newer one (Ubuntu 24.04) serves
# Debian-built code, and code built on the device may need the newer one.
for _ds_gpu_lib in libstdc++.so.6 libgcc_s.so.1; do
  if ! _ds_gpu_system_has "$_ds_gpu_lib"; then
    _ds_gpu_ld="$_ds_gpu_ld:$DS_GPU_BUNDLE/lib-fallback"
    DS_GPU_BUNDLE_NOTES+="$_ds_gpu_lib=bundle "
    break
  fi
done
# NVDEC stand-in only where the driver has neither codec library (see nvcuvid-stub.c).
if _ds_gpu_system_has libnvcuvid.so.1 || _ds_gpu_system_has libnvidia-encode.so.1; then
  DS_GPU_BUNDLE_NOTES+="nvcuvid=driver "
else
  _ds_gpu_ld="$_ds_gpu_ld:$DS_GPU_BUNDLE/stub"
  DS_GPU_BUNDLE_NOTES+="nvcuvid=stub "
fi
_ds_gpu_ld="$_ds_gpu_ld${DS_GPU_SYSTEM_LD_LIBRARY_PATH:+:$DS_GPU_SYSTEM_LD_LIBRARY_PATH}"
# The driver's folder in container-style installs, last, in case the loader's cache lacks it
# (_ds_gpu_system_has looks there too).
for _ds_gpu_lib in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  [ -d "$_ds_gpu_lib" ] && _ds_gpu_ld="$_ds_gpu_ld:$_ds_gpu_lib"
done
export LD_LIBRARY_PATH="$_ds_gpu_ld"
unset _ds_gpu_ld _ds_gpu_lib

export PATH="$DS_GPU_BUNDLE/bin:$PATH"
export GST_PLUGIN_SYSTEM_PATH="$DS_GPU_BUNDLE/gstreamer-1.0"
export GST_PLUGIN_SYSTEM_PATH_1_0="$GST_PLUGIN_SYSTEM_PATH"
export GST_PLUGIN_SCANNER="$DS_GPU_BUNDLE/libexec/gst-plugin-scanner"
export GST_PLUGIN_SCANNER_1_0="$GST_PLUGIN_SCANNER"
export GST_REGISTRY="${DS_GPU_REGISTRY:-$DS_GPU_BUNDLE/registry.bin}"
export GST_REGISTRY_1_0="$GST_REGISTRY"
export GST_DEBUG_NO_COLOR=1
unset GST_PLUGIN_PATH_1_0
export DS_GPU_BUNDLE_NOTES
