"""A comparison part reads the compared mechanic's own passages second and third (``compared_passages``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rulekb.kb.ask.card_editions import MECHANIC_MIN_WEIGHT, _mechanic, compared_passages
from rulekb.kb.ask.card_terms import records
from rulekb.kb.search.searcher import get_index


def _hit(node_id: str) -> Any:
    return SimpleNamespace(node_id=node_id, kind="rule", edition="10", score=1.0)


def _defined(index: Any, edition: str = "10", least: int = 3) -> tuple[str, list[str]]:
    """A specific concept the edition's books define in ``least`` passages or more, with an English name."""
    known = records(index.build_dir)
    for concept, by_edition in sorted(index.concept_nodes.items()):
        nodes = [n for n in by_edition.get(edition, []) if n in index.features]
        if len(nodes) >= least and index.concept_weight(concept) >= MECHANIC_MIN_WEIGHT and known.get(concept, {}).get("english"):
            return concept, nodes
    raise AssertionError("no concept defined in several passages")


def test_the_mechanic_s_ranked_definitions_follow_the_part_s_lead(built: Path) -> None:
    index = get_index(built)
    concept, nodes = _defined(index)
    others = [n for n, f in index.features.items() if f.edition == "10" and n not in nodes
              and concept not in f.defines][:4]
    parsed = SimpleNamespace(concepts=[concept], concept_share={})
    question = str(records(built)[concept]["english"])
    hits = [_hit(n) for n in others]
    read = compared_passages(index, parsed, question, "10", hits)
    ids = [h.node_id for h in read]
    assert ids[0] == others[0]  # the part's lead stays first
    assert ids[1] in nodes  # then a definition of the mechanic the edition's own ranking holds
    follows = [i for i, n in enumerate(ids) if n in nodes]
    assert follows == list(range(1, len(follows) + 1))  # every ranked definition before the other passages
    assert set(others) <= set(ids)  # nothing the card read is dropped
    assert len(ids) == len(set(ids))


def test_a_concept_named_plainly_is_the_mechanic_before_an_ambiguous_one(built: Path) -> None:
    index = get_index(built)
    shared = None
    for concept, by_edition in index.concept_nodes.items():
        for other, other_by in index.concept_nodes.items():
            if other <= concept:
                continue
            both = set(by_edition.get("10", [])) & set(other_by.get("10", []))
            if both and min(index.concept_weight(concept), index.concept_weight(other)) >= MECHANIC_MIN_WEIGHT:
                shared = (concept, other, sorted(both)[0])
                break
        if shared:
            break
    assert shared is not None
    a, b, node = shared
    ranked = [_hit(node)]
    for plain, ambiguous in ((a, b), (b, a)):
        parsed = SimpleNamespace(concepts=[a, b], concept_share={ambiguous: 0.5})
        assert _mechanic(index, parsed, "10", ranked) == set(index.concept_nodes[plain]["10"])
    # a concept below the floor is never the mechanic: none of the question's passages defines one
    general = min((c for c, e in index.concept_nodes.items() if e.get("10")), key=index.concept_weight)
    assert index.concept_weight(general) < MECHANIC_MIN_WEIGHT
    parsed = SimpleNamespace(concepts=[general], concept_share={})
    defining = index.concept_nodes[general]["10"][:1]
    assert defining
    assert _mechanic(index, parsed, "10", [_hit(n) for n in defining]) == set()
