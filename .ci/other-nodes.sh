#!/usr/bin/env bash
# Runs the e2e tests (the built bin/sq.js, launcher and code cache included) under each Node major we support besides
# the machine's own: users run 22 and 24. The Node binaries come from the npm registry (node-linux-<arch>@<major>),
# unpacked into a temp dir, so nothing on the machine changes. Needs a built dist/ (npm test builds it).
# The majors run at once (much of an e2e run is waiting on child processes and real-time pauses), 2 workers each
# unless SQ_TEST_WORKERS says otherwise; each one's output is printed whole when it ends, with its wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
arch=$(node -p process.arch)
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
export SQ_TEST_WORKERS=${SQ_TEST_WORKERS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_major() {
  local v=$1 dir="$work/$1" t0=$SECONDS status=0
  mkdir -p "$dir"
  # npm pack, not `npm install --prefix`: a prefix also moves npm's global config (registry, cafile) out of reach.
  (cd "$dir" && npm pack --silent "node-linux-$arch@$v" >/dev/null && tar -xzf node-linux-*.tgz) || return 1
  local bin="$dir/package/bin/node"
  echo "== e2e tests on Node $("$bin" --version)"
  "$bin" node_modules/vitest/vitest.mjs run test/e2e || status=$?
  echo "== e2e tests on Node $v took $((SECONDS - t0)) s (exit $status)"
  return "$status"
}

pids=()
for v in "${majors[@]}"; do
  run_major "$v" >"$work/$v.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!majors[@]}"; do
  wait "${pids[$i]}" || status=1
  cat "$work/${majors[$i]}.log"
done
exit "$status"
