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

npx nx run-many -t build --outputStyle=static
