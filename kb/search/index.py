"""The Whoosh index of rule leaves: schema, Russian analyzer, the build stage, the read-only opener.

``rulekb build`` calls :func:`stage_index`, which writes ``build/index/``: a Whoosh index of
every rule leaf (rule, summary, list, example, table — never a table of contents, credits, a
preface or a page marker) and ``features.json`` beside it, the per-node data search needs at
query time without touching the texts again: breadcrumb, citation, sentences with their lemmas,
the concepts a node mentions and defines, the lemma vocabulary and the surface word list for
spelling correction, and each surface word's readings (:func:`rulekb.kb.search.readings.built_readings`).

Fields: ``id``, ``source_id``, ``edition``, ``kind`` (exact ids); ``title`` — the heading the
leaf sits under (boosted); ``path`` — the headings above it (lower boost); ``text`` — the
leaf's ``text_clean``; ``concepts`` / ``defines`` — concept ids; ``aliases`` — every rendering,
alias, English term and abbreviation of those concepts, so «overwatch», «овервотч» and «Огонь на
упреждение» reach the same rule; ``questions`` — the question and phrasings of every FAQ entry
that cites the leaf (``build/faq.json``), the ways players ask for it; ``page``, ``lines`` (stored).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.analysis import Token, Tokenizer
from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema

from rulekb.corpus.errors import IndexMissingError
from rulekb.corpus.models import RuleNode
from rulekb.kb.context import BuildContext
from rulekb.kb.faq.citations import entry_node_ids
from rulekb.kb.faq.loader import load_built_faq
from rulekb.kb.search.features import (
    GraphLinks,
    NodeFeatures,
    node_features,
    own_title,
    read_graph_links,
    searchable,
    split_sentences,
)
from rulekb.kb.search.query import ConceptMatcher, default_matcher, reading_links
from rulekb.kb.search.readings import built_readings
from rulekb.kb.store import build_stamp
from rulekb.kb.text.analysis import fold, tokens

__all__ = [
    "FEATURES_FILE",
    "FEATURES_SCHEMA",
    "INDEX_DIR",
    "GraphLinks",
    "NodeFeatures",
    "RussianTokenizer",
    "build_index",
    "faq_questions",
    "make_schema",
    "node_features",
    "open_whoosh",
    "own_title",
    "read_features",
    "read_graph_links",
    "split_sentences",
    "stage_index",
]


INDEX_DIR = "index"
FEATURES_FILE = "features.json"
#: Version of the index layout (fields and ``features.json``); 2 added the FAQ phrasings field.
FEATURES_SCHEMA = 2


class RussianTokenizer(Tokenizer):  # type: ignore[misc]
    """A Whoosh tokenizer over :func:`rulekb.kb.text.analysis.tokens`: lemmas, numbers and dice notation kept."""

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            token.original = token.text = value
            token.boost = 1.0
            if positions:
                token.pos = start_pos
            if chars:
                token.startchar, token.endchar = start_char, start_char + len(value)
            yield token
            return
        for term in tokens(value):
            token.text = term.text
            token.boost = 1.0
            token.stopped = False
            if keeporiginal:
                token.original = term.original
            if positions:
                token.pos = start_pos + term.position
            if chars:
                token.startchar = start_char + term.start
                token.endchar = start_char + term.end
            yield token


#: Field boost of the FAQ phrasings a leaf answers (a plateau from 0.6 to 1.6 on the development
#: questions; the lowest end keeps the leaf's own words first).
QUESTIONS_BOOST = 0.6


def make_schema() -> Schema:
    analyzer = RussianTokenizer()
    return Schema(
        id=ID(stored=True, unique=True),
        source_id=ID(stored=True),
        edition=ID(stored=True),
        kind=ID(stored=True),
        title=TEXT(analyzer=analyzer, field_boost=2.0, stored=True),
        path=TEXT(analyzer=analyzer, field_boost=0.7),
        text=TEXT(analyzer=analyzer),
        concepts=KEYWORD(stored=True, scorable=True),
        defines=KEYWORD(stored=True, scorable=True),
        aliases=TEXT(analyzer=analyzer, field_boost=0.5),
        questions=TEXT(analyzer=analyzer, field_boost=QUESTIONS_BOOST),
        page=NUMERIC(stored=True),
        lines=STORED(),
    )



def _alias_text(matcher: ConceptMatcher, concept_ids: Sequence[str]) -> str:
    phrases: list[str] = []
    for concept_id in concept_ids:
        concept = matcher.concepts.get(concept_id)
        if concept is not None:
            phrases.extend(dict.fromkeys(text for text, _, _ in concept.phrases))
    return " . ".join(phrases)


def build_index(
    out: Path,
    nodes: Sequence[RuleNode],
    sha256: dict[str, str],
    matcher: ConceptMatcher | None = None,
    graph: GraphLinks | None = None,
    questions: dict[str, str] | None = None,
) -> dict[str, int]:
    """Write the Whoosh index and ``features.json`` into ``out`` (a new directory); return counts.
    ``questions``: leaf id → the FAQ phrasings that cite it (see :func:`faq_questions`)."""
    questions = questions or {}
    matcher = matcher if matcher is not None else default_matcher()
    graph = graph if graph is not None else GraphLinks.empty()
    out.mkdir(parents=True, exist_ok=True)
    features = node_features(nodes, sha256, matcher, graph)
    ix = whoosh_index.create_in(str(out), make_schema())
    writer = ix.writer(procs=1, limitmb=64)
    vocabulary: Counter[str] = Counter()
    surface: Counter[str] = Counter()
    for f in features:
        related = list(dict.fromkeys([*f.defines, *f.concepts]))
        document: dict[str, Any] = {
            "id": f.id,
            "source_id": f.source_id,
            "edition": f.edition,
            "kind": f.kind,
            "title": f.heading,
            "path": " . ".join(f.breadcrumb[:-1]),
            "text": f.text,
            "concepts": " ".join(f.concepts),
            "defines": " ".join(f.defines),
            "aliases": _alias_text(matcher, related),
            "questions": questions.get(f.id, ""),
            "lines": list(f.lines),
        }
        if f.page is not None:
            document["page"] = f.page
        writer.add_document(**document)
        for text in (f.text, *f.breadcrumb):
            for term in tokens(text):
                vocabulary[term.text] += 1
                if term.original.isalpha():
                    surface[fold(term.original)] += 1
    writer.commit(optimize=True)
    # the defining leaves of each concept per edition: the linker's first, then the headings'
    concept_nodes: dict[str, dict[str, list[str]]] = {}
    for linked in (True, False):
        for f in features:
            for concept in f.defines:
                if (concept in graph.defines.get(f.id, ())) != linked:
                    continue
                concept_nodes.setdefault(concept, {}).setdefault(f.edition, []).append(f.id)
    data = {
        "schema": FEATURES_SCHEMA,
        "nodes": [f.to_json() for f in features],
        "concept_nodes": concept_nodes,
        "vocabulary": dict(sorted(vocabulary.items())),
        "surface": dict(sorted(surface.items())),
        "variants": {k: v for k, v in reading_links(surface).items() if k in vocabulary or set(v) & vocabulary.keys()},
        "readings": built_readings(surface),
    }
    (out / FEATURES_FILE).write_text(json.dumps(data, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return {
        "index_documents": len(features),
        "index_concepts_defined": len(concept_nodes),
        "index_vocabulary": len(vocabulary),
    }


def faq_questions(build_dir: Path, nodes: Sequence[RuleNode]) -> dict[str, str]:
    """Leaf id → the question and phrasings of every FAQ entry that cites it (``build/faq.json``,
    written by the ``faq`` stage): the ways players ask for a rule, searched beside its own words."""
    leaves = [node for node in nodes if searchable(node)]
    phrasings: dict[str, list[str]] = {}
    for entry in load_built_faq(build_dir):
        for node_id in entry_node_ids(entry, leaves):
            phrasings.setdefault(node_id, []).extend([entry.question, *entry.variants])
    return {node_id: " . ".join(texts) for node_id, texts in phrasings.items()}


def stage_index(ctx: BuildContext) -> None:
    """The ``index`` build stage: ``build/index/`` from the parsed corpus."""
    sha256 = {parsed.source.id: parsed.sha256 for parsed in ctx.corpus.sources}
    matcher = default_matcher()
    if not matcher:
        ctx.log("index: no termbase found; concepts and aliases are not indexed")
    graph = read_graph_links(ctx.out / "graph.json")
    counts = build_index(ctx.out / INDEX_DIR, ctx.nodes, sha256, matcher, graph, faq_questions(ctx.out, ctx.nodes))
    ctx.counts.update(counts)
    ctx.log(f"index: {counts['index_documents']} rule leaves, {counts['index_vocabulary']} lemmas")


def open_whoosh(build_dir: Path) -> Any:
    """Open ``build_dir/index`` read-only, or say how to build it."""
    path = build_dir / INDEX_DIR
    if not whoosh_index.exists_in(str(path)):
        raise IndexMissingError(f"No search index at {str(path)!r}: run `rulekb build` first.")
    return whoosh_index.open_dir(str(path), readonly=True)


def read_features(build_dir: Path) -> dict[str, Any]:
    path = build_dir / INDEX_DIR / FEATURES_FILE
    if not path.is_file():
        raise IndexMissingError(f"No search features at {str(path)!r}: run `rulekb build` first.")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("schema") != FEATURES_SCHEMA:
        raise IndexMissingError(
            f"The search index at {str(path.parent)!r} has schema {data.get('schema')!r}, this rulekb reads "
            f"{FEATURES_SCHEMA}: run `rulekb build` again."
        )
    return data


def process_key(build_dir: Path) -> tuple[int, str, int]:
    """A cache key for per-process objects over one build: pid and the build's stamp
    (:func:`rulekb.kb.knowledge.build_stamp`: the resolved directory and its manifest's mtime)."""
    directory, stamp = build_stamp(build_dir)
    return (os.getpid(), str(directory), stamp)
