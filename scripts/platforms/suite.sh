#!/usr/bin/env bash
# One platform's run for scripts/platforms/run.sh, in the repository it is started from (this
# machine's checkout, or the copy inside a Debian root): scripts/setup.sh (system packages,
# libnode, npm ci, the build), the suite on the portable backend, then — where NVIDIA's
# metadata source is beside the repository (../shared/deepstream-9.1) — the suite on the
# DeepStream backend. Each step is timed; the results go to RESULTS_DIR as one line per step
# (platform.tsv) for run.sh's table, with vitest's JSON report beside it.
#
#   bash scripts/platforms/suite.sh RESULTS_DIR [--portable-only | --deepstream-only] [-- <vitest arguments>]
set -uo pipefail
cd "$(dirname "$0")/../.."

results=${1:?usage: suite.sh RESULTS_DIR [--portable-only | --deepstream-only] [-- <vitest arguments>]}
shift
portable=1 deepstream=1
while [ $# -gt 0 ]; do
  case "$1" in
    --portable-only) deepstream=0 ;;
    --deepstream-only) portable=0 ;;
    --) shift; break ;;
    *) echo "suite.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$results" && rm -f "$results"/*.json "$results/platform.tsv"

# log, record, step: scripts/platforms/steps.sh (arm64.sh times its steps the same way).
. scripts/platforms/steps.sh

# What this platform is: its release, GStreamer, and the libnode package the host embeds.
describe() {
  local release gst libnode
  release=$(. /etc/os-release && echo "${PRETTY_NAME:-$ID}")
  gst=$(pkg-config --modversion gstreamer-1.0 2>/dev/null || echo "?")
  libnode=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' 'libnode[0-9]*' 2>/dev/null \
    | awk '$1 == "ii" { sub(/^[0-9]+:/, "", $3); sub(/[+~-].*$/, "", $3); print $3 " (" $2 ")" }' | sort -V | tail -n 1)
  printf '%s\t%s\t%s\n' "$release" "$gst" "${libnode:-?}" >"$results/facts.tsv"
}

reporters=(--reporter=default --reporter=json)
step setup bash scripts/setup.sh || { describe; exit 1; }
describe
[ "$portable" = 0 ] || step portable npx vitest run "${reporters[@]}" --outputFile.json="$results/portable.json" "$@"
# DS_PLATFORMS_DEEPSTREAM_TESTS (space-separated vitest arguments) narrows the DeepStream step
# to those files (CI: .ci/run); otherwise it runs what the portable step ran.
if [ "$deepstream" = 1 ] && [ -d ../shared/deepstream-9.1 ]; then
  ds_tests=("$@")
  [ -z "${DS_PLATFORMS_DEEPSTREAM_TESTS:-}" ] || read -r -a ds_tests <<<"$DS_PLATFORMS_DEEPSTREAM_TESTS"
  step deepstream env DS_META_SOURCE=../shared/deepstream-9.1 DS_SKIP_SETUP=1 \
    bash scripts/test-deepstream.sh "${reporters[@]}" --outputFile.json="$results/deepstream.json" "${ds_tests[@]}"
fi
exit 0
