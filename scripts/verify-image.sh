#!/usr/bin/env bash
# Runs the Dockerfile's steps without a Docker engine, so CI can check them: the build stage
# (`npm ci --ignore-scripts`, `npm run build`) and the deps stage (`npm ci --omit=dev --ignore-scripts`)
# in clean directories holding only what the Dockerfile COPYs, then the runtime stage's layout
# (node_modules + dist + package.json + bin, nothing else: no src/, no tsx, no TypeScript) started with the
# image's CMD as a non-root user when run as root, probed with the image's HEALTHCHECK command, migrated,
# and stopped with SIGTERM (exit 0 expected).
#
# Usage: scripts/verify-image.sh            (the `node` on PATH; CI puts the current LTS first on PATH)
# Env:   DATABASE_URL  run the check on PostgreSQL instead of a SQLite file (optional)
# Not verified here (needs a Docker engine): the base image tag itself, Docker's COPY/USER/VOLUME/
# HEALTHCHECK semantics, and compose.yaml.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export npm_config_loglevel=error npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
step() { printf '\n==> verify-image: %s\n' "$*"; }
step "Node $(node --version), npm $(npm --version)"

step "build stage: npm ci --ignore-scripts && npm run build"
mkdir -p "$work/build" "$work/deps" "$work/app"
cp "$repo/package.json" "$repo/package-lock.json" "$repo/tsconfig.json" "$repo/tsconfig.build.json" "$work/build/"
cp -r "$repo/src" "$work/build/src"
# The SDK (sdk/, the @bizapi/client workspace) is a dependency of the server (bizapi mcp, bizapi import).
mkdir -p "$work/build/sdk" "$work/deps/sdk" "$work/app/sdk" "$work/build/mcp" "$work/deps/mcp" "$work/app/mcp"
# The root `npm run build` builds sdk/dist first (from sdk/src, as the Dockerfile does; the committed sdk/dist is not copied).
cp "$repo/sdk/package.json" "$repo/sdk/tsconfig.json" "$repo/sdk/tsconfig.build.json" "$work/build/sdk/"; cp -r "$repo/sdk/src" "$work/build/sdk/src"
# The @bizapi/mcp workspace (bizapi mcp, /mcp) as committed: its package.json, and dist/ (the server's build reads its declarations).
cp "$repo/mcp/package.json" "$work/build/mcp/"; cp -r "$repo/mcp/dist" "$work/build/mcp/dist"
(cd "$work/build" && npm ci --ignore-scripts && npm run build >/dev/null)

step "deps stage: npm ci --omit=dev --ignore-scripts"
cp "$repo/package.json" "$repo/package-lock.json" "$work/deps/"
cp "$repo/sdk/package.json" "$work/deps/sdk/"
cp "$repo/mcp/package.json" "$work/deps/mcp/"
(cd "$work/deps" && npm ci --omit=dev --ignore-scripts)
for dev in tsx typescript esbuild vitest; do
  if [ -e "$work/deps/node_modules/$dev" ]; then echo "verify-image: devDependency $dev is in the production tree" >&2; exit 1; fi
done

step "runtime stage: node_modules + dist + package.json + bin + sdk/package.json + sdk/dist + mcp/package.json + mcp/openapi.json + mcp/dist"
mv "$work/deps/node_modules" "$work/app/node_modules"
mv "$work/build/dist" "$work/app/dist"
cp "$repo/package.json" "$work/app/"
cp -r "$repo/bin" "$work/app/bin"
cp "$repo/sdk/package.json" "$work/app/sdk/"; mv "$work/build/sdk/dist" "$work/app/sdk/dist"
cp "$repo/mcp/package.json" "$repo/mcp/openapi.json" "$work/app/mcp/"; cp -r "$repo/mcp/dist" "$work/app/mcp/dist"
mkdir -p "$work/data"
as_user=()
if [ "$(id -u)" = 0 ]; then
  # The image runs as `node` (uid 1000); here any unprivileged account will do.
  chown -R nobody "$work/data"
  chmod 755 "$work" "$work/app"
  as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
  # The `node` on PATH may live where that account cannot reach (CI installs Node 26 under a private
  # temporary directory): the image's user runs the image's Node, so copy it where every account may run it.
  # (Without this, the unprivileged `node` resolves to another Node further down PATH, and a cluster worker
  # forked with the primary's execPath cannot be spawned: EACCES.)
  mkdir -p "$work/node/bin"
  cp "$(command -v node)" "$work/node/bin/node"
  chmod -R 755 "$work/node"
  export PATH="$work/node/bin:$PATH"
fi
# The image's ENV (the SQLite file on the data volume unless DATABASE_URL names PostgreSQL).
export NODE_ENV=production HOST=127.0.0.1 PORT=0 BIZAPI_DATA_DIR="$work/data" LOG_LEVEL=warn
export DATABASE_URL="${DATABASE_URL:-sqlite:$work/data/bizapi.db}"
export BIZAPI_MASTER_KEY="${BIZAPI_MASTER_KEY:-$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")}"
cd "$work/app"

[ "$("${as_user[@]}" node --version)" = "$(node --version)" ] || { echo "verify-image: the unprivileged user runs another Node than $(node --version)" >&2; exit 1; }

step "the SQLite driver: better-sqlite3 13's prebuilt Node-API binary, loaded without any install script"
# The deps stage ran no install script: only a driver that needs none may load (13, on Node 22.14+).
if [ "$(node -p 'Number(process.versions.napi) >= 10')" != true ]; then
  echo "verify-image: Node $(node --version) is older than the image's (22.14+): better-sqlite3 13 does not install" >&2; exit 1
fi
"${as_user[@]}" node -e "const D = require('better-sqlite3-napi'); const db = new D(':memory:'); console.log('verify-image: SQLite ' + db.prepare('select sqlite_version() v').get().v + ' via better-sqlite3 ' + require('better-sqlite3-napi/package.json').version); db.close()"

step "the SDK (@bizapi/client, linked to sdk/): compiled JavaScript, as bizapi mcp and bizapi import load it"
"${as_user[@]}" node --input-type=module -e "const m = await import('@bizapi/client'); if (typeof m.createBizapi !== 'function') throw new Error('no createBizapi'); console.log('verify-image: @bizapi/client from ' + import.meta.resolve('@bizapi/client'))"

step "the MCP package (@bizapi/mcp, linked to mcp/): its bundle and document, as bizapi mcp and /mcp load them"
"${as_user[@]}" node --input-type=module -e "const m = await import('@bizapi/mcp'); const n = m.buildOperationTools(m.bundledDocument()).length; if (n < 50) throw new Error('only ' + n + ' operations'); console.log('verify-image: @bizapi/mcp from ' + import.meta.resolve('@bizapi/mcp') + ', ' + n + ' operations')"

step "migrate (from dist/, as the compose 'migrate' service does)"
"${as_user[@]}" node dist/cli/main.js migrate
"${as_user[@]}" node bin/bizapi --version   # bin/bizapi falls back to dist/ without tsx

step "serve (the image's CMD) with 2 workers, HEALTHCHECK on /readyz, SIGTERM"
BIZAPI_WORKERS="${BIZAPI_WORKERS:-2}" "${as_user[@]}" node dist/cli/main.js serve 2> "$work/serve.err" &
server_pid=$!
port=""
for _ in $(seq 1 120); do
  port="$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$work/serve.err" | head -1 | sed 's/.*://')" || true
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.5
done
[ -n "$port" ] || { echo "verify-image: server did not start" >&2; cat "$work/serve.err" >&2; exit 1; }
# The Dockerfile's HEALTHCHECK command, verbatim but for the port.
PORT="$port" node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
echo "verify-image: /readyz answered 200 on port $port"
kill -TERM "$server_pid"
rc=0; wait "$server_pid" || rc=$?
server_pid=""
[ "$rc" = 0 ] || { echo "verify-image: serve exited with $rc after SIGTERM" >&2; cat "$work/serve.err" >&2; exit 1; }
grep -q 'bizapi stopped' "$work/serve.err" || { echo "verify-image: no graceful stop" >&2; cat "$work/serve.err" >&2; exit 1; }
step "OK"
