"""Modules stay small and functions short (STYLE.md 3: a soft cap of 400 lines a module).

No module under the packages below is over 400 lines and no function over 80 (counted with ``ast``, from
``def`` to its last line), unless its docstring has a line starting with ``Long because`` that says why
splitting it would make the code worse (one flat table of data, say).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The packages held to the limits (kb/ joins them once its topic sub-packages land).
PACKAGES = ("corpus", "kb", "engine", "webapp")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
MARKER = "Long because"


def has_reason(docstring: str | None) -> bool:
    """Whether a docstring gives a reason for its length: a line starting with :data:`MARKER`."""
    return any(line.strip().startswith(MARKER) for line in (docstring or "").splitlines())


def violations(source: str, where: str) -> list[str]:
    """What in one module's ``source`` breaks the limits, each as ``where:line`` with the length found."""
    tree = ast.parse(source, filename=where)
    found = []
    lines = len(source.splitlines())
    if lines > MAX_MODULE_LINES and not has_reason(ast.get_docstring(tree)):
        found.append(f"{where}:1 module is {lines} lines (at most {MAX_MODULE_LINES})")
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES and not has_reason(ast.get_docstring(node)):
                found.append(f"{where}:{node.lineno} {node.name}() is {length} lines (at most {MAX_FUNCTION_LINES})")
    return found


def _modules(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("package", PACKAGES)
def test_modules_and_functions_are_within_the_limits(package: str) -> None:
    modules = _modules(package)
    assert len(modules) >= 5, f"{package}/ has only {len(modules)} modules: is the path right?"
    found = [v for path in modules
             for v in violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, (
        "split these into modules by topic or functions into named steps, or say in the docstring why not "
        f"(a line starting {MARKER!r}):\n" + "\n".join(found)
    )


def _function(lines: int, docstring: str) -> str:
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 2))
    return f'def long_one() -> None:\n    """{docstring}"""\n{body}'


def test_a_long_function_is_caught_with_its_line_and_length() -> None:
    source = "import os\n\n\n" + _function(MAX_FUNCTION_LINES + 1, "Does many things.")
    assert violations(source, "pkg/mod.py") == [
        f"pkg/mod.py:4 long_one() is {MAX_FUNCTION_LINES + 1} lines (at most {MAX_FUNCTION_LINES})"
    ]
    assert violations(_function(MAX_FUNCTION_LINES, "Just short enough."), "pkg/mod.py") == []


def test_a_reason_in_the_docstring_lets_it_stand() -> None:
    reason = f"One flat table.\n\n    {MARKER} it is one table of data; split, it would read worse."
    assert violations(_function(MAX_FUNCTION_LINES + 40, reason), "pkg/mod.py") == []
    # the marker must start a line: a passing mention is not a reason
    assert violations(_function(MAX_FUNCTION_LINES + 1, f"Not {MARKER.lower()} of anything."), "pkg/mod.py")


def test_a_long_module_is_caught() -> None:
    source = '"""A module."""\n' + "x = 1\n" * MAX_MODULE_LINES
    assert violations(source, "pkg/big.py") == [f"pkg/big.py:1 module is {MAX_MODULE_LINES + 1} lines "
                                                f"(at most {MAX_MODULE_LINES})"]
    assert violations(f'"""A table.\n\n{MARKER} it is data."""\n' + "x = 1\n" * MAX_MODULE_LINES, "pkg/big.py") == []
