"""``rulekb eval --answers``: keyword containment with folding, wrong editions, FAQ precision."""

from __future__ import annotations

import json
from pathlib import Path

from rulekb.kb.evaluation.answers import (
    card_editions,
    carries,
    evaluate_answers,
    fold_answer,
    load_answer_rows,
)
from rulekb.webapp.commands.eval_text import format_answer_report


def test_folding_unifies_case_yo_quotes_dashes_and_spaces() -> None:
    assert fold_answer("«Ещё»\u00a0 — ТЕСТ") == fold_answer('"еще" - тест')
    assert carries("Отряд не может стрелять — кроме «Пистолетов»", ["НЕ МОЖЕТ", '"пистолетов"', "стрелять -"])
    assert not carries("Отряд может стрелять", ["не может"])


def test_a_verdict_keyword_counts_only_where_it_leads() -> None:
    assert carries("Да, если отряд не двигался.", ["да", "не двигался"])
    assert carries("10-я редакция: Нет: отряд не может стрелять.\n6-я редакция: Да.", ["Нет", "не может"])
    assert carries("10th edition: No: it cannot shoot.", ["no"])
    assert carries("Нет: за стратагему платят один раз.\n«…»", ["нет"])  # a FAQ answer's verdict and colon
    assert not carries("Стратагемы: нельзя использовать дважды.", ["нет"])
    assert not carries("Для данного отряда действует правило.", ["да", "правило"])
    assert not carries("10-я редакция: если нет моделей в отряде, он уничтожен.", ["нет"])
    assert not carries("A normal move of 6 inches.", ["No", "6"])
    assert carries("Для данного отряда действует правило.", ["данного"])


def test_card_editions() -> None:
    assert card_editions({"edition": "6", "per_edition": []}) == {"6"}
    assert card_editions({"edition": None, "per_edition": [{"edition": "10"}, {"edition": "6"}]}) == {"10", "6"}


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_report_counts_carried_cards_wrong_editions_and_faq(built: Path, tmp_path: Path) -> None:
    rows = write(
        tmp_path / "a.jsonl",
        [
            # the 10th-edition advance rule: its card states the prohibition
            {"id": "a", "question": "можно ли стрелять после рывка", "kind": "numeric", "lang": "ru",
             "edition": "10", "answer_keywords": ["не может стрелять"], "style": "plain"},
            # keywords nobody prints: never carried
            {"id": "b", "question": "дальность чарджа", "kind": "numeric",
             "answer_keywords": ["пирожок с капустой"], "style": "terse"},
            # the question is about the 6th edition but the gold says 7th: a wrong-edition card
            {"id": "c", "question": "дальность чарджа в 6-й редакции", "edition": "7", "answer_keywords": ["12"]},
            {"id": "skipped", "question": "без ключей"},
        ],
    )
    loaded = load_answer_rows(rows)
    assert [r.id for r in loaded] == ["a", "b", "c"]
    report = evaluate_answers(loaded, build_dir=built)
    assert report.rows["a"]["ok"] and not report.rows["b"]["ok"]
    assert report.groups["style"]["terse"].n == 1 and report.groups["style"]["terse"].carried == 0
    assert "c" in report.wrong_edition and "a" not in report.wrong_edition
    text = format_answer_report(report)
    assert "overall" in text and "wrong-edition cards: 1 of 3" in text
    data = report.to_json()
    assert data["overall"]["n"] == 3 and data["wrong_edition"]["ids"] == ["c"]


def test_faq_precision_counts_entries_whose_citations_miss_the_gold(built: Path, tmp_path: Path) -> None:
    rows = write(
        tmp_path / "f.jsonl",
        [{"id": "f", "question": "можно ли стрелять после рывка", "edition": "10", "answer_keywords": ["стрелять"],
          "gold": [{"source": "10e-core", "lines": [1, 2]}]}],
    )
    report = evaluate_answers(load_answer_rows(rows), build_dir=built)
    if report.faq_shown:
        assert report.faq_right == 0  # lines 1-2 are the title page: no entry cites them
        assert report.rows["f"]["faq_right"] is False


def test_cli(built: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulekb.webapp.cli import main

    rows = write(tmp_path / "c.jsonl", [{"id": "x", "question": "дальность чарджа", "answer_keywords": ["2D6"]}])
    out = CliRunner().invoke(main, ["eval", "--answers", str(rows), "--json", "--build-dir", str(built)])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["overall"]["n"] == 1
    empty = write(tmp_path / "e.jsonl", [{"id": "x", "question": "дальность чарджа"}])
    bad = CliRunner().invoke(main, ["eval", "--answers", str(empty), "--build-dir", str(built)])
    assert bad.exit_code == 2 and "answer_keywords" in bad.output
