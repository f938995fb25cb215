"""The edit distances of the fuzzy lookups (rapidfuzz's): the same figures as a plain dynamic
programme, the cut-off at ``limit + 1``, and a swap of neighbouring letters counted once by the
typo distance only."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulekb.kb.text.fuzzy import edit_distance, typo_distance, within_typos


def _reference(a: str, b: str, swaps: bool) -> int:
    """Levenshtein (or, with ``swaps``, optimal string alignment) distance, the textbook table."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if swaps and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[len(a)][len(b)]


_WORDS = st.text(alphabet="абвгдеёmodelchr", max_size=9)


@given(_WORDS, _WORDS, st.integers(min_value=0, max_value=4))
def test_distances_equal_the_textbook_table_up_to_the_limit(a: str, b: str, limit: int) -> None:
    assert edit_distance(a, b, limit) == min(_reference(a, b, swaps=False), limit + 1)
    assert typo_distance(a, b, limit) == min(_reference(a, b, swaps=True), limit + 1)


def test_a_swap_of_neighbouring_letters_is_one_typo_but_two_edits() -> None:
    assert typo_distance("modle", "model") == 1
    assert edit_distance("modle", "model") == 2
    assert edit_distance("овервоч", "овервотч") == 1


def test_within_typos_keeps_the_choices_order() -> None:
    assert within_typos("visable", ["vision", "visible", "visibly", "table"], 1) == ["visible"]
    assert within_typos("charge", ["charges", "change", "shoot"], 1) == ["charges", "change"]


def test_within_typos_keeps_the_choices_order_whatever_their_distances() -> None:
    assert within_typos("modle", ["models", "model", "mode"], 2) == ["models", "model", "mode"]
