#!/usr/bin/env bash
# Install everything (Python packages; Debian's chromium for the browser tests when we can)
# and run the test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "installing Debian's chromium for the browser tests…" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
scripts/setup.sh test
exec .venv/bin/python -m pytest -q "$@"
