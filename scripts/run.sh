#!/usr/bin/env bash
# The main job: install, build the knowledge base, serve the web app with gunicorn on 127.0.0.1.
# Usage: scripts/run.sh [PORT]   (default 5000)
# Sync workers (RULEKB_WORKERS overrides the count chosen for the machine), the access log on
# stdout, and a graceful reload of the workers whenever `rulekb build` swaps a new build in.
# `.venv/bin/rulekb serve --debug` is the development server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/rulekb build
export RULEKB_BIND="127.0.0.1:${1:-5000}"
exec .venv/bin/gunicorn -c webapp/gunicorn_conf.py 'rulekb.webapp:create_app()'
