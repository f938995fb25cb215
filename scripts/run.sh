#!/usr/bin/env bash
# The main job: install, build the knowledge base, serve the web app on 127.0.0.1.
# Usage: scripts/run.sh [PORT]   (default 5000)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/rulekb build
exec .venv/bin/rulekb serve --host 127.0.0.1 --port "${1:-5000}"
