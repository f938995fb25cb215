"""`rulekb search`, `rulekb ask` and `rulekb eval` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulekb.webapp.cli import main


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.output


def test_search_prints_title_citation_and_snippet(built: Path) -> None:
    code, out = run("search", "бросок на ранение", "--limit", "2", "--build-dir", str(built))
    assert code == 0
    assert out.startswith("1. ")
    assert "строк" in out and "2. " in out


def test_search_json(built: Path) -> None:
    code, out = run("search", "консолидация", "--edition", "6", "--json", "--build-dir", str(built))
    assert code == 0
    data = json.loads(out)
    assert data["edition"] == "6" and data["hits"]
    assert {hit["edition"] for hit in data["hits"]} == {"6"}


def test_search_rejects_an_unknown_edition(built: Path) -> None:
    code, out = run("search", "консолидация", "--edition", "9", "--build-dir", str(built))
    assert code == 2 and "'9' is not one of" in out


def test_ask_json_is_one_object(built: Path) -> None:
    code, out = run("ask", "--json", "--limit", "3", "проверка боевого шока", "--build-dir", str(built))
    assert code == 0
    data = json.loads(out)
    assert data["answer"]["node_id"] and len(data["hits"]) <= 3


def test_ask_readable(built: Path) -> None:
    code, out = run("ask", "проверка боевого шока", "--build-dir", str(built))
    assert code == 0 and "строк" in out


def test_ask_without_answer_says_so(built: Path) -> None:
    code, out = run("ask", "Как приготовить борщ?", "--build-dir", str(built))
    assert code == 0 and "Ответ не найден" in out


def test_ask_batch_one_line_per_question(built: Path, tmp_path: Path) -> None:
    batch = tmp_path / "q.jsonl"
    rows = [{"id": "x1", "question": "бросок на ранение"}, {"id": "x2", "question": "консолидация в 6-й"}]
    batch.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n\n", encoding="utf-8")
    code, out = run("ask", "--batch", str(batch), "--limit", "2", "--build-dir", str(built))
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["id"] for line in lines] == ["x1", "x2"]
    assert lines[1]["edition"] == "6"


def test_ask_batch_from_stdin_and_bad_json(built: Path) -> None:
    code, out = run("ask", "--batch", "-", "--build-dir", str(built), input='{"id": "s", "question": "чардж"}\n')
    assert code == 0 and json.loads(out)["id"] == "s"
    code, out = run("ask", "--batch", "-", "--build-dir", str(built), input="not json\n")
    assert code == 2 and "<stdin>:1: not a JSON object" in out


def test_ask_usage_errors(built: Path) -> None:
    code, out = run("ask", "--build-dir", str(built))
    assert code == 2 and "QUESTION" in out
    code, out = run("ask", "x", "--batch", "-", "--build-dir", str(built), input="")
    assert code == 2 and "not both" in out


def test_ask_too_long_is_a_clean_error(built: Path) -> None:
    code, out = run("ask", "слово " * 2000, "--build-dir", str(built))
    assert code == 2 and "characters long" in out


def test_missing_build_says_how_to_build(tmp_path: Path) -> None:
    code, out = run("ask", "чардж", "--build-dir", str(tmp_path / "nothing"))
    assert code == 2 and "rulekb build" in out


def test_eval_with_baseline(built: Path, tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    rows = [
        {"id": "g1", "lang": "ru", "kind": "lookup", "question": "Как проходится проверка боевого шока?",
         "gold": [{"source": "000_75bb62ad905a4830.txt", "lines": [306, 319]}]},
        {"id": "g2", "lang": "en", "kind": "numeric", "question": "Kill Team table size",
         "gold": [{"source": "kt", "lines": [95, 97]}]},
    ]
    gold.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    code, out = run("eval", str(gold), "--baseline", "--build-dir", str(built))
    assert code == 0
    assert "ours R@1" in out and "baseline R@1" in out and "lang=en" in out
    code, out = run("eval", str(gold), "--json", "--build-dir", str(built))
    data = json.loads(out)
    assert data["ours"]["overall"]["n"] == 2
    assert set(data["ours"]["ranks"]) == {"g1", "g2"}
