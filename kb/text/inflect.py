"""Putting a suggested term into the word form the draft uses (pymorphy3).

A draft says «в пределах досягаемости»; the fix is «зона поражения», and the suggestion must read
«зоны поражения». :func:`inflect_like` finds the head of the draft's words (the first noun, or a
verb), picks its parse from the word before it (a preposition governs a case; a noun before it
takes a genitive), and inflects the head of the suggestion and the adjectives before it to that
case and number (a verb to that tense, person, number and gender); the words after the head — a
genitive complement such as «поражения» — stay as they are.
"""

from __future__ import annotations

import re

from rulekb.corpus.morph import morph
from rulekb.corpus.words import is_caps

__all__ = ["inflect_like"]

_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*|\S+")
_CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
_GOVERNS = {
    "в": {"loct", "accs"}, "во": {"loct", "accs"}, "на": {"loct", "accs"},
    "из": {"gent"}, "от": {"gent"}, "до": {"gent"}, "у": {"gent"}, "без": {"gent"}, "для": {"gent"},
    "после": {"gent"}, "около": {"gent"}, "против": {"gent"}, "вне": {"gent"}, "среди": {"gent"},
    "к": {"datv"}, "ко": {"datv"}, "по": {"datv"},
    "с": {"ablt", "gent"}, "со": {"ablt", "gent"}, "за": {"ablt", "accs"}, "под": {"ablt", "accs"},
    "над": {"ablt"}, "перед": {"ablt"}, "между": {"ablt"},
    "о": {"loct"}, "об": {"loct"}, "при": {"loct"},
}
_VERB_GRAMMEMES = ("past", "pres", "futr", "1per", "2per", "3per", "sing", "plur", "masc", "femn", "neut", "impr", "indc")


def _parse(word: str, before: str) -> object:
    parses = morph().parse(word)
    wanted: set[str] = set()
    if before:
        previous = morph().parse(before)[0]
        if before.lower() in _GOVERNS:
            wanted = _GOVERNS[before.lower()]
        elif previous.tag.POS == "NOUN":
            wanted = {"gent"}
    for parse in parses:
        if parse.tag.case in wanted:
            return parse
    return parses[0]


def _head(words: list[str], before: str) -> tuple[int, object] | None:
    """The index and parse of the draft's head word: a verb it starts with, else its first noun."""
    parsed = [_parse(w, words[i - 1] if i else before) for i, w in enumerate(words)]
    if parsed[0].tag.POS in ("VERB", "INFN"):  # type: ignore[attr-defined]
        return 0, parsed[0]  # «объявляет атаку»: a verb phrase
    for i, p in enumerate(parsed):
        if p.tag.POS == "NOUN":  # type: ignore[attr-defined]
            return i, p
    return None


def _inflect(word: str, grammemes: set[str]) -> str:
    parse = morph().parse(word)[0]
    form = parse.inflect(grammemes) if grammemes else None
    return form.word if form is not None else word


def _keep_case(original: str, form: str) -> str:
    if original.isupper() and len(original) > 1:
        return form.upper()
    if original[:1].isupper():
        return form[:1].upper() + form[1:]
    return form


def inflect_like(suggestion: str, draft: str, before: str = "") -> str:
    """``suggestion`` in the grammatical form of ``draft`` (the words the draft has), ``before``
    being the word that precedes them in the draft. Words pymorphy3 cannot inflect stay as
    written; so does a suggestion whose head is of another kind than the draft's."""
    draft_words = [w for w in _WORD.findall(draft) if w[:1].isalpha()]
    fix_words = _WORD.findall(suggestion)
    if not draft_words or not fix_words:
        return suggestion
    head = _head(draft_words, before)
    if head is None:
        return suggestion
    index, parse = head
    tag = parse.tag  # type: ignore[attr-defined]
    out = list(fix_words)
    fix_parsed = [morph().parse(w)[0] for w in fix_words]
    if tag.POS == "NOUN":
        grammemes = {g for g in (tag.case, tag.number) if g}
        nouns = [i for i, p in enumerate(fix_parsed) if p.tag.POS == "NOUN"]
        if not nouns:
            return suggestion
        target = nouns[0]
        for i in range(target + 1):
            if i == target or fix_parsed[i].tag.POS in ("ADJF", "PRTF"):
                out[i] = _inflect(fix_words[i], grammemes)
    else:
        verbs = [i for i, p in enumerate(fix_parsed) if p.tag.POS in ("VERB", "INFN")]
        if not verbs:
            return suggestion
        if tag.POS == "INFN":
            out[verbs[0]] = fix_parsed[verbs[0]].normal_form
        elif fix_parsed[verbs[0]].normal_form[:5] == parse.normal_form[:5]:  # type: ignore[attr-defined]
            out[verbs[0]] = draft_words[index]  # the same verb in the other aspect («объявляет»)
        else:
            out[verbs[0]] = _inflect(fix_words[verbs[0]], {g for g in _VERB_GRAMMEMES if g in tag})
        # the verb's object takes the case the draft's object has
        objects = [i for i, w in enumerate(draft_words) if i > index and _parse(w, draft_words[i - 1]).tag.POS == "NOUN"]  # type: ignore[attr-defined]
        fix_objects = [i for i, p in enumerate(fix_parsed) if i > verbs[0] and p.tag.POS == "NOUN"]
        if objects and fix_objects:
            case = _parse(draft_words[objects[0]], draft_words[objects[0] - 1]).tag.case  # type: ignore[attr-defined]
            if case:
                out[fix_objects[0]] = _inflect(fix_words[fix_objects[0]], {case})
    text = suggestion
    for original, form in zip(fix_words, out, strict=True):
        if form != original:
            text = text.replace(original, _keep_case(original, form), 1)
    if draft_words[0][:1].isupper() and not text[:1].isupper():
        text = text[:1].upper() + text[1:]
    elif draft_words[0][:1].islower() and text[:1].isupper() and not is_caps(fix_words[0]):
        text = text[:1].lower() + text[1:]
    return text
