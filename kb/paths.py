"""Where kb's own data lives: one place, so modules can move between sub-packages freely."""

from __future__ import annotations

from pathlib import Path

KB_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = KB_DIR.parent
DATA_DIR = KB_DIR / "data"
EXAMPLES_DIR = KB_DIR / "examples"
FAQ_DIR = KB_DIR / "faq"
