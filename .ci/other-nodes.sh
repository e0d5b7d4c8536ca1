#!/usr/bin/env bash
# Runs the e2e tests (the built bin/sq.js, launcher and code cache included) under each Node major we support besides
# the machine's own: users run 22 and 24. The Node binaries come from the npm registry (node-linux-<arch>@<major>),
# unpacked into a temp dir, so nothing on the machine changes. Needs a built dist/ (npm test builds it).
# The majors run one after the other, each with its wall time. Run at once (2 workers each) they saved little on 2
# cores and starved the real-clock tests (a 50x emulator clock whose running phase a loaded poll can miss).
set -euo pipefail
cd "$(dirname "$0")/.."
arch=$(node -p process.arch)
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_major() {
  local v=$1 dir="$work/$1" t0=$SECONDS status=0
  mkdir -p "$dir"
  # npm pack, not `npm install --prefix`: a prefix also moves npm's global config (registry, cafile) out of reach.
  (cd "$dir" && npm pack --silent "node-linux-$arch@$v" >/dev/null && tar -xzf node-linux-*.tgz) || return 1
  local bin="$dir/package/bin/node"
  echo "== e2e tests on Node $("$bin" --version)"
  "$bin" node_modules/vitest/vitest.mjs run --config vitest.e2e.config.ts || status=$?
  echo "== e2e tests on Node $v took $((SECONDS - t0)) s (exit $status)"
  return "$status"
}

status=0
for v in "${majors[@]}"; do
  run_major "$v" || status=1
done
exit "$status"
