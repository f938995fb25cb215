"""What the texts print that the termbase should know: English terms and headings.

:func:`unmapped_english_terms` and :func:`unmapped_headings` list those no concept covers and no
``[[ignore]]`` entry excuses (the ``rulekb terms --check`` completeness report).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekb.corpus.reader import load_manifest, read_lines
from rulekb.kb.termbase.model import Termbase
from rulekb.kb.termbase.sense import SenseResolver
from rulekb.kb.termbase.texts import source_nodes

__all__ = ["EnglishTerm", "Heading", "english_key", "extract_english_terms", "headings", "unmapped_english_terms", "unmapped_headings"]

_LATIN_RUN = re.compile(r"(?<![\w‘’'])[A-Za-z][A-Za-z'’!]*(?:(?:[ \-]+|- )[A-Za-z][A-Za-z'’!]*)*(?![\w‘’'])")
_PROFILE_LINE = re.compile(r"^\s*(?:(?:WS|BS|S|T|W|I|A|Ld|Sv|M|OC|AP|D)\s*)+$")


@dataclass(frozen=True)
class EnglishTerm:
    """English text printed in a source: a gloss in parentheses, a bracketed ability, a
    characteristic abbreviation, an untranslated name."""

    source_id: str
    line: int
    text: str
    kind: str
    """``gloss`` (in parentheses), ``ability`` (in brackets), ``abbreviation``, ``quoted`` or ``text``."""


def english_key(text: str) -> str:
    """Comparison form of an English term: case-folded, «COUNTER- CHARGE» = «counter-charge»,
    a trailing ``X`` or number («RAPID FIRE X», «SUSTAINED HITS 2») and a leading «The»
    dropped, punctuation dropped."""
    key = text.casefold().replace("’", "'")
    key = re.sub(r"\s*-\s*", "-", key)
    key = re.sub(r"[^a-z0-9' \-+]", " ", key)
    key = re.sub(r"\b(?:\d+\+?|x\+?)$", "", key.strip())
    key = re.sub(r"^the ", "", key.strip())
    return " ".join(key.split())


def _kind(line: str, start: int, end: int, text: str) -> str:
    before, after = line[:start].rstrip(), line[end:].lstrip()
    if before.endswith("(") or (before.endswith(",") and "(" in before[-40:]):
        return "gloss"
    if before.endswith("[") or after.startswith("]"):
        return "ability"
    if before.endswith("«") and after.startswith("»"):
        return "quoted"
    if re.fullmatch(r"[A-Z][A-Za-z]?|WS|BS|OC|AP|CP|VP", text):
        return "abbreviation"
    return "text"


def extract_english_terms(source_ids: list[str] | None = None) -> list[EnglishTerm]:
    """Every run of Latin words printed in the sources, with the line it is on.

    Dice notation (D6, 2D6, x2) is not a term. Single letters count only as characteristic
    abbreviations, in parentheses («Сила (S)») or on a profile line («WS BS S T W I A Ld Sv»),
    since elsewhere they label models in diagrams («Космодесантники A, B, D и E»)."""
    out: list[EnglishTerm] = []
    for source_id in source_ids or [s.id for s in load_manifest()]:
        for number, line in enumerate(read_lines(source_id), start=1):
            profile = bool(_PROFILE_LINE.match(line))
            for found in _LATIN_RUN.finditer(line):
                text = found.group(0).strip(" -")
                if profile:
                    for abbreviation in text.split():
                        out.append(EnglishTerm(source_id, number, abbreviation, "abbreviation"))
                    continue
                kind = _kind(line, found.start(), found.end(), text)
                if len(text) == 1 and not (text.isupper() and kind == "gloss"):
                    continue
                out.append(EnglishTerm(source_id, number, text, kind))
    return out


def unmapped_english_terms(termbase: Termbase, terms: list[EnglishTerm] | None = None) -> list[EnglishTerm]:
    """Printed English terms that no concept (English term, abbreviation, alias) or
    ``[[ignore]]`` entry of the termbase accounts for."""
    known: set[str] = {english_key(i.text) for i in termbase.ignore if not i.heading}
    for concept in termbase:
        known.add(english_key(concept.english))
        if concept.abbreviation:
            known.add(english_key(concept.abbreviation))
        known.update(english_key(alias) for alias in concept.aliases)
    return [t for t in (terms if terms is not None else extract_english_terms()) if english_key(t.text) not in known]


@dataclass(frozen=True)
class Heading:
    """A heading printed in a source."""

    source_id: str
    line: int
    text: str
    concepts: tuple[str, ...]
    """The concepts the title names (renderings of its source found in it)."""


def headings(termbase: Termbase, source_ids: list[str] | None = None) -> list[Heading]:
    """Every heading of the sources with the concepts its title names."""
    out: list[Heading] = []
    for source_id in source_ids or [s.id for s in load_manifest()]:
        resolver = SenseResolver(termbase, source_id)
        for node in source_nodes(source_id):
            if node.is_leaf or node.parent_id is None:
                continue
            title = node.title_clean or node.title
            found = tuple(dict.fromkeys(a.concept_id for a in resolver.find(title, heading=True)))
            out.append(Heading(source_id, node.lines[0], title, found))
    return out


def unmapped_headings(termbase: Termbase) -> list[Heading]:
    """Headings that name no concept and are not listed under ``[[ignore]]`` with
    ``heading = true`` (compared with whitespace collapsed and case folded)."""
    ignored = {(i.source, " ".join(i.text.split()).casefold()) for i in termbase.ignore if i.heading}
    return [
        h for h in headings(termbase) if not h.concepts and (h.source_id, " ".join(h.text.split()).casefold()) not in ignored
    ]
