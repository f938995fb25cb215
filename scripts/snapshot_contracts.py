"""Save every JSON contract's output into a folder, to diff before and after a behaviour-preserving change.

Usage: .venv/bin/python scripts/snapshot_contracts.py OUT_DIR [--build-dir build]
then, after the change, the same into another folder and ``diff -r BEFORE AFTER``.

It runs the CLI (``nodes``, ``terms``, ``concepts``, ``examples``, ``calc`` on the reference profiles,
``compare``, ``ask --batch`` over the evaluation sets) and fetches the API routes through Flask's test
client. The build stamp and timings are blanked so two builds of the same sources compare equal.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RULEKB = str(ROOT / ".venv" / "bin" / "rulekb")
EVAL_SETS = ["dev.jsonl", "eval.jsonl", "ha.jsonl", "hb.jsonl"]
API_ROUTES = [
    "/api/ask?q=чардж",
    "/api/ask?q=can+I+shoot+after+advancing",
    "/api/ask?q=как+переведён+Overwatch",
    "/api/ask?q=чем+отличается+чардж+в+6-й+и+10-й",
    "/api/search?q=пайл+ин",
    "/api/rules/10e-core",
    "/api/concepts",
    "/api/concepts/charge",
    "/api/terms",
    "/api/sources",
    "/api/calc?a=10&bs=3&s=4&ap=0&d=1&t=4&sv=3&w=2&models=10",
    "/api/openapi.json",
]
PROFILES: list[dict[str, Any]] = [
    {"edition": "10", "attacker": {"models": 20},
     "weapon": {"attacks": 1, "skill": 3, "strength": 5, "ap": -1, "damage": 2,
                "abilities": ["rapid-fire 1", "sustained-hits 1", "lethal-hits", "devastating-wounds"]},
     "defender": {"models": 10, "toughness": 4, "save": 3, "wounds": 3, "fnp": 6}, "situation": {"half_range": True}},
    {"edition": "10", "weapon": {"attacks": "D6", "skill": 4, "strength": 9, "ap": -4, "damage": "D6",
                                 "abilities": ["melta 2", "twin-linked"]},
     "defender": {"models": 6, "toughness": 10, "save": 3, "wounds": 12, "invulnerable": 5}},
    {"edition": "6", "attacker": {"models": 15}, "weapon": {"attacks": 2, "skill": 4, "strength": 4, "ap": 5},
     "defender": {"models": 10, "toughness": 4, "save": 3, "wounds": 1}},
    {"edition": "7", "weapon": {"attacks": 10, "skill": 4, "strength": 4, "ap": 3, "melee": True},
     "defender": {"models": 5, "toughness": 4, "save": 3, "wounds": 1}},
]
_VOLATILE = re.compile(r'"(stamp|build_stamp|built_at|seconds|elapsed_ms|took_ms|version)": ?("[^"]*"|[0-9.]+)')


def _clean(text: str) -> str:
    return _VOLATILE.sub(lambda m: f'"{m.group(1)}": "-"', text)


def _cli(out: Path, name: str, args: list[str], stdin: str | None = None) -> None:
    done = subprocess.run([RULEKB, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, check=False)
    (out / f"{name}.json").write_text(_clean(done.stdout) + f"\n# exit {done.returncode}\n", encoding="utf-8")


def _create_app() -> Any:
    for name in ("rulekb.webapp", "webapp"):
        try:
            return importlib.import_module(name).create_app
        except ModuleNotFoundError:
            continue
    raise SystemExit("cannot import the web app: run scripts/setup.sh test first")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    build = ["--build-dir", str(args.build_dir)]
    for name in ("nodes", "concepts"):
        _cli(out, name, [name, "--json", *build])
    _cli(out, "examples", ["examples", "--json"])
    _cli(out, "terms", ["terms", "--json"])
    _cli(out, "compare-charge", ["compare", "charge", "--json", *build])
    _cli(out, "calc", ["calc", "--batch", "-", "--json"], "\n".join(json.dumps(p) for p in PROFILES) + "\n")
    for name in EVAL_SETS:
        rows = [json.loads(line) for line in (ROOT / "tests" / "data" / name).read_text(encoding="utf-8").splitlines()
                if line.strip()]
        batch = "\n".join(json.dumps({"id": r["id"], "question": r["question"]}, ensure_ascii=False) for r in rows)
        _cli(out, f"ask-{name.removesuffix('.jsonl')}", ["ask", "--batch", "-", "--json", *build], batch + "\n")
    app = _create_app()({"BUILD_DIR": str(args.build_dir), "TESTING": True})
    client = app.test_client()
    for i, route in enumerate(API_ROUTES):
        response = client.get(route)
        body = response.get_data(as_text=True)
        (out / f"api-{i:02d}.json").write_text(f"{route} {response.status_code}\n{_clean(body)}\n", encoding="utf-8")
    print(f"saved {len(list(out.iterdir()))} outputs to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
