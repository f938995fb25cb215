"""One edition's part of a card: the FAQ entry that passes the gate, else the sentence that rules,
chosen across the edition's top passages, with its lead («Да», «Нет», the measure) and citation."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rulekb.kb.ask.card_english import (
    build_english,
    english_groups,
    english_line,
    english_weights,
    number_lead,
)
from rulekb.kb.ask.card_faq import english_answer_weights, faq_gate, faq_part
from rulekb.kb.ask.card_measures import distance_lead, rule_text
from rulekb.kb.ask.card_verdict import VERDICT_HITS, with_verdict_sentence
from rulekb.kb.ask.form import second_form
from rulekb.kb.ask.labels import question_lang
from rulekb.kb.ask.part import MAX_QUOTE, Part, marked_sentences
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.choice import MAX_TEXT, SHORT_PASSAGE, carried, choose, with_lists
from rulekb.kb.text.context import heading_lemmas
from rulekb.kb.text.sentences import NON_RULING
from rulekb.kb.text.verdicts import only_one_denies, question_situation, yes_no_lead

__all__ = ["MAX_QUOTE", "Part", "announced_list", "condition_terms", "english_answer_weights", "faq_gate", "list_lead", "marked_sentences", "procedure_continuation", "ruling_part", "with_list"]


def announced_list(index: Any, marked: dict[str, Any], node_id: str) -> Any:
    """The leaf after ``node_id`` when the passage ends announcing a list («…следующих условий:») and
    that leaf is the list («• …»): the parser cuts a rule's bullets into a leaf of their own, so the
    conditions or effects a passage announces are printed in the next leaf. ``None`` otherwise."""
    features = index.features.get(node_id)
    position = index.order.get(node_id) if features is not None else None
    if features is None or position is None:
        return None
    sentences = marked_sentences(marked, features)
    ruling = [s for s in sentences if s.mark not in NON_RULING]
    if not ruling or not ruling[-1].text.rstrip().endswith(":"):
        return None
    following = _leaf_at(index, position + 1)
    if (following is None or following.source_id != features.source_id
            or following.lines[0] > features.lines[1] + LIST_GAP or not following.text.lstrip().startswith(_BULLETS)):
        return None
    return following


#: The announced list starts at most this many lines after the passage (a blank line between).
LIST_GAP = 3
_BULLETS = ("•", "-", "–", "—")


def _leaf_at(index: Any, position: int) -> Any:
    order: list[str] = index.ordered
    return index.features[order[position]] if 0 <= position < len(order) else None


#: A sentence announcing a list it does not end on («… за каждое из следующих условий, общих для
#: обоих сторон …»).
_ANNOUNCES = re.compile(r"\bследующ\w+\s+(?:услови|причин|случа|пункт|требовани|правил)", re.I)
#: The list a passage announces starts at most this many lines after it, a heading between («-
#: Ваша модель перешла в Наступление.» under «МОДИФИКАТОРЫ РЕЗУЛЬТАТА БОЯ»).
LEAD_GAP = 10


def list_lead(index: Any, marked: dict[str, Any], node_id: str) -> Any:
    """The leaf before ``node_id`` when ``node_id`` is a list («- …», «• …») and that leaf announces
    it — ends with «:» or names «следующих условий» —, within :data:`LEAD_GAP` lines: a list alone
    does not say what its items are cases of. ``None`` otherwise."""
    features = index.features.get(node_id)
    position = index.order.get(node_id) if features is not None else None
    if features is None or position is None or not features.text.lstrip().startswith(_BULLETS):
        return None
    before = _leaf_at(index, position - 1)
    if before is None or before.source_id != features.source_id or before.lines[1] + LEAD_GAP < features.lines[0]:
        return None
    if before.text.lstrip().startswith(_BULLETS):
        return None  # a list before a list: the summary boxes of the 10th edition
    ruling = [s for s in marked_sentences(marked, before) if s.mark not in NON_RULING]
    if not ruling or not (ruling[-1].text.rstrip().endswith(":") or any(_ANNOUNCES.search(s.text) for s in ruling)):
        return None
    return before


def with_list(index: Any, marked: dict[str, Any], node_id: str) -> tuple[Any, Any]:
    """A passage's sentences, followed by the list it announces (see :func:`announced_list`), and
    that list's leaf (``None`` when there is none); a list's sentences after the passage announcing
    it (:func:`list_lead`), and that passage's leaf."""
    sentences = tuple(marked_sentences(marked, index.features[node_id]))
    lead = list_lead(index, marked, node_id)
    if lead is not None:
        return tuple(marked_sentences(marked, lead)) + sentences, lead
    following = announced_list(index, marked, node_id)
    if following is None:
        return sentences, None
    return sentences + tuple(marked_sentences(marked, following)), following


def ruling_part(
    index: Any, marked: dict[str, Any], parsed: Any, question: str, edition: str, hits: Sequence[Any],
    weights: dict[str, float], numbers: set[str], form: str, lang: str, use_faq: bool, gates: list[Any],
    matches: Sequence[tuple[Any, float]] = (),
) -> Part | None:
    groups = None
    english = build_english(index.build_dir) if lang == "en" else None  # the verdict's English predicate
    if lang == "en":  # the Russian words an English question stands for, weighed as one word each
        weights = english_weights(index, parsed, weights)
        groups = english_groups(index, parsed)
    top_ids = [h.node_id for h in hits]
    gate = faq_gate(index, question, edition, top_ids, gates, matches) if use_faq else None
    if gate is not None:
        return faq_part(index, gate, marked, parsed, question, edition, top_ids, weights, numbers, form, lang,
                        groups, english)
    extended = {h.node_id: with_list(index, marked, h.node_id) for h in hits[:3]}
    candidates = [(h.node_id, h.kind, extended[h.node_id][0]) for h in hits[:3]]
    conditions = condition_terms(index, parsed, question) if form == "yesno" else {}
    headings = {h.node_id: heading_lemmas(index.features[h.node_id].heading) for h in hits[:3]}
    asked = asked_weights(index, parsed, question, weights) if form in ASKED_FORMS else None
    choice = choose(candidates, weights, numbers, form, groups, second_form(question, form), conditions, headings,
                    asked)
    if choice is None:
        return None
    choice = with_paragraph(index.features[choice.node_id].text, extended[choice.node_id][0], choice)
    node = index.features[choice.node_id]
    lines = list(node.lines)
    following = extended[choice.node_id][1]
    if following is not None and any(s.text in choice.text for s in marked_sentences(marked, following)):
        # the list it announced is quoted too, or the passage announcing the list
        lines = [min(lines[0], following.lines[0]), max(lines[1], following.lines[1])]
    citations = [{"source_id": node.source_id, "lines": lines, "quote": choice.text}]
    if form == "procedure":
        for leaf, added in procedure_continuation(index, marked, node.id, choice.text):
            citations.append({"source_id": leaf.source_id, "lines": list(leaf.lines), "quote": added})
            choice = replace(choice, text=f"{choice.text} {added}")
    summary = section_summary(index, marked, choice, weights, groups)
    if summary is not None:  # the section's «•» summary of the rule, cited with its own lines
        leaf, items = summary
        citations.append({"source_id": leaf.source_id, "lines": list(leaf.lines), "quote": " ".join(items)})
        choice = replace(choice, text=f"{choice.text} {' '.join(items)}")
    read = [(f, marked_sentences(marked, f)) for f in (index.features[h.node_id] for h in hits[:VERDICT_HITS])]
    synonyms = index.synonyms.groups  # the build's synonym groups: the player's verb stated by the book's
    choice = with_verdict_sentence(question, form, lang, english, choice, weights, read, groups, citations, synonyms)
    lead = yes_no_lead(choice.text, lang, weights, question, english, conditions or None, synonyms) if form == "yesno" else None
    if form == "yesno" and only_one_denies(question, choice.text):
        lead = "No." if lang == "en" else "Нет."  # «двух лидеров?» — «только один лидер»
    if form == "number" and lang != "en":
        measure = number_lead(choice.text, question, rule_text(index, choice.node_id))
        lead = f"{measure}." if measure else None
    elif form in ("procedure", "lookup") and lang != "en":
        measure = distance_lead(choice.text, rule_text(index, choice.node_id), question)
        lead = f"{measure}." if measure else None
    shown = choice.text
    if choice.runner and choice.runner_node is not None and choice.runner not in shown:
        # the runner-up passage's ruling, after the lead read off the chosen text (it changes no verdict)
        runner = index.features[choice.runner_node]
        citations.append({"source_id": runner.source_id, "lines": list(runner.lines), "quote": choice.runner})
        shown = f"{shown} {choice.runner}"
    if lang == "en":
        concepts = [c for c in parsed.concepts if c in node.concepts or c in node.defines] or list(parsed.concepts)
        text = english_line(index.build_dir, edition, concepts, choice.text, lead, rule_text(index, choice.node_id)) + "\n" + shown
    else:
        text = (f"{lead} " if lead else "") + shown
    return Part(edition, text, node.id, lines, "text", citations)


#: A procedure's card reads on into at most this many following leaves of the chosen passage's section …
CONTINUING_LEAVES = 2
#: … while the card's text stays within this many characters.
PROCEDURE_TEXT = MAX_TEXT * 2


def procedure_continuation(index: Any, marked: dict[str, Any], node_id: str, shown: str) -> list[tuple[Any, str]]:
    """The leaves that continue a procedure after the chosen passage, each with the ruling sentences
    the card does not show yet: the next leaves of the same section or of its subsections (the steps
    a passage numbers, printed under their own headings), in document order (an example between is
    passed over), at most :data:`CONTINUING_LEAVES` of them and whole sentences only while
    the card stays within :data:`PROCEDURE_TEXT` — a procedure's steps run on past one leaf («Если у
    вас имеется более шести результатов …» after the rule for fewer than six; the damage after the
    order of choosing a model). Empty when the passage is its section's last leaf."""
    features = index.features.get(node_id)
    position = index.order.get(node_id) if features is not None else None
    if features is None or position is None:
        return []
    section = node_id.rsplit("/", 1)[0]
    length = len(shown)
    out: list[tuple[Any, str]] = []
    step = 1
    while len(out) < CONTINUING_LEAVES:
        leaf = _leaf_at(index, position + step)
        step += 1
        within = leaf is not None and (leaf.id.rsplit("/", 1)[0] == section or leaf.id.startswith(section + "/"))
        if leaf is None or not within or leaf.source_id != features.source_id:
            break
        if leaf.kind == "example":
            continue
        unshown = [x.text for x in marked_sentences(marked, leaf) if x.mark not in NON_RULING and x.text not in shown]
        if not unshown:
            continue  # the list the passage announced, shown with it already
        added: list[str] = []
        for sentence in unshown:
            if length + len(sentence) + 1 > PROCEDURE_TEXT:
                break
            added.append(sentence)
            length += len(sentence) + 1
        if not added:
            break
        out.append((leaf, " ".join(added)))
    return out


#: A section's «•» summary item joins the card when it carries this share of what the chosen
#: sentence carries …
SUMMARY_SHARE = 0.5
#: … at most this many of its items.
SUMMARY_ITEMS = 2


def section_summary(index: Any, marked: dict[str, Any], choice: Any, weights: dict[str, float],
                    groups: Any = None) -> tuple[Any, list[str]] | None:
    """The leaf of the «•» summary the 10th edition prints under the chosen passage's section and its
    items carrying the question's words (at most :data:`SUMMARY_ITEMS`, each carrying at least
    :data:`SUMMARY_SHARE` of what the chosen sentence carries), when the card does not show them yet:
    the summary states the rule in its shortest form («• Бросок на атаку: 2D6″»). ``None`` otherwise."""
    node = index.features.get(choice.node_id)
    if node is None or node.kind == "summary":
        return None
    best_lemmas = next((x.lemmas for x in marked_sentences(marked, node) if x.text == choice.best), None)
    best = carried(best_lemmas if best_lemmas is not None else tokens_of(choice.best), weights, groups)
    if best <= 0:
        return None
    section = choice.node_id.rsplit("/", 1)[0]
    for leaf_id in _summaries(index).get(section, ()):
        if leaf_id == choice.node_id:
            continue
        leaf = index.features[leaf_id]
        scored = sorted(((carried(x.lemmas, weights, groups), -k, x.text)
                         for k, x in enumerate(marked_sentences(marked, leaf))
                         if x.mark not in NON_RULING and x.text not in choice.text), reverse=True)
        items = [text for score, _k, text in scored[:SUMMARY_ITEMS] if score >= SUMMARY_SHARE * best]
        if items and len(choice.text) + sum(len(t) for t in items) <= MAX_TEXT * 3 // 2:
            return leaf, items
    return None


_SUMMARIES: list[tuple[Any, dict[str, list[str]]]] = []


def _summaries(index: Any) -> dict[str, list[str]]:
    """Section id → the ids of its summary leaves, kept per index."""
    for features, kept in _SUMMARIES:
        if features is index.features:
            return kept
    table: dict[str, list[str]] = {}
    for node_id, features in index.features.items():
        if features.kind == "summary":
            table.setdefault(node_id.rsplit("/", 1)[0], []).append(node_id)
    _SUMMARIES[:] = [*_SUMMARIES[-3:], (index.features, table)]
    return table


def tokens_of(sentence: str) -> list[str]:
    """The lemmas of ``sentence``."""
    return [t.text for t in tokens(sentence)]


def condition_terms(index: Any, parsed: Any, question: str) -> dict[str, str]:
    """The terms standing for the question's situation and conditions (:func:`question_situation`),
    each mapped to the condition word it stands for: the word's lemma and alternatives, and — for a
    word the texts never print («фолбэк») — the printed renderings of the concept it names
    («отступить», «отступление»), so a ruling's sentence in the texts' own words carries it."""
    if question_lang(question) == "en":  # the words of the sentences told before the asking one
        told = re.split(r"(?<=[.!?])\s+", question.strip())
        situation = {w.lower() for w in re.findall(r"[\w']+", " ".join(told[:-1]))} - {
            w.lower() for w in re.findall(r"[\w']+", told[-1])}
        conditions = {w.lemma for w in parsed.words if w.original.lower() in situation}
    else:
        conditions = set(question_situation(question))
    out: dict[str, str] = {c: c for c in conditions}
    for word in parsed.words:
        if word.lemma not in conditions or word.light:
            continue
        for term in word.alternatives:
            out.setdefault(term, word.lemma)
        if word.concept and word.lemma not in index.vocabulary:
            for term in index.matcher.rendering_lemmas(word.concept):
                out.setdefault(term, word.lemma)
    return out


#: Forms whose sentence is chosen by what the asking clause asks (:func:`asked_weights`).
ASKED_FORMS = ("procedure", "lookup")
#: A term standing only for the situation a question tells (its set-up, its conditions) weighs this
#: share of its weight when the card chooses the sentence of a procedure or lookup question.
SETUP_WEIGHT = 0.5


def asked_weights(index: Any, parsed: Any, question: str, weights: dict[str, float]) -> dict[str, float]:
    """``weights`` with the terms that stand only for the question's set-up — the situation told before
    the asking sentence and the conditions of it (:func:`condition_terms`) — weighing
    :data:`SETUP_WEIGHT` of theirs: «Мы выиграли рукопашку, враг провалил мораль и бежит. Как
    отыгрывается стремительное продвижение?» asks how the sweeping advance is played, and the sentence
    about the lost morale test and the won combat («После того как проигравшие подразделения провалили
    тесты на Мораль, каждое выигравшее подразделение …») is its set-up's, not its ruling. A term the
    asking clause also stands for keeps its weight."""
    setup = condition_terms(index, parsed, question)
    if not setup:
        return weights
    asked = {t for word in parsed.words if word.lemma not in setup.values() for t in (word.lemma, *word.alternatives)}
    return {t: w * SETUP_WEIGHT if t in setup and t not in asked else w for t, w in weights.items()}


def with_paragraph(text: str, sentences: Sequence[Any], choice: Any) -> Any:
    """``choice`` with the rest of the paragraph its best sentence is in, when the passage was too long
    to show whole but that paragraph is short (at most :data:`SHORT_PASSAGE`): a rule's paragraph
    read whole («Для этого киньте D6. При броске 3 и меньше, попытка провалилась. На 4+, попытка
    успешна…»), not only the sentences the question's words picked. What the choice took from other
    passages stays after it. A paragraph ending on the sentence that announces a list («…выполнить
    следующую последовательность действий:») brings the list's items (:func:`with_lists`): the steps
    it announces are the procedure."""
    paragraph = next((p for p in text.split("\n") if choice.best and choice.best in p), None)
    if paragraph is None or len(paragraph) > SHORT_PASSAGE or choice.text.endswith("…"):
        return choice
    ruling = [s.text for s in sentences if s.mark not in NON_RULING]
    picked = [j for j, s in enumerate(sentences) if s.mark not in NON_RULING and (s.text in choice.text or s.text in paragraph)]
    shown = [sentences[j].text for j in sorted(with_lists(sentences, picked)) if sentences[j].mark not in NON_RULING]
    if len(set(shown)) < len(shown):
        return choice  # a passage repeating a sentence word for word: its text cannot place the paragraph
    rest = choice.text
    for sentence in ruling:
        rest = rest.replace(sentence, " ")
    joined = " ".join([*shown, *rest.split()]) if rest.strip() else " ".join(shown)
    if len(joined) <= len(choice.text) or len(joined) > MAX_TEXT * 3 // 2:
        return choice
    return replace(choice, text=joined)
