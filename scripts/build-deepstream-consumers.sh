#!/usr/bin/env bash
# NVIDIA's downstream consumers of the metadata, built from NVIDIA's published source for the
# DeepStream suite's consumer tests (test/ds-consumers/, docs/metadata.md "What each downstream
# element reads"): called by scripts/test-deepstream.sh with the cache folder that already holds
# NVIDIA's copied source (includes/, src/) and lib/libnvds_meta.so, lib/libnvdsgst_meta.so.
#
#   scripts/build-deepstream-consumers.sh <cache root>
#
# Builds into <root>/lib, each with NVIDIA's own Makefile where it builds here unmodified:
#   libnvds_msgconv.so          src/utils/nvmsgconv (nvmsgconv's payload generator)
#   libnvds_logger.so           a STAND-IN (test/ds-consumers/nvds_logger_standin.c): NVIDIA does
#                               not publish it; its three functions log to GStreamer's debug log
#   libnvds_msgbroker.so        src/utils/nvmsgbroker
#   libnvds_redis_proto.so      src/utils/nvds_msgapi/redis_protocol_adaptor
#   libnvds_mqtt_proto.so       src/utils/nvds_msgapi/mqtt_protocol_adaptor
#   libnvds_dsanalytics.so      src/utils/nvds_analytics
#   libnvdsgst_customhelper.so  src/gst-utils/gstnvdscustomhelper, its custom events only (what
#                               nvdsanalytics calls; the message helpers need deepstream-app's
#                               headers, the source-bin creator the unpublished libnvdsgst_helper)
#   gst-plugins/libnvdsgst_dsanalytics.so  src/gst-plugins/gst-nvdsanalytics (without
#                               -lnvdsgst_helper, which NVIDIA's Makefile names but it does not use)
# and installs, where missing, the Debian packages they need and the servers the broker test
# runs (redis-server, mosquitto), with their system services left stopped: the tests start
# their own on 127.0.0.1.
#
# Each library is built once per cache entry (the entry is keyed by the source's content);
# a failed build removes what it left and fails with the log's tail.
set -euo pipefail
root=${1:?usage: build-deepstream-consumers.sh <cache root>}
repo=$(cd "$(dirname "$0")/.." && pwd)
log() { printf '\033[1m[test:deepstream]\033[0m %s\n' "$*"; }
fail() { printf 'test:deepstream: %s\n' "$*" >&2; exit 2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

CONSUMER_PACKAGES=(
  libjson-glib-dev libyaml-cpp-dev libprotobuf-dev uuid-dev libssl-dev   # nvmsgconv, the adaptors
  libhiredis-dev libmosquitto-dev                                        # Redis and MQTT adaptors
  redis-server redis-tools mosquitto mosquitto-clients                   # the broker test's servers
)
# `--list-packages`: the list, one a line (scripts/platforms/root.sh installs it with the root).
if [ "$root" = "--list-packages" ]; then printf '%s\n' "${CONSUMER_PACKAGES[@]}"; exit 0; fi
missing=()
for p in "${CONSUMER_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing the packages NVIDIA's consumers need: ${missing[*]}"
  # Debian starts redis-server and mosquitto as services on install, on the ports the tests
  # could meet: a policy-rc.d that denies every start (Debian's own mechanism, already present
  # in container images) keeps them stopped; ours is removed again afterwards.
  policy=/usr/sbin/policy-rc.d
  own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null && as_root chmod 755 "$policy" && own_policy=1
  fi
  status=0
  { as_root apt-get update -qq \
      && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } || status=$?
  [ "$own_policy" = 0 ] || as_root rm -f "$policy"
  [ "$status" = 0 ] || fail "installing ${missing[*]} failed"
fi

lib="$root/lib"
src="$root/src"
build() { # build <name> <what> <command...>: runs the command unless lib/<name> exists
  local name=$1 what=$2; shift 2
  [[ -e "$lib/$name" ]] && return 0
  [[ -d "$src" ]] || fail "$root has no lib/$name and no NVIDIA source (src/) to build it from (an installed SDK has it in lib/)"
  log "building $what ($name) from NVIDIA's source in $root"
  local build_log="$root/make-$(basename "${name%.so}").log"
  if ! "$@" >"$build_log" 2>&1 || [[ ! -e "$lib/$name" ]]; then
    tail -30 "$build_log" >&2
    rm -f "$lib/$name"
    fail "building $name failed (log above, in full in $build_log)"
  fi
}

# nvmsgconv: its generated protobuf sources are shipped; cp gave them new times, so that make
# would run protoc on them again: keep them newer than the .proto files and the Makefile.
build libnvds_msgconv.so "nvmsgconv's payload generator" \
  bash -c 'touch "$1"/utils/nvmsgconv/deepstream_schema/*.pb.* && make -C "$1/utils/nvmsgconv" LIB_INSTALL_DIR="$2/" all install' _ "$src" "$lib"

build libnvds_logger.so "a stand-in for the unpublished libnvds_logger" \
  gcc -shared -fPIC -Wall -Werror -o "$lib/libnvds_logger.so" -I"$root/includes" \
    "$repo/test/ds-consumers/nvds_logger_standin.c" $(pkg-config --cflags --libs gstreamer-1.0)

# The broker and its adaptors: DS_LIB is where they find libnvds_logger (and the rpath they get).
build libnvds_msgbroker.so "the message broker library" \
  bash -c 'make -C "$1/utils/nvmsgbroker" CC=g++ DS_LIB="$2/" all && cp "$1/utils/nvmsgbroker/libnvds_msgbroker.so" "$2/"' _ "$src" "$lib"
build libnvds_redis_proto.so "the Redis protocol adaptor" \
  bash -c 'make -C "$1/utils/nvds_msgapi/redis_protocol_adaptor" DS_LIB="$2/" all && cp "$1/utils/nvds_msgapi/redis_protocol_adaptor/libnvds_redis_proto.so" "$2/"' _ "$src" "$lib"
build libnvds_mqtt_proto.so "the MQTT protocol adaptor" \
  bash -c 'make -C "$1/utils/nvds_msgapi/mqtt_protocol_adaptor" DS_LIB="$2/" all && cp "$1/utils/nvds_msgapi/mqtt_protocol_adaptor/libnvds_mqtt_proto.so" "$2/"' _ "$src" "$lib"

# nvds_analytics.h uses uint32_t without including <cstdint>, which g++ 12's standard headers
# brought in on their way and newer ones do not (sid's g++ 16 stops there): both builds of
# nvdsanalytics name it first on the compiler's command line.
build libnvds_dsanalytics.so "nvdsanalytics' library" \
  make -C "$src/utils/nvds_analytics" LIB_INSTALL_DIR="$lib/" "CC=g++ -include cstdint" all install
helper="$src/gst-utils/gstnvdscustomhelper"
build libnvdsgst_customhelper.so "the custom event helpers" \
  g++ -shared -fPIC -Wl,-no-undefined -o "$lib/libnvdsgst_customhelper.so" -I"$root/includes" \
    -x c++ "$helper/gst-nvdscustomevent.c" \
    $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0)
mkdir -p "$lib/gst-plugins"
build gst-plugins/libnvdsgst_dsanalytics.so "the nvdsanalytics plugin" \
  bash -c 'make -C "$1/gst-plugins/gst-nvdsanalytics" LIB_INSTALL_DIR="$2/" GST_INSTALL_DIR="$2/gst-plugins/" "CXX=g++ -include cstdint" \
      "LIBS=-shared -Wl,-no-undefined -L$2 -lnvdsgst_meta -lnvds_meta -lnvds_dsanalytics -lnvdsgst_customhelper -ldl -lpthread -lyaml-cpp -Wl,-rpath,$2 $(pkg-config --libs gstreamer-1.0 gstreamer-video-1.0)" \
      all install' _ "$src" "$lib"
