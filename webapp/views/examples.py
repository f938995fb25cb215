"""Worked examples as the rule pages show them: the book's values, the engine's, and its charts."""

from __future__ import annotations

from typing import Any

__all__ = ["DISTRIBUTION_LABELS", "example_view"]


#: how the pages name the engine's distributions
DISTRIBUTION_LABELS: dict[str, str] = {
    "hits": "Попадания",
    "wounds": "Ранения",
    "unsaved": "Не спасено",
    "damage": "Урон",
    "models_destroyed": "Убито моделей",
}


def _as_distribution(value: Any) -> list[list[Any]] | None:
    """``{"0": "1/3", "1": "2/3"}`` or ``[[0, "1/3"], …]`` as sorted ``[[k, p], …]``; else None."""
    pairs: list[tuple[Any, Any]]
    if isinstance(value, dict) and value:
        pairs = list(value.items())
    elif isinstance(value, list) and value and all(isinstance(v, list | tuple) and len(v) == 2 for v in value):
        pairs = [(k, p) for k, p in value]
    else:
        return None
    out = []
    for key, p in pairs:
        try:
            k = int(key)
        except (TypeError, ValueError):
            return None
        if not isinstance(p, str | int | float):
            return None
        out.append([k, p])
    return sorted(out)


def example_view(example: dict[str, Any]) -> dict[str, Any]:
    """An example of the ``rulekb examples --json`` contract with what its view shows: the result's
    scalar values and its distributions (``p_hits`` maps or ``distributions`` lists) as charts."""
    result = example.get("result")
    values: dict[str, Any] = {}
    charts: list[tuple[str, list[list[Any]]]] = []
    if isinstance(result, dict):
        dists = dict(result.get("distributions") or {}) if isinstance(result.get("distributions"), dict) else {}
        for key, value in result.items():
            name = key[2:] if key.startswith("p_") else key
            dist = _as_distribution(value)
            if dist is not None and key != "distributions":
                dists.setdefault(name, value)
            elif not isinstance(value, dict | list):
                values[key] = value
        for name, label in DISTRIBUTION_LABELS.items():
            dist = _as_distribution(dists.get(name))
            if dist and len(dist) > 1:
                charts.append((label, dist))
    elif result is not None:
        values["result"] = result
    return {**example, "values": values, "charts": charts}
