"""The README stays true: every command is documented, the two commands exist, links resolve."""

from __future__ import annotations

import re
from pathlib import Path

from rulekb.webapp.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_command_is_in_the_readme() -> None:
    missing = [name for name in main.commands if f"`rulekb {name}" not in README]
    assert missing == []


def test_the_two_commands_exist_and_are_executable() -> None:
    for script in ("scripts/run.sh", "scripts/test.sh"):
        assert f"{script}" in README
        path = ROOT / script
        assert path.is_file() and path.stat().st_mode & 0o111, script
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "scripts/test.sh" in ci


def test_relative_links_resolve() -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
