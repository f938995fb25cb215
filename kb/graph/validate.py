"""Link validation: what ``rulekb check`` lists and what fails ``rulekb build --strict``.

One line per problem: ``file:line: severity: message``. Two severities:

* **error** — data we keep is wrong, so a person must fix it: a curated definition or reference
  in ``kb/data/defines.toml`` that does not resolve or whose quote is not in its lines, a
  mechanic or example naming an unknown concept or rule id (a dangling link), a rendering in
  ``kb/data/terms.toml`` that does not occur in its source, a reference to a page the book
  itself covers that finds no node. ``--strict`` turns these into a failed build
  (:class:`rulekb.corpus.errors.LinkError`).
* **warning** — a fact about the texts that nobody can fix: a reference to a page outside the
  corpus or in a book without page markers («см. стр. 90» in the 6th-edition texts), to an
  illustration, or to a section the text does not contain; a concept no source defines.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulekb.corpus.models import RuleNode
from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.examples.model import load_examples
from rulekb.kb.graph.curation import LinkIssue, link_examples
from rulekb.kb.graph.linker import Links, link
from rulekb.kb.graph.references import Reference
from rulekb.kb.graph.resolve import page_span
from rulekb.kb.termbase.model import Termbase, project_termbase
from rulekb.kb.termbase.occurrences import rendering_stats

__all__ = ["link_issues", "validate"]


def _terms_lines(termbase: Termbase) -> tuple[str, dict[str, int]]:
    """The termbase file and the line where each concept's entry starts (read once)."""
    path = termbase.path
    if path is None or not path.is_file():
        return ("kb/data/terms.toml", {})
    starts: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        compact = line.strip().replace(" ", "")
        if compact.startswith('id="') and compact.endswith('"'):
            starts.setdefault(compact[4:-1], number)
    return (_short(str(path)), starts)


def _short(path: str) -> str:
    marker = "/kb/"
    return "kb/" + path.split(marker, 1)[1] if marker in path else path


def _reference_issue(ref: Reference, files: dict[str, str], pages: dict[str, list[int]]) -> LinkIssue | None:
    if ref.resolved:
        return None
    own = pages.get(ref.source_id, [])
    inside = ref.kind in ("page", "facing-page") and ref.page is not None and ref.page in own
    return LinkIssue(
        "error" if inside else "warning",
        files.get(ref.source_id, ref.source_id),
        ref.line,
        f"reference «{ref.text}» unresolved: {ref.reason}",
        "unresolved-reference",
    )


def link_issues(
    corpus: ParsedCorpus,
    links: Links,
    termbase: Termbase,
    stats: dict[tuple[str, str, str], list[int]],
    extra: Sequence[LinkIssue] = (),
) -> list[LinkIssue]:
    """Every link problem: the linker's own, unresolved references, dangling ids, concepts with
    no defining rule and renderings not found in their source; errors first, then by file/line."""
    nodes: list[RuleNode] = corpus.nodes
    known = {n.id for n in nodes}
    files = {p.source.id: f"corpus/sources/{p.source.file}" for p in corpus.sources}
    pages = {p.source.id: page_span(p.nodes) for p in corpus.sources}
    issues = list(links.issues) + list(extra)
    for ref in links.references:
        issue = _reference_issue(ref, files, pages)
        if issue is not None:
            issues.append(issue)
        for target in ref.targets:
            if target not in known:
                issues.append(
                    LinkIssue("error", files.get(ref.source_id, ref.source_id), ref.line, f"reference «{ref.text}» points at unknown node {target!r}", "dangling")
                )
    defined = {d.concept_id for d in links.definitions}
    mechanic_defined = {links.mechanics.get(c, c) for c in defined}
    file, starts = _terms_lines(termbase)
    for concept in termbase:
        line = starts.get(concept.id, 1)
        if concept.id not in defined:
            counterpart = links.mechanics.get(concept.id, concept.id) in mechanic_defined
            note = " (its mechanic is defined under another concept)" if counterpart else ""
            issues.append(LinkIssue("warning", file, line, f"concept {concept.id!r} has no defining rule{note}", "no-definition"))
        for rendering in concept.rendering:
            if rendering.source in files and not stats.get((concept.id, rendering.source, rendering.text)):
                issues.append(
                    LinkIssue(
                        "error",
                        file,
                        line,
                        f"rendering «{rendering.text}» of {concept.id!r} is not found in {rendering.source}",
                        "rendering-not-found",
                    )
                )
    return sorted(issues, key=lambda i: (i.severity != "error", i.file, i.line, i.message))


def validate(corpus: ParsedCorpus) -> list[str]:
    """The link problems of ``corpus`` with the project's termbase and curated data, one line
    each (``file:line: severity: message``); called by ``rulekb check``."""
    termbase = project_termbase()
    links = link(corpus, termbase)
    _, example_issues = link_examples(corpus.nodes, load_examples())
    return [str(issue) for issue in link_issues(corpus, links, termbase, rendering_stats(termbase), example_issues)]
