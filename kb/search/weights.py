"""The ranking weights of search (tuned on tests/data/dev.jsonl only; see docs/search.md).

BM25F parameters for :mod:`rulekb.kb.search.knowledge_index` and the reranker's feature weights for
:mod:`rulekb.kb.search.ranking`, in one place so a tuning run changes one file.
"""

from __future__ import annotations

#: How many Whoosh hits the Python reranker looks at.
RERANK_DEPTH = 60

#: BM25 parameters: length normalisation (per field where it differs) and term saturation.
BM25_B = 0.5
BM25_K1 = 1.0
FIELD_B = {"title": 0.6, "path": 0.6, "aliases": 0.9, "questions": 0.9}
#: Score a term in the heading, path and aliases with its IDF over the text (true BM25F).
IDF_FROM_TEXT = True
#: A concept named in at most this many leaves has full weight.
CONCEPT_FULL_WEIGHT_AT = 6
W_DEFINES = 0.4
#: A concept named by ambiguous words (one of k concepts of the same words) weighs share ** this.
CONCEPT_SHARE_POWER = 1.0
W_MENTIONS = 0.12
W_HEADING = 0.9
W_EDITION = 1.0
W_EDITION_NEAR = 0.3
W_NUMBERS = 0.25
W_FIRST = 0.08
#: Share of the question's words the leaf (or its headings, or concepts) carries, and the best
#: share held by one sentence: words that meet in one sentence answer together.
W_COVER = 1.0
W_SENTENCE = 1.25
#: With no edition named, another edition's best leaf scoring at least this share of the first
#: hit's score is moved up to second place (0 switches this off).
DIVERSIFY = 0.7
KIND_FACTOR = {"rule": 1.0, "summary": 0.97, "list": 0.95, "table": 0.9, "example": 0.8}
FIELDS = (("title", 1.0), ("path", 1.0), ("text", 1.0), ("aliases", 1.0), ("questions", 1.0))
EXPANSION_FIELDS = (("title", 1.0), ("text", 1.0))
#: Under one heading, each leaf after the first :data:`SECTION_LEADS` of it in the ranking scores this
#: much less again (× factor per leaf already shown): one section's details make way for another
#: section's rule in the top passages a card reads (1 switches this off).
SECTION_REPEAT = 0.7
SECTION_LEADS = 2
#: A leaf defining a concept at least this specific (:meth:`KnowledgeIndex.concept_weight`), or whose
#: headings print one of its renderings (or its own heading is a part of one), carries the question's
#: words naming the concept in each of its sentences, for the one-sentence share (2 switches this off)…
IMPLIED_SPECIFICITY = 0.8
#: …at this share of their weight in a sentence that does not print them (flat from 0.6 to 0.67 on the
#: six development sets; 0.5 and 0.75 each lose a row, see docs/search.md).
IMPLIED_WEIGHT = 0.6
