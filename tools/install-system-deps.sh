#!/usr/bin/env bash
# Installs the Debian packages the host and its plugins need, and nothing when they are all there.
# The list is tools/system-deps.txt plus every plugins/*/system-deps.txt, so a plugin that needs a
# system program (LibreOffice, Chromium, Blender) declares it beside its own code.
# Idempotent: safe to run on every start. Needs root (or sudo) only when something is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

mapfile -t wanted < <(cat "$root/tools/system-deps.txt" "$root"/plugins/*/system-deps.txt 2>/dev/null \
  | sed 's/#.*//' | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)

missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all ${#wanted[@]} present"
  exit 0
fi

echo "system packages: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then
    sudo_cmd=(sudo)
  else
    echo "error: need root to install: ${missing[*]} (run: apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
