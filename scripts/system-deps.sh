#!/usr/bin/env bash
# The system packages the test suite needs besides Python's: Debian's Chromium (the tracker's browser
# tests drive it with Playwright) and PostgreSQL (its storage tests start a throwaway server with
# initdb + pg_ctl on loopback). Installs what is missing, quietly; does nothing when all is there.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium fonts-dejavu-core)
command -v initdb >/dev/null 2>&1 || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
((${#need[@]})) || exit 0
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "please install: ${need[*]} (Debian packages)" >&2; exit 1; }
    sudo=(sudo)
fi
echo "installing ${need[*]} (apt)"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
