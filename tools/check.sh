#!/usr/bin/env bash
# Type-checks, lints and tests every project (what `npm test` runs after set-up). When something
# fails, the failures are printed again at the very end: with several projects streaming at once, a
# failing test's message is otherwise far above the last screen, where CI logs are cut.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log="$(mktemp "${TMPDIR:-/tmp}/cowork-check-XXXXXX.log")"
trap 'rm -f "$log"' EXIT

cd "$root"
npx nx run-many -t typecheck lint test --outputStyle=stream "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  node "$root/tools/failure-digest.mjs" "$log"
fi
exit "$status"
