#!/usr/bin/env bash
# Create .venv (if needed) and install rulekb into it. Usage: scripts/setup.sh [EXTRA]
# EXTRA is a pip extra such as "test". Needs only Python >= 3.11 with venv.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv 2>/dev/null || {
        # Debian ships venv separately
        if command -v apt-get >/dev/null; then
            $( [ "$(id -u)" = 0 ] || echo sudo ) apt-get install -y python3-venv >/dev/null
        fi
        "$PYTHON" -m venv .venv
    }
fi
.venv/bin/python -m pip install --quiet --upgrade pip
spec="."
[ -n "${1:-}" ] && spec=".[$1]"
.venv/bin/python -m pip install --quiet -e "$spec"
