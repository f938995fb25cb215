"""The build checks the FAQ: a quote that is not in its lines fails the build, the last build stays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulekb.kb.faq.loader
from rulekb.kb.build import build
from rulekb.kb.faq.entries import FaqError, load_built_faq, load_faq


def test_the_build_writes_the_checked_faq(built: Path) -> None:
    assert load_built_faq(built) == load_faq()
    assert json.loads((built / "manifest.json").read_text(encoding="utf-8"))["counts"]["faq"] >= 90


def test_a_false_quote_fails_the_build_and_keeps_the_last_one(
    tmp_path: Path, built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "build"
    out.mkdir()
    (out / "manifest.json").write_text('{"schema_version": 1}', encoding="utf-8")
    faq = tmp_path / "faq"
    faq.mkdir()
    for original in sorted(rulekb.kb.faq.loader.FAQ_DIR.glob("*.toml")):
        (faq / original.name).write_text(original.read_text(encoding="utf-8"), encoding="utf-8")
    path = faq / "10e-core.toml"
    text = path.read_text(encoding="utf-8")
    first_quote = text.index("quotes = [")
    broken = text[: first_quote] + 'quotes = ["этой фразы нет в тексте", ' + text[first_quote + len("quotes = [") :]
    path.write_text(broken, encoding="utf-8")
    monkeypatch.setattr(rulekb.kb.faq.loader, "FAQ_DIR", faq)
    with pytest.raises(FaqError, match="этой фразы нет в тексте"):
        build(out=out)
    assert (out / "manifest.json").read_text(encoding="utf-8") == '{"schema_version": 1}'
