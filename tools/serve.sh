#!/usr/bin/env bash
# `cowork serve` (arguments passed on) with V8's background thread pool sized to this machine:
# packages/host/src/cli/node-pool.ts says why. `npm start` runs it after set-up; the host must be
# built (dist/).
set -euo pipefail
host="$(cd "$(dirname "${BASH_SOURCE[0]}")/../packages/host" && pwd)"
read -r -a flags <<< "$(node -e 'process.stdout.write(require(process.argv[1]).serveNodeFlags().join(" "))' "$host/dist/cli/node-pool.js")"
exec node "${flags[@]}" "$host/bin/cowork.js" serve "$@"
