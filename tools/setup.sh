#!/usr/bin/env bash
# One idempotent set-up step shared by the README's two commands: system packages, npm packages
# (only when package-lock.json changed since the last install), then a build of every project.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash tools/install-system-deps.sh

stamp="node_modules/.cowork-install-stamp"
want="$(node -e 'process.stdout.write(process.version)') $(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "npm packages: installing (npm ci)"
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
else
  echo "npm packages: up to date"
fi

# The outside MCP tools the tests judge us with (conformance suite, Inspector CLI, Node 22 for
# them), in their own folder: see tools/mcp-peers/package.json for why not in the workspaces.
peers="tools/mcp-peers"
peers_stamp="$peers/node_modules/.cowork-install-stamp"
peers_want="$(sha256sum "$peers/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$peers_stamp" ] || [ "$(cat "$peers_stamp")" != "$peers_want" ]; then
  echo "MCP peers: installing (npm ci in $peers)"
  npm ci --prefix "$peers" --no-audit --no-fund
  echo "$peers_want" > "$peers_stamp"
fi

npx nx run-many -t build --outputStyle=static
