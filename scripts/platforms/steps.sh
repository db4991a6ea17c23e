# The timed steps of one platform's run, sourced by scripts/platforms/suite.sh and arm64.sh:
# each step's exit status, test counts and seconds go to $results/platform.tsv, one line per
# step, for run.sh's table. The sourcing script sets `results` (its RESULTS_DIR).

log() { printf '\033[1m[platforms]\033[0m %s\n' "$*"; }

# record STEP STATUS SECONDS [VITEST_JSON]: one line of platform.tsv.
record() {
  local counts="-	-	-"
  if [ -n "${4:-}" ] && [ -s "$4" ]; then
    counts=$(node -e '
      const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      console.log([r.numPassedTests, r.numFailedTests, r.numPendingTests + r.numTodoTests].join("\t"));' "$4")
  fi
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$counts" "$3" >>"$results/platform.tsv"
}

# step NAME COMMAND...: runs it, timed; vitest's JSON report (if the step writes one) is NAME.json.
step() {
  local name=$1 start=$SECONDS status=0
  shift
  log "$name: $*"
  "$@" || status=$?
  record "$name" "$status" "$((SECONDS - start))" "$results/$name.json"
  log "$name: exit $status after $((SECONDS - start)) s"
  return "$status"
}
