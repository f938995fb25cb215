"""Bad input: one clear line naming the file and the fix, exit 2, the last build untouched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekb.corpus.errors import CorpusError
from rulekb.corpus.reader import CORPUS_DIR, load_manifest, read_source
from rulekb.kb.build import build
from rulekb.webapp.cli import main

MANIFEST = (CORPUS_DIR / "sources.toml").read_text(encoding="utf-8")


@pytest.fixture
def sources_dir(tmp_path: Path) -> Path:
    target = tmp_path / "sources"
    shutil.copytree(CORPUS_DIR / "sources", target)
    return target


def _one(sources_dir: Path, name: str) -> Path:
    return sources_dir / name


def test_missing_file(sources_dir: Path) -> None:
    _one(sources_dir, "kt.txt").unlink()
    source = next(s for s in load_manifest() if s.id == "kt")
    with pytest.raises(CorpusError, match=r"kt\.txt.*not found"):
        read_source(source, sources_dir)


def test_not_utf8_names_the_byte_offset(sources_dir: Path) -> None:
    path = _one(sources_dir, "kt.txt")
    path.write_bytes(path.read_bytes()[:10] + b"\xff\xfe" + path.read_bytes()[10:])
    source = next(s for s in load_manifest() if s.id == "kt")
    with pytest.raises(CorpusError, match=r"not UTF-8 \(byte offset 10"):
        read_source(source, sources_dir)


def test_empty_file(sources_dir: Path) -> None:
    _one(sources_dir, "kt.txt").write_bytes(b"  \n")
    source = next(s for s in load_manifest() if s.id == "kt")
    with pytest.raises(CorpusError, match="is empty"):
        read_source(source, sources_dir)


def test_hash_mismatch(sources_dir: Path) -> None:
    path = _one(sources_dir, "kt.txt")
    path.write_bytes(path.read_bytes() + b" ")
    source = next(s for s in load_manifest() if s.id == "kt")
    with pytest.raises(CorpusError, match="sha256.*restore the file"):
        read_source(source, sources_dir)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda m: m.replace('title_en = "Kill Team rules', 'x = "', 1).replace('\ntitle = "Kill Team', "\n#", 1),
         "missing field 'title'"),
        (lambda m: m.replace('edition = "kt"', 'edition = "11"'), "unknown edition '11'"),
        (lambda m: "schema = 1\n", "lists no"),
        (lambda m: m + "\n[[source", "not valid TOML"),
    ],
)  # fmt: skip
def test_bad_manifest(tmp_path: Path, edit: object, message: str) -> None:
    path = tmp_path / "sources.toml"
    path.write_text(edit(MANIFEST), encoding="utf-8")  # type: ignore[operator]
    with pytest.raises(CorpusError, match=message):
        load_manifest(path)


def test_failed_build_keeps_the_last_good_one(tmp_path: Path, sources_dir: Path) -> None:
    out = tmp_path / "build"
    build(out=out, corpus_dir=CORPUS_DIR / "sources")
    before = (out / "nodes.json").read_bytes()
    path = _one(sources_dir, "6e-rules.txt")
    path.write_bytes(path.read_bytes().replace("Кубик".encode(), b"\xd0", 1))
    with pytest.raises(CorpusError):
        build(out=out, corpus_dir=sources_dir)
    assert (out / "nodes.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "builds", "sources"]
    assert not list((tmp_path / "builds").glob(".tmp-*"))  # no temp dir left


def test_cli_reports_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["outline", "no-such-source"])
    assert result.exit_code == 2
    assert "Unknown source 'no-such-source'" in result.output
    assert "Traceback" not in result.output


def test_build_command_names_the_file_exits_2_and_keeps_the_build(
    tmp_path: Path, sources_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulekb.corpus.reader

    out = tmp_path / "build"
    out.mkdir()
    (out / "manifest.json").write_text('{"schema_version": 1}', encoding="utf-8")
    path = _one(sources_dir, "7e-pp58-67.txt")
    path.write_bytes(path.read_bytes()[:-3])
    monkeypatch.setattr(rulekb.corpus.reader, "CORPUS_DIR", sources_dir.parent)
    result = CliRunner().invoke(main, ["build", "--quiet", "--build-dir", str(out)])
    assert result.exit_code == 2
    assert "7e-pp58-67.txt" in result.output and "sha256" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert (out / "manifest.json").read_text(encoding="utf-8") == '{"schema_version": 1}'
