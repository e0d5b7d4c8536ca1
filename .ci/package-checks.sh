#!/usr/bin/env bash
# What users install (issue 20), checked the slow way; not part of `npm test`. Run from a clone after `npm install`:
#   bash .ci/package-checks.sh
# Prints each check as it goes and exits non-zero at the first that fails. Needs the npm registry (jq-web, and
# ssh2-sftp-client for the SFTP part) and a warm npm cache for the timing to mean anything (the first install warms
# it). `man` is used when installed (Debian: man-db); without it the page's installed location is checked instead.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(node -p "require('./package.json').version")
name=$(node -p "require('./package.json').name")
work=$(mktemp -d)
pids=()
cleanup() {
  local status=$?
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work" 2>/dev/null || { sleep 1; rm -rf "$work" || true; }
  exit "$status"
}
trap cleanup EXIT
# Each check's wall time is printed when the next one starts (and at the end).
check_t0=$SECONDS
check_name=
check() {
  [ -z "$check_name" ] || echo "   ($((SECONDS - check_t0)) s)"
  check_t0=$SECONDS check_name=$*
  echo "== $*"
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# Starts `$1 emulator start --port 0` (more arguments after it), waits for its JSON line; sets emu_url, emu_token.
start_emulator() {
  local out="$work/emu-$RANDOM"
  "$@" emulator start --port 0 >"$out.json" 2>"$out.err" &
  pids+=($!)
  for _ in $(seq 1 100); do [ -s "$out.json" ] && break; sleep 0.2; done
  [ -s "$out.json" ] || fail "the emulator did not start: $(cat "$out.err")"
  emu_url=$(node -p "JSON.parse(require('fs').readFileSync('$out.json','utf8')).base_url")
  emu_token=$(node -p "JSON.parse(require('fs').readFileSync('$out.json','utf8')).token")
  emu_err="$out.err"
  sleep 0.3
}

# `--prefix` moves npm's global config ($prefix/etc/npmrc) out of reach, and with it the machine's registry and
# cafile: every npm call below keeps the machine's own.
export npm_config_globalconfig="${npm_config_globalconfig:-$(npm config get globalconfig)}"

check "npm pack (prepack builds dist/)"
npm pack --pack-destination "$work" >"$work/pack.txt" 2>"$work/pack.err" || fail "npm pack: $(tail -n 20 "$work/pack.err")"
tgz="$work/$(tail -n 1 "$work/pack.txt")"
tar -tzf "$tgz" >"$work/files.txt"
for f in package/LICENSE package/docs/man/sq.1 package/docs/commands/README.md package/bin/sq.js package/dist/sq.cjs package/dist/vendor/yaml.mjs package/dist/vendor/mcp-sdk-http.mjs package/dist/help/sq.txt package/dist/help/sq.squids.list.txt; do
  grep -qx "$f" "$work/files.txt" || fail "$f is not in the tarball"
done
! grep -q '^package/dist/sea/' "$work/files.txt" || fail "the tarball holds dist/sea/ (the standalone executable)"
tar -xzOf "$tgz" package/package.json | node -e '
  const p = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const scripts = ["preinstall", "install", "postinstall", "prepare"].filter((s) => p.scripts?.[s]);
  if (scripts.length) { console.error("install scripts in the package:", scripts); process.exit(1); }'
echo "   $(basename "$tgz"): $(wc -l <"$work/files.txt") files, $(du -k "$tgz" | cut -f1) KB, no install scripts"

check "npm install -g --prefix TMP $(basename "$tgz"): timed with a warm cache (target <= 2 s on an idle machine)"
npm install -g --prefix "$work/warm" --no-audit --no-fund "$tgz" >"$work/install-warm.log" 2>&1 || fail "install failed: $(tail -n 20 "$work/install-warm.log")" # warms the npm cache
times=()
for i in 1 2 3; do
  start=$(date +%s%N)
  npm install -g --prefix "$work/p$i" --no-audit --no-fund "$tgz" >"$work/install-$i.log" 2>&1 || fail "install failed: $(cat "$work/install-$i.log")"
  times+=("$(((($(date +%s%N) - start) / 1000000)))")
  if grep -qi 'warn' "$work/install-$i.log"; then fail "the install warned: $(grep -i warn "$work/install-$i.log")"; fi
done
echo "   install times (ms): ${times[*]}; $(grep -o 'added [0-9]* packages' "$work/install-1.log"); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
prefix="$work/p1"

# The standalone executable builds (a rebuild of dist/, esbuild, a ~100 MB copy of node) while the checks below run
# from the installed prefix, mostly waiting on npm; its own check waits for it. Started after the timed installs, so
# it does not slow them.
(cd "$root" && npm run --silent build:sea) >"$work/sea.log" 2>&1 &
sea_pid=$!
pids+=("$sea_pid")
# The README's SFTP step, `npm install --global ssh2-sftp-client@12` beside sq, fetches ssh2 and its kin (~12 s on a
# cold npm cache): done meanwhile into the second timed install's prefix, which the SFTP check below then uses; the
# first prefix stays without it for the checks of its absence.
npm install -g --prefix "$work/p2" --no-audit --no-fund --foreground-scripts=false ssh2-sftp-client@12 >"$work/sftp-install.log" 2>&1 &
sftp_pid=$!
pids+=("$sftp_pid")

check "from the prefix, outside the repository: sq --version, lobstr-sq --version, sq version"
cd "$work"
export SQ_CONFIG_DIR="$work/config" SQ_CACHE_DIR="$work/cache"
[ "$("$prefix/bin/sq" --version)" = "$version" ] || fail "sq --version"
[ "$("$prefix/bin/lobstr-sq" --version)" = "$version" ] || fail "lobstr-sq --version"
"$prefix/bin/sq" version | grep -q "^sq $version (node v" || fail "sq version"

check "sq emulator start from the prefix: without ssh2-sftp-client it says how to add it; sq me --json, export, auth login work"
start_emulator "$prefix/bin/sq"
grep -q "SFTP delivery is off.*npm install --global ssh2-sftp-client@12" "$emu_err" || fail "no SFTP message: $(cat "$emu_err")"
SQ_BASE_URL=$emu_url SQ_TOKEN=$emu_token "$prefix/bin/sq" me --json | grep -q '"email"' || fail "sq me --json"
SQ_BASE_URL=$emu_url SQ_TOKEN=$emu_token "$prefix/bin/sq" export | grep -q "^version: 1" || fail "sq export (yaml, from dist/vendor/)"
printf '%s' "$emu_token" | "$prefix/bin/sq" auth login --with-token --base-url "$emu_url" >/dev/null 2>&1 || fail "sq auth login (the profile store, from dist/vendor/)"
"$prefix/bin/sq" auth status 2>&1 | grep -q "$emu_url" || fail "sq auth status"
out=$(PW=x "$prefix/bin/sq" delivery test sftp --host 127.0.0.1 --port 1 --username u --directory /x --password-env PW 2>&1 || true)
grep -q "npm install --global ssh2-sftp-client@12" <<<"$out" || fail "delivery test sftp without ssh2-sftp-client: $out"

check "sq mcp from the prefix: tools/list and a tool call answered over stdio (the MCP SDK from dist/vendor/)"
mcp_in='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"checks","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"balance","arguments":{}}}'
out=$(printf '%s\n' "$mcp_in" | SQ_BASE_URL=$emu_url SQ_TOKEN=$emu_token timeout 30 "$prefix/bin/sq" mcp --quiet) || fail "sq mcp exited non-zero: $out"
grep -q '"id":2' <<<"$out" && grep -q '"name":"squids_list"' <<<"$out" || fail "sq mcp: no tools/list answer: $out"
grep -q '"id":3' <<<"$out" && grep -q 'remaining' <<<"$out" || fail "sq mcp: no balance answer: $out"
! grep -qv '^{"' <<<"$out" || fail "sq mcp: stdout holds more than protocol messages: $out"

check "man sq with MANPATH=\$prefix/share/man"
[ "$(cat "$prefix/share/man/man1/sq.1")" = "$(cat "$root/docs/man/sq.1")" ] || fail "$prefix/share/man/man1/sq.1 is not docs/man/sq.1"
if command -v man >/dev/null; then
  # (npm links the page there; man -w may print the link or where it points)
  [ "$(readlink -f "$(MANPATH="$prefix/share/man" man -w sq)")" = "$(readlink -f "$prefix/share/man/man1/sq.1")" ] || fail "man -w sq: $(MANPATH="$prefix/share/man" man -w sq 2>&1)"
  MANPATH="$prefix/share/man" MANWIDTH=80 man sq 2>/dev/null | grep -q "EXIT STATUS" || fail "man sq"
  echo "   man finds $prefix/share/man/man1/sq.1"
else
  echo "   no man here (Debian: apt-get install man-db): the page is at $prefix/share/man/man1/sq.1"
fi

check "with ssh2-sftp-client added beside it (npm install -g ssh2-sftp-client@12), the emulator delivers over SFTP"
wait "$sftp_pid" || fail "npm install -g ssh2-sftp-client: $(tail -n 20 "$work/sftp-install.log")"
start_emulator "$work/p2/bin/sq"
! grep -q "SFTP delivery is off" "$emu_err" || fail "the SFTP message with ssh2-sftp-client installed"
out=$(PW=x SQ_BASE_URL=$emu_url SQ_TOKEN=$emu_token "$work/p2/bin/sq" delivery test sftp --host 127.0.0.1 --port 1 --username u --directory /x --password-env PW 2>&1 || true)
grep -q "connection refused" <<<"$out" || fail "delivery test sftp did not try to connect: $out"
cd "$root"

check "npm run build:sea: dist/sea/sq answers sq me --json with no node on PATH"
wait "$sea_pid" || fail "npm run build:sea: $(tail -n 20 "$work/sea.log")"
start_emulator "$prefix/bin/sq"
out=$(env -i PATH=/nonexistent HOME="$work" SQ_CONFIG_DIR="$work/sea-config" SQ_BASE_URL="$emu_url" SQ_TOKEN="$emu_token" "$root/dist/sea/sq" me --json)
grep -q '"email"' <<<"$out" || fail "dist/sea/sq me --json: $out"
[ "$(env -i PATH=/nonexistent "$root/dist/sea/sq" --version)" = "$version" ] || fail "dist/sea/sq --version"
out=$(env -i PATH=/nonexistent SQ_CONFIG_DIR="$work/sea-config" SQ_BASE_URL="$emu_url" SQ_TOKEN="$emu_token" "$root/dist/sea/sq" squids list --jq '.[0].name')
[ -n "$out" ] || fail "dist/sea/sq squids list --jq"
env -i PATH=/nonexistent "$root/dist/sea/sq" emulator start --port 0 >"$work/sea-emu.json" 2>"$work/sea-emu.err" &
pids+=($!)
for _ in $(seq 1 100); do [ -s "$work/sea-emu.json" ] && break; sleep 0.2; done
grep -q base_url "$work/sea-emu.json" || fail "dist/sea/sq emulator start: $(cat "$work/sea-emu.err")"
! grep -q "SFTP delivery is off" "$work/sea-emu.err" || fail "dist/sea/sq has no SFTP delivery"
echo "   $(ls -l dist/sea/sq | awk '{print $5}') bytes; runs me --json, --jq and the emulator with SFTP"

check "the README's install lines (npm, npx, standalone), with the local tarball and executable for the published ones"
lines=$(sed -n '/<!-- install:start -->/,/<!-- install:end -->/p' README.md | grep -v '^<!--' | grep -v '^```')
grep -q "npm install --global $name@$version" <<<"$lines" || fail "README's npm line does not name $name@$version"
grep -q "npx -y $name@$version" <<<"$lines" || fail "README's npx line does not name $name@$version"
release="https://github.com/lobstr-io/lobstr-sq/releases/download/v$version/sq-linux-x64"
grep -qF "$release" <<<"$lines" || fail "README's standalone line does not download $release"
mkdir -p "$work/readme"
(
  cd "$work/readme"
  export NPM_CONFIG_PREFIX="$work/readme-prefix"
  # The only changes: the local tarball (a file: spec, which npx also takes) for the registry's package, the local
  # executable for the release asset.
  script=${lines//"$name@$version"/file:$tgz}
  script=${script//"$release"/file://$root/dist/sea/sq}
  bash -euo pipefail -c "$script" >"$work/readme.out" 2>&1 || {
    cat "$work/readme.out"
    exit 1
  }
) || fail "README install lines"
[ "$("$work/readme-prefix/bin/sq" --version)" = "$version" ] || fail "sq from the README's npm line"
[ "$(grep -c "^sq $version (node v" "$work/readme.out")" = 2 ] || fail "the README's npx and standalone lines did not each print sq version: $(cat "$work/readme.out")"
echo "   npm, npx and the standalone line each ran"

check "action.yml's steps (test/package/run-action.mjs) with the README's inputs: npm tarball, then standalone binary"
sha() { sha256sum "$1" | cut -d' ' -f1; }
start_emulator "$prefix/bin/sq"
export LOBSTR_API_KEY=$emu_token
for source in npm binary; do
  if [ "$source" = npm ]; then file=$tgz; else file=$root/dist/sea/sq; fi
  export SQ_CONFIG_DIR="$work/action-$source"
  out=$(RUN_ACTION_TEMP="$work" NPM_CONFIG_PREFIX="$work/action-prefix" node test/package/run-action.mjs --readme --set "source=$source" --set "url=file://$file" --set "sha256=$(sha "$file")" --set "base-url=$emu_url")
  bin=$(node -p "JSON.parse(process.argv[1]).path.at(-1)" "$out")
  grep -q "\"version\":\"$version\"" <<<"$out" || fail "action ($source): the version output is not the bare $version: $out"
  grep -q '"SQ_TOKEN":"\*\*\*"' <<<"$out" || fail "action ($source): the key is not masked in the job's environment: $out"
  [ ! -e "$SQ_CONFIG_DIR/config.json" ] || fail "action ($source): a profile file was written"
  SQ_TOKEN=$LOBSTR_API_KEY SQ_BASE_URL=$emu_url PATH="$bin:$PATH" sq me --json | grep -q '"email"' || fail "action ($source): sq me --json with the job's SQ_TOKEN"
  if RUN_ACTION_TEMP="$work" NPM_CONFIG_PREFIX="$work/action-prefix2" node test/package/run-action.mjs --readme --set "source=$source" --set "url=file://$file" --set "sha256=$(printf '0%.0s' {1..64})" >/dev/null 2>"$work/mismatch.err"; then
    fail "action ($source): a wrong sha256 was accepted"
  fi
  grep -q "sha256 mismatch" "$work/mismatch.err" || fail "action ($source): $(cat "$work/mismatch.err")"
  [ ! -e "$work/action-prefix2/bin/sq" ] || fail "action ($source): installed despite the mismatch"
  echo "   $source: installed, verified, key in the job environment only; a wrong sha256 stops it before anything is installed"
done
export SQ_CONFIG_DIR="$work/config"

check "npm run release: the tarball, the standalone executable on Node 24 (runtime checked against the registry's integrity), SHA256SUMS"
(cd "$root" && npm run --silent release) >"$work/release.log" 2>&1 || fail "npm run release: $(tail -n 20 "$work/release.log")"
(cd "$root/dist/release" && sha256sum -c SHA256SUMS) || fail "sha256sum -c dist/release/SHA256SUMS"
"$root/dist/release/sq-linux-x64" version | grep -q "^sq $version (node v24\." || fail "dist/release/sq-linux-x64 is not on Node 24: $("$root/dist/release/sq-linux-x64" version)"
grep -q "sha512 matches the registry's integrity" "$work/release.log" || fail "npm run release did not check the runtime's integrity"
echo "   $(wc -l <"$root/dist/release/SHA256SUMS") files checked by sha256sum -c; $("$root/dist/release/sq-linux-x64" version)"

echo "   ($((SECONDS - check_t0)) s)"
echo "package checks passed"
