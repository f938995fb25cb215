"""The base of every contract model and the one way to serialise through one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from rulekb.corpus.models import EDITIONS

__all__ = ["Contract", "Edition", "Lines", "dump", "dump_list"]



def _edition(value: str) -> str:
    if value not in EDITIONS:
        raise ValueError(f"unknown edition {value!r}; the editions are {', '.join(EDITIONS)}")
    return value


Edition = Annotated[str, AfterValidator(_edition), WithJsonSchema({"type": "string", "enum": list(EDITIONS)})]
"""An edition code of the manifest (``6``, ``7``, ``10``, ``kt``)."""
Lines = Annotated[tuple[int, int], Field(description="First and last line in the source file (1-based).")]

M = TypeVar("M", bound=BaseModel)


class Contract(BaseModel):
    """A JSON contract. Extra fields pass through: contracts change only by adding fields."""

    model_config = ConfigDict(extra="allow")


def _in_order(out: Any, given: Any) -> Any:
    """``out`` with every object's keys in the order ``given`` had them (the model's order for the
    rest), so serialising through a model leaves the printed text as it was."""
    if isinstance(out, dict) and isinstance(given, dict):
        first = [k for k in given if k in out]
        rest = [k for k in out if k not in given]
        return {k: _in_order(out[k], given.get(k)) for k in (*first, *rest)}
    if isinstance(out, list) and isinstance(given, (list, tuple)) and len(out) == len(given):
        return [_in_order(o, g) for o, g in zip(out, given, strict=True)]
    return out


def dump(model: type[M], data: Any) -> Any:
    """``data`` validated against ``model`` and serialised through it: the fields it was given, in
    the order it gave them. Raises ``pydantic.ValidationError`` when the data breaks the contract."""
    return _in_order(model.model_validate(data).model_dump(mode="json", exclude_unset=True), data)


def dump_list(model: type[M], rows: Iterable[Any]) -> list[Any]:
    """Each row through :func:`dump`."""
    return [dump(model, row) for row in rows]
