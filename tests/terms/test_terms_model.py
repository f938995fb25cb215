"""Loading and validating a termbase file: every problem is one line naming the entry and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.corpus.errors import TermbaseError
from rulekb.kb.termbase import Category, Status, load_termbase

GOOD = '''
schema = 1

[[concept]]
id = "hit-roll"
english = "Hit roll"
category = "attack"
definition = "Бросок на попадание."
aliases = ["хит ролл"]
related = ["wound-roll"]
[[concept.rendering]]
source = "10e-core"
text = "бросок на попадание"
status = "preferred"
[[concept.rendering]]
source = "10e-core"
text = "Ударная калитка"
status = "mistranslation"
note = "Бессмыслица."

[[concept]]
id = "wound-roll"
english = "Wound roll"
category = "attack"
definition = "Бросок на ранение."
[[concept.rendering]]
source = "6e-assault"
text = "Бросок на ранение"
status = "preferred"
'''


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "terms.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_valid_file_loads(tmp_path: Path) -> None:
    termbase = load_termbase(_write(tmp_path, GOOD))
    assert [c.id for c in termbase] == ["hit-roll", "wound-roll"]
    hit = termbase["hit-roll"]
    assert hit.category is Category.ATTACK
    assert [r.status for r in hit.rendering] == [Status.PREFERRED, Status.MISTRANSLATION]
    assert hit.recommended == "бросок на попадание"
    assert termbase.source_ids() == ["10e-core", "6e-assault"]


@pytest.mark.parametrize(
    ("change", "entry", "field"),
    [
        (('id = "wound-roll"', 'id = "hit-roll"'), "hit-roll", "id"),
        (('source = "6e-assault"', 'source = "6e-core"'), "wound-roll", "rendering[0].source"),
        (('status = "mistranslation"', 'status = "wrong"'), "hit-roll", "rendering[1].status"),
        (('category = "attack"\ndefinition = "Бросок на ранение."', 'category = "roll"\ndefinition = "Бросок на ранение."'), "wound-roll", "category"),
        (('text = "Бросок на ранение"', 'text = ""'), "wound-roll", "rendering[0].text"),
        (('text = "Бросок на ранение"', 'text = "  "'), "wound-roll", "rendering[0].text"),
        (('related = ["wound-roll"]', 'related = ["wound-rolls"]'), "hit-roll", "related[0]"),
        (('note = "Бессмыслица."', ''), "hit-roll", "rendering[1].note"),
        (('aliases = ["хит ролл"]', 'aliases = ["хит ролл"]\ncolour = "red"'), "hit-roll", "colour"),
        (('english = "Wound roll"\n', ''), "wound-roll", "english"),
        (('id = "hit-roll"', 'id = "Hit Roll"'), "Hit Roll", "id"),
        (('text = "Ударная калитка"', 'text = "бросков на попадание"'), "hit-roll", "rendering[1].text"),
    ],
)
def test_each_problem_names_entry_and_field(tmp_path: Path, change: tuple[str, str], entry: str, field: str) -> None:
    old, new = change
    assert old in GOOD
    with pytest.raises(TermbaseError) as caught:
        load_termbase(_write(tmp_path, GOOD.replace(old, new, 1)))
    message = caught.value.message
    assert "\n" not in message
    assert repr(entry) in message, message
    assert f"field {field!r}" in message, message
    assert caught.value.exit_code == 2


def test_invalid_toml_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(TermbaseError) as caught:
        load_termbase(_write(tmp_path, GOOD + "\n[[concept]\n"))
    assert "not valid TOML" in caught.value.message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TermbaseError, match="not found"):
        load_termbase(tmp_path / "nope.toml")


def test_unknown_top_level_table(tmp_path: Path) -> None:
    with pytest.raises(TermbaseError, match="'glossary'"):
        load_termbase(_write(tmp_path, GOOD.replace("schema = 1", "schema = 1\nglossary = 2")))
