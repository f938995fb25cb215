"""The client-side search index: ``build/search-index.json``, searched in the browser offline.

When the phone has no network the server's search (Whoosh, pymorphy3, reranking) is out of
reach, so the build also writes a compact index a small script can search: every rule node's
title and summary, the names, Russian renderings, aliases and slang of the concepts it defines
or mentions, and the FAQ's questions and phrasings in both languages (→ the rules they cite).

Words are folded the way the server folds them — lower case, ``ё`` → ``е``, the server's English
stemmer (:func:`rulekb.kb.text.analysis.stem_en`, its irregular verbs included) — and, since a browser has
no pymorphy3, common Russian endings are cut (:func:`fold_word`). The folding rules travel inside
the index (``fold``), so the script in ``webapp/static/offline.js`` applies exactly these rules;
a browser test compares the two on every word of the index.

Layout (JSON, compact):

``docs``      ``[[node_id, title, edition, parent_index (-1 for none), summary], …]``
``concepts``  ``[[concept_id, english, preferred Russian rendering], …]``
``faq``       ``[[question, answer, edition, [doc indices of its citations]], …]``
``postings``  ``{term: [doc, weight, doc, weight, …]}`` (weights already multiplied by idf)
``concept_postings`` / ``faq_postings``  the same for concepts and FAQ entries
``fold``      the folding rules: ``endings``, ``reflexive``, ``min_stem``, ``en_irregular``, ``en_suffixes``
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rulekb.kb.context import BuildContext
from rulekb.kb.text.analysis import EN_IRREGULAR, EN_SUFFIXES, fold, stem_en

__all__ = [
    "ENDINGS",
    "INDEX_FILE",
    "build_offline_index",
    "fold_word",
    "stage_offline_index",
    "terms_of",
]

INDEX_FILE = "search-index.json"
SCHEMA = 1

#: Russian endings cut from a word (longest first), so «чарджа», «чарджем», «чарджи» meet «чардж».
ENDINGS: tuple[str, ...] = tuple(
    sorted(
        {
            # adjectives and participles
            "ыми", "ими", "ого", "его", "ому", "ему", "ой", "ей", "ый", "ий", "ая", "яя", "ое", "ее",
            "ые", "ие", "ую", "юю", "ых", "их", "ым", "им",
            # nouns
            "ами", "ями", "ах", "ях", "ам", "ям", "ом", "ем", "ов", "ев", "ию", "ия", "ье", "ья",
            "а", "я", "о", "е", "ы", "и", "у", "ю", "ь", "й",
            # verbs
            "ать", "ять", "еть", "ить", "уть", "ешь", "ишь", "ете", "ите", "ют", "ут", "ат", "ят", "ет",
            "ит", "ла", "ло", "ли", "ть",
        },
        key=lambda e: (-len(e), e),
    )
)
REFLEXIVE = ("ся", "сь")
MIN_STEM = 3

_TOKEN = re.compile(r"\d*[dд]\d+|\d+\+?|[a-zа-я]+")
_CYRILLIC = re.compile(r"[а-я]")

#: field weights before idf
W_TITLE, W_SUMMARY, W_DEFINES, W_FAQ = 3.0, 1.0, 4.0, 2.0
SUMMARY_CHARS = 160


def fold_word(word: str) -> str:
    """One word as the index keys it: folded case and ё, an English stem or a cut Russian ending."""
    word = fold(word)
    if not _CYRILLIC.search(word):
        return stem_en(word) if word.isalpha() else word.replace("д", "d")
    if word[0].isdigit():  # dice such as «2д6»
        return word.replace("д", "d")
    for ending in REFLEXIVE:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_STEM + 1:
            word = word[: -len(ending)]
            break
    for ending in ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_STEM:
            return word[: -len(ending)]
    return word


def terms_of(text: str) -> list[str]:
    """The index terms of ``text`` in order (the browser's ``termsOf`` does the same)."""
    return [fold_word(t) for t in _TOKEN.findall(fold(text))]


def _summary(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= SUMMARY_CHARS:
        return text
    cut = text[:SUMMARY_CHARS]
    space = cut.rfind(" ")
    return (cut[:space] if space > SUMMARY_CHARS // 2 else cut) + "…"


class _Postings:
    def __init__(self) -> None:
        self.weights: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))

    def add(self, doc: int, text: str, weight: float) -> None:
        for term in set(terms_of(text)):
            self.weights[term][doc] += weight

    def compact(self, total: int) -> dict[str, list[float | int]]:
        out: dict[str, list[float | int]] = {}
        for term in sorted(self.weights):
            docs = self.weights[term]
            idf = math.log(1 + total / len(docs))
            flat: list[float | int] = []
            for doc in sorted(docs):
                flat.extend((doc, round(docs[doc] * idf, 1)))
            out[term] = flat
        return out


def _concept_texts(concept: dict[str, Any]) -> Iterable[str]:
    yield str(concept.get("english") or "")
    yield str(concept.get("concept") or "").replace("-", " ")
    yield str(concept.get("preferred") or "")
    yield str(concept.get("abbreviation") or "")
    yield from (str(a) for a in concept.get("aliases") or ())
    yield from (str(r.get("text") or "") for r in concept.get("renderings") or ())


def build_offline_index(
    nodes: list[dict[str, Any]],
    terms: list[dict[str, Any]],
    concepts: list[dict[str, Any]],
    faq: list[dict[str, Any]],
) -> dict[str, Any]:
    """The index object (see the module's docstring) from the build's JSON artefacts."""
    kept = [n for n in nodes if n.get("kind") != "source"]
    position = {n["id"]: i for i, n in enumerate(kept)}
    docs = [
        [
            n["id"],
            n.get("title_clean") or n.get("title") or "",
            n.get("edition") or "",
            position.get(n.get("parent_id") or "", -1),
            _summary(n.get("text_clean") or n.get("text") or ""),
        ]
        for n in kept
    ]
    postings = _Postings()
    for i, row in enumerate(docs):
        postings.add(i, row[1], W_TITLE)
        if row[4]:
            postings.add(i, row[4], W_SUMMARY)

    roles: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for item in concepts:
        for ref in item.get("nodes") or ():
            if ref.get("node_id") in position:
                roles[str(item.get("concept"))].append((position[ref["node_id"]], str(ref.get("role"))))
    concept_rows: list[list[str]] = []
    concept_postings = _Postings()
    for c_index, concept in enumerate(sorted(terms, key=lambda c: str(c.get("concept")))):
        cid = str(concept.get("concept") or "")
        concept_rows.append([cid, str(concept.get("english") or ""), str(concept.get("preferred") or "")])
        text = " ".join(dict.fromkeys(t for t in _concept_texts(concept) if t))
        concept_postings.add(c_index, text, 1.0)
        for doc, role in roles.get(cid, ()):
            if role == "defines":
                postings.add(doc, text, W_DEFINES)

    by_source_line: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for i, n in enumerate(kept):
        if n.get("kind") not in ("section", "chapter", "page", "toc", "credits", "preface"):
            by_source_line[n["source_id"]].append((n["lines"][0], n["lines"][1], i))
    faq_rows: list[list[Any]] = []
    faq_postings = _Postings()
    for f_index, entry in enumerate(faq):
        cited: list[int] = []
        for citation in entry.get("citations") or ():
            start, end = citation["lines"]
            for first, last, doc in by_source_line.get(str(citation.get("source")), ()):
                if first <= end and start <= last and doc not in cited:
                    cited.append(doc)
        faq_rows.append([entry.get("question", ""), entry.get("answer", ""), entry.get("edition") or "", cited])
        phrasings = " ".join([str(entry.get("question", "")), *(str(v) for v in entry.get("variants") or ())])
        faq_postings.add(f_index, phrasings, 1.0)
        for doc in cited:
            postings.add(doc, phrasings, W_FAQ)

    return {
        "schema": SCHEMA,
        "fold": {
            "endings": list(ENDINGS),
            "reflexive": list(REFLEXIVE),
            "min_stem": MIN_STEM,
            "en_irregular": dict(sorted(EN_IRREGULAR.items())),
            "en_suffixes": [list(s) for s in EN_SUFFIXES],
        },
        "docs": docs,
        "concepts": concept_rows,
        "faq": faq_rows,
        "postings": postings.compact(len(docs)),
        "concept_postings": concept_postings.compact(len(concept_rows)),
        "faq_postings": faq_postings.compact(len(faq_rows)),
    }


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [d for d in data if isinstance(d, dict)] if isinstance(data, list) else []


def stage_offline_index(ctx: BuildContext) -> None:
    """Build stage: write ``search-index.json`` from the artefacts the earlier stages wrote."""
    out: Path = ctx.out
    index = build_offline_index(
        _load(out / "nodes.json"), _load(out / "terms.json"), _load(out / "concepts.json"), _load(out / "faq.json")
    )
    data = json.dumps(index, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    (out / INDEX_FILE).write_text(data + "\n", encoding="utf-8")
    ctx.counts["offline_index_bytes"] = len(data.encode("utf-8"))
    ctx.counts["offline_index_terms"] = len(index["postings"])
