#!/usr/bin/env bash
# Runs the e2e tests (the built bin/sq.js, launcher and code cache included) under each Node major we support besides
# the machine's own: users run 22 and 24. The Node binaries come from the npm registry (node-linux-<arch>@<major>),
# unpacked into a temp dir, so nothing on the machine changes. Needs a built dist/ (npm test builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
arch=$(node -p process.arch)
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
for v in "${majors[@]}"; do
  dir=$(mktemp -d)
  # npm pack, not `npm install --prefix`: a prefix also moves npm's global config (registry, cafile) out of reach.
  (cd "$dir" && npm pack --silent "node-linux-$arch@$v" >/dev/null && tar -xzf node-linux-*.tgz)
  bin="$dir/package/bin/node"
  echo "== e2e tests on Node $("$bin" --version)"
  status=0
  "$bin" node_modules/vitest/vitest.mjs run test/e2e || status=$?
  rm -rf "$dir"
  [ "$status" -eq 0 ] || exit "$status"
done
