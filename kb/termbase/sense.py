"""Occurrences by sense: which concept a string that renders several concepts means where it stands.

One Russian string may render several concepts in one book («досягаемость» is Engagement
Range, weapon range and objective range in the 10th-edition text; «атака» is an attack and a
charge). Each occurrence of such a string is assigned to one concept from its context, in this
order, the first step that leaves a single candidate deciding:

1. **cues** — words the termbase lists for a rendering (``cues = ["объявить", …]`` on a
   ``[[concept.rendering]]``), found by lemma in the same sentence (at most
   :data:`CUE_WINDOW` characters either side): «объявить атаку» is a charge. The candidate
   whose cues have the most words wins (a two-word cue such as «фаза атаки» says more than
   «совершать»), then the one whose cue stands nearer;
2. **heading** — the headings the occurrence sits under, nearest first: a heading that names a
   candidate, or a concept the candidate is related to, without naming the others («Зона
   поражения» → Engagement Range);
3. **rule** — the other concepts the same passage names unambiguously: the candidate related to
   most of them;
4. **default** — the rendering marked ``default = true`` among the candidates (else the first
   in termbase order).

The decision and its evidence (``cue «объявить»``, ``heading «ФАЗА РЫВКА»``, ``rule: …``, ``default``) travel with the occurrence, so KWIC shows why a line counts where it
counts.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from rulekb.corpus.words import is_caps
from rulekb.kb.termbase.model import Termbase
from rulekb.kb.text.matcher import Match, Matcher, Pattern

__all__ = ["CUE_WINDOW", "Assigned", "SenseResolver"]

#: How far (characters) either side of an occurrence a cue may stand, within its sentence.
CUE_WINDOW = 45
_SENTENCE_END = re.compile(r"[.!?;:•]\s*(?=\S)")


@dataclass(frozen=True)
class Assigned:
    """One occurrence with the concept it was assigned to."""

    match: Match
    candidates: tuple[str, ...]
    """Every concept the string renders here (one when it is not shared)."""
    evidence: str
    """Why this concept: ``""`` when there was no choice, else ``cue «…»``, ``heading «…»``,
    ``rule «…»`` or ``default``."""

    @property
    def concept_id(self) -> str:
        return self.match.concept_id


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the sentence around ``start``–``end``, at most CUE_WINDOW either side."""
    left = max(0, start - CUE_WINDOW)
    right = min(len(text), end + CUE_WINDOW)
    for found in _SENTENCE_END.finditer(text, left, start):
        left = found.end()
    stop = _SENTENCE_END.search(text, end, right)
    if stop:
        right = stop.start() + 1
    return left, right


class SenseResolver:
    """Assigns each match of a source's renderings to one concept (see the module docstring)."""

    def __init__(self, termbase: Termbase, source_id: str | Sequence[str] | None):
        """``source_id``: one source, several (a draft checked against one edition's books), or
        ``None`` for every source's renderings."""
        self.termbase = termbase
        self.source_id = source_id
        if source_id is None:
            wanted = {r.source for c in termbase for r in c.rendering}
        else:
            wanted = {source_id} if isinstance(source_id, str) else set(source_id)
        self._renderings = [(c, r) for c in termbase for r in c.rendering if r.source in wanted]
        self._order = {c.id: n for n, c in enumerate(termbase)}
        self._related = defaultdict(frozenset, termbase.related_both_ways())
        self._defaults = {(c.id, r.text) for c, r in self._renderings if r.default}

    @cached_property
    def matcher(self) -> Matcher:
        """The source's renderings, for headings (all of them)."""
        return Matcher(Pattern(c.id, r.text, "rendering", r.source, r.status.value) for c, r in self._renderings)

    @cached_property
    def passage_matcher(self) -> Matcher:
        """The source's renderings, for passages: without those printed only as headings."""
        return Matcher(Pattern(c.id, r.text, "rendering", r.source, r.status.value) for c, r in self._renderings if not r.heading)

    @cached_property
    def _cues(self) -> dict[tuple[str, str], Matcher]:
        cues: dict[tuple[str, str], list[str]] = defaultdict(list)
        for c, r in self._renderings:
            cues[(c.id, r.text)].extend(cue for cue in r.cues if cue not in cues[(c.id, r.text)])
        return {key: Matcher(Pattern(key[0], cue, "cue") for cue in words) for key, words in cues.items() if words}

    def find(self, text: str, headings: Sequence[str] = (), *, offset: int = 0, heading: bool = False) -> list[Assigned]:
        """Every occurrence of the source's renderings in ``text`` (one block: a heading when
        ``heading``, else a passage), each assigned to one concept; ``headings`` are the titles
        the block sits under, nearest first. Spans are shifted by ``offset``."""
        matcher = self.matcher if heading else self.passage_matcher
        return self.resolve(matcher.find(text), text, headings, offset=offset)

    def resolve(self, found: Sequence[Match], text: str, headings: Sequence[str] = (), *, offset: int = 0) -> list[Assigned]:
        """Assign the matches ``found`` in ``text`` (see :meth:`find`)."""
        spans: dict[tuple[int, int], list[Match]] = defaultdict(list)
        # A keyword form in capitals and the same word in ordinary case both match capitals:
        # one match per concept and span, the keyword form first.
        for m in sorted(found, key=lambda m: (m.start, -m.end, not is_caps(m.pattern.text))):
            if all(o.concept_id != m.concept_id for o in spans[(m.start, m.end)]):
                spans[(m.start, m.end)].append(m)
        plain = {ms[0].concept_id for ms in spans.values() if len(ms) == 1}
        out: list[Assigned] = []
        title_concepts: list[tuple[str, set[str]]] | None = None
        for (start, end), matches in sorted(spans.items()):
            candidates = tuple(m.concept_id for m in matches)
            if len(matches) == 1:
                chosen, evidence = matches[0], ""
            else:
                if title_concepts is None:
                    title_concepts = [(title, self._unambiguous(title)) for title in headings]
                chosen, evidence = self._choose(matches, text, start, end, title_concepts, plain)
            shifted = Match(chosen.concept_id, chosen.pattern, chosen.start + offset, chosen.end + offset, chosen.text, chosen.fuzzy)
            out.append(Assigned(shifted, candidates, evidence))
        return out

    def _unambiguous(self, title: str) -> set[str]:
        by_span: dict[tuple[int, int], set[str]] = defaultdict(set)
        for m in self.matcher.find(title):
            by_span[(m.start, m.end)].add(m.concept_id)
        return {next(iter(ids)) for ids in by_span.values() if len(ids) == 1}

    def _choose(
        self,
        matches: list[Match],
        text: str,
        start: int,
        end: int,
        titles: list[tuple[str, set[str]]],
        plain: set[str],
    ) -> tuple[Match, str]:
        # 1. cues in the sentence
        left, right = _sentence(text, start, end)
        window = text[left:right]
        hits: dict[int, list[Match]] = {}
        for n, m in enumerate(matches):
            cue_matcher = self._cues.get((m.concept_id, m.pattern.text))
            if cue_matcher is None:
                continue
            found = [c for c in cue_matcher.find(window) if not (left + c.start < end and start < left + c.end)]
            if found:
                hits[n] = found
        if hits:
            # a longer cue says more («фаза атаки» over «совершать»); then the nearer one
            def weight(n: int) -> tuple[int, int]:
                words = sum(len(c.pattern.text.split()) for c in hits[n])
                near = min(abs(left + c.start - start) if left + c.start >= end else start - (left + c.end) for c in hits[n])
                return (words, -near)

            ranked = sorted(hits, key=weight, reverse=True)
            if len(ranked) == 1 or weight(ranked[0]) != weight(ranked[1]):
                top = ranked[0]
                cue = min(hits[top], key=lambda c: abs(left + c.start - start))
                return matches[top], f"cue «{' '.join(cue.text.split())}»"
        # 2. headings, nearest first
        for title, named in titles:
            direct = [n for n, m in enumerate(matches) if m.concept_id in named]
            if len(direct) == 1:
                return matches[direct[0]], f"heading «{' '.join(title.split())}»"
            near = [n for n, m in enumerate(matches) if self._related[m.concept_id] & named]
            if len(near) == 1 and not direct:
                return matches[near[0]], f"heading «{' '.join(title.split())}»"
        # 3. the other concepts the passage names
        others = plain - {m.concept_id for m in matches}
        scores = [len(self._related[m.concept_id] & others) for m in matches]
        if max(scores) > 0 and scores.count(max(scores)) == 1:
            n = scores.index(max(scores))
            shown = sorted(self._related[matches[n].concept_id] & others)
            return matches[n], "rule: " + ", ".join(shown[:3])
        # 4. the default sense
        for m in matches:
            if (m.concept_id, m.pattern.text) in self._defaults:
                return m, "default"
        return min(matches, key=lambda m: self._order.get(m.concept_id, 0)), "default"
