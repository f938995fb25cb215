"""Exact finite distributions over integers, and dice expressions (``D6``, ``2D6``, ``D3+1``, ``D6x5``).

A :class:`Dist` stores integer weights over an integer total: ``P(v) = weights[v] / total``. Integer
weights keep every operation exact without reducing a :class:`~fractions.Fraction` at each step (the
costly part of rational arithmetic); one ``gcd`` per result keeps the numbers small. Probabilities
come out as ``Fraction``. Internally a ``Dist`` may hold less than total mass (a sub-distribution, used
when only some branches of a roll are followed); the public constructors always give mass 1.

Values are integers: counts of hits, wounds, damage points, inches rolled.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.errors import DiceError
from rulekb.engine.limits import check_dice

__all__ = ["D3", "D6", "DiceExpr", "Dist", "parse_dice"]


class Dist:
    """A finite distribution (or sub-distribution) over integers with exact integer weights."""

    __slots__ = ("_total", "_weights")

    def __init__(self, weights: Mapping[int, int], total: int | None = None) -> None:
        if not weights:
            raise DiceError("A distribution needs at least one value with a positive weight.")
        for value, weight in weights.items():
            if not isinstance(value, int) or not isinstance(weight, int):
                raise DiceError(f"Distribution weights must be int -> int, got {value!r}: {weight!r}.")
            if weight < 0:
                raise DiceError(f"Negative weight {weight!r} for value {value!r}.")
        mass = sum(weights.values())
        if total is None:
            total = mass
        if total <= 0 or mass > total:
            raise DiceError(f"Weights sum to {mass}, more than the total {total!r} (or the total is not positive).")
        self._weights, self._total = _reduce(dict(weights), total)

    @classmethod
    def _raw(cls, weights: dict[int, int], total: int) -> Dist:
        """Build without validation (inputs come from other distributions)."""
        new = cls.__new__(cls)
        new._weights, new._total = _reduce(weights, total)
        return new

    # --- constructors -------------------------------------------------------------------------
    @classmethod
    def constant(cls, value: int) -> Dist:
        return cls._raw({value: 1}, 1)

    @classmethod
    def uniform(cls, low: int, high: int) -> Dist:
        if high < low:
            raise DiceError(f"Uniform range {low}..{high} is empty.")
        return cls._raw(dict.fromkeys(range(low, high + 1), 1), high - low + 1)

    @classmethod
    def die(cls, sides: int = 6) -> Dist:
        if sides < 1:
            raise DiceError(f"A die needs at least one side, got {sides!r}.")
        return cls.uniform(1, sides)

    @classmethod
    def bernoulli(cls, p: Fraction | int) -> Dist:
        """1 with probability ``p``, else 0."""
        p = Fraction(p)
        if not 0 <= p <= 1:
            raise DiceError(f"Probability {p} is outside [0, 1].")
        return cls._raw({1: p.numerator, 0: p.denominator - p.numerator}, p.denominator)

    @classmethod
    def binomial(cls, n: int, p: Fraction | int) -> Dist:
        if n < 0:
            raise DiceError(f"Binomial count {n!r} is negative.")
        p = Fraction(p)
        a, b = p.numerator, p.denominator
        return cls._raw({k: math.comb(n, k) * a**k * (b - a) ** (n - k) for k in range(n + 1)}, b**n)

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[int, Fraction | int]) -> Dist:
        """From value -> probability; the probabilities must sum to 1."""
        fractions = {v: Fraction(p) for v, p in probabilities.items()}
        if sum(fractions.values()) != 1:
            raise DiceError(f"Probabilities sum to {sum(fractions.values())}, not 1.")
        return cls.mixture((p, cls.constant(v)) for v, p in fractions.items() if p)

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Fraction | int, Dist]]) -> Dist:
        """``sum p_i * D_i`` (a measure; a distribution when the ``p_i`` sum to 1 and each ``D_i`` has mass 1)."""
        items = [(Fraction(p), d) for p, d in parts if p]
        if not items:
            raise DiceError("A mixture needs at least one part with positive weight.")
        denominators = [p.denominator * d._total for p, d in items]
        common = math.lcm(*denominators)
        out: dict[int, int] = {}
        for (p, d), den in zip(items, denominators, strict=True):
            scale = p.numerator * (common // den)
            for v, w in d._weights.items():
                out[v] = out.get(v, 0) + w * scale
        return cls._raw(out, common)

    # --- reading ------------------------------------------------------------------------------
    @property
    def total(self) -> int:
        return self._total

    def weights(self) -> dict[int, int]:
        return dict(self._weights)

    def prob(self, value: int) -> Fraction:
        return Fraction(self._weights.get(value, 0), self._total)

    def items(self) -> list[tuple[int, Fraction]]:
        """``(value, probability)`` pairs in increasing value."""
        return [(v, Fraction(self._weights[v], self._total)) for v in sorted(self._weights)]

    def p_at_least(self, k: int) -> Fraction:
        return Fraction(sum(w for v, w in self._weights.items() if v >= k), self._total)

    def p_at_most(self, k: int) -> Fraction:
        return Fraction(sum(w for v, w in self._weights.items() if v <= k), self._total)

    def mean(self) -> Fraction:
        """Expected value of a distribution (of the normalised measure for a sub-distribution)."""
        mass = sum(self._weights.values())
        return Fraction(sum(v * w for v, w in self._weights.items()), mass)

    def variance(self) -> Fraction:
        mass = sum(self._weights.values())
        mean = self.mean()
        return Fraction(sum(v * v * w for v, w in self._weights.items()), mass) - mean * mean

    def min(self) -> int:
        return min(self._weights)

    def max(self) -> int:
        return max(self._weights)

    def to_json(self) -> list[list[int | str]]:
        """``[[value, "p as a fraction"], ...]`` in increasing value."""
        return [[v, str(p)] for v, p in self.items()]

    # --- arithmetic ---------------------------------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        """Sum of independent values (convolution), or a shift by an integer."""
        if isinstance(other, int):
            return Dist._raw({v + other: w for v, w in self._weights.items()}, self._total)
        out: dict[int, int] = {}
        other_items = list(other._weights.items())
        for a, wa in self._weights.items():
            for b, wb in other_items:
                out[a + b] = out.get(a + b, 0) + wa * wb
        return Dist._raw(out, self._total * other._total)

    __radd__ = __add__

    def __sub__(self, other: int) -> Dist:
        return self + (-other)

    def map(self, fn: Callable[[int], int]) -> Dist:
        out: dict[int, int] = {}
        for v, w in self._weights.items():
            key = fn(v)
            out[key] = out.get(key, 0) + w
        return Dist._raw(out, self._total)

    def scale(self, p: Fraction | int) -> Dist:
        """The measure times ``p`` (``0 < p``); used to build mixtures of branches."""
        p = Fraction(p)
        if p <= 0:
            raise DiceError(f"Scale factor {p} must be positive.")
        return Dist._raw({v: w * p.numerator for v, w in self._weights.items()}, self._total * p.denominator)

    def merge(self, other: Dist) -> Dist:
        """The sum of two measures (branches of one roll)."""
        common = math.lcm(self._total, other._total)
        sa, sb = common // self._total, common // other._total
        out = {v: w * sa for v, w in self._weights.items()}
        for v, w in other._weights.items():
            out[v] = out.get(v, 0) + w * sb
        return Dist._raw(out, common)

    def minus(self, other: Dist) -> Dist:
        """``self - other`` as measures; every weight must stay non-negative."""
        common = math.lcm(self._total, other._total)
        sa, sb = common // self._total, common // other._total
        out = {v: w * sa for v, w in self._weights.items()}
        for v, w in other._weights.items():
            out[v] = out.get(v, 0) - w * sb
            if out[v] < 0:
                raise DiceError("Measure difference went negative.")
        out = {v: w for v, w in out.items() if w}
        if not out:
            out = {0: 0}
        return Dist._raw(out, common)

    def times(self, n: int) -> Dist:
        """Sum of ``n`` independent copies (``n >= 0``)."""
        if n < 0:
            raise DiceError(f"Cannot sum {n!r} copies.")
        result = Dist.constant(0)
        base = self
        while n:
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result

    def compound(self, count: Dist) -> Dist:
        """Sum of ``N`` independent copies where ``N ~ count`` (``N >= 0``): the compound distribution."""
        if count.min() < 0:
            raise DiceError("A count of copies cannot be negative.")
        if len(count._weights) == 1:
            return self.times(count.min())
        # Powers self^n share the denominator total^n; scale each to total^N and add, then reduce once.
        top = count.max()
        base = list(self._weights.items())
        t = self._total
        acc: dict[int, int] = {}
        current: dict[int, int] = {0: 1}
        for n in range(top + 1):
            w = count._weights.get(n, 0)
            if w:
                scale = w * t ** (top - n)
                for v, cw in current.items():
                    acc[v] = acc.get(v, 0) + cw * scale
            if n < top:
                nxt: dict[int, int] = {}
                get = nxt.get
                for a, wa in current.items():
                    for b, wb in base:
                        nxt[a + b] = get(a + b, 0) + wa * wb
                current = nxt
        return Dist._raw(acc, count._total * t**top)

    def thin(self, keep: Fraction | int) -> Dist:
        """Each unit of the value survives independently with probability ``keep`` (binomial thinning)."""
        keep = Fraction(keep)
        if keep == 1:
            return self
        a, b = keep.numerator, keep.denominator
        top = max(self.max(), 0)
        out: dict[int, int] = {}
        for v, w in self._weights.items():
            if v < 0:
                raise DiceError("Cannot thin a negative value.")
            scale = w * b ** (top - v)
            for k in range(v + 1):
                out[k] = out.get(k, 0) + scale * math.comb(v, k) * a**k * (b - a) ** (v - k)
        return Dist._raw(out, self._total * b**top)

    # --- comparison and display -----------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._total == other._total and self._weights == other._weights

    def __hash__(self) -> int:
        return hash((self._total, frozenset(self._weights.items())))

    def __repr__(self) -> str:
        body = ", ".join(f"{v}: {self._weights[v]}" for v in sorted(self._weights))
        total = "" if sum(self._weights.values()) == self._total else f", total={self._total}"
        return f"Dist({{{body}}}{total})"


def _reduce(weights: dict[int, int], total: int) -> tuple[dict[int, int], int]:
    """Drop zero weights (the zero measure keeps ``{0: 0}``) and divide out the common factor."""
    if not all(weights.values()):
        weights = {v: w for v, w in weights.items() if w} or {0: 0}
    g = math.gcd(total, *weights.values())
    if g > 1:
        return {v: w // g for v, w in weights.items()}, total // g
    return weights, total


# --- dice expressions -----------------------------------------------------------------------------

_EXPR = re.compile(
    r"^\s*(?:(?P<count>\d+)?\s*[DdДд]\s*(?P<sides>\d+)|(?P<const>\d+))"
    r"(?:\s*[xх×*]\s*(?P<mult>\d+))?"
    r"(?:\s*(?P<sign>[+\-−])\s*(?P<plus>\d+))?\s*$"
)


@dataclass(frozen=True)
class DiceExpr:
    """``count`` dice of ``sides`` sides, times ``multiplier``, plus ``plus``: ``2D6``, ``D3+1``, ``D6x5``, ``3``.

    A D3 is a D6 halved rounding up (1–2 → 1, 3–4 → 2, 5–6 → 3), which gives the same distribution as
    a three-sided die; both rulebooks define it that way.
    """

    count: int = 0
    sides: int = 6
    plus: int = 0
    multiplier: int = 1

    def __post_init__(self) -> None:
        if self.count < 0 or self.sides < 1 or self.multiplier < 1:
            raise DiceError(f"Invalid dice expression {self!r}: need count >= 0, sides >= 1, multiplier >= 1.")

    @classmethod
    def const(cls, value: int) -> DiceExpr:
        return cls(count=0, plus=value)

    @property
    def is_constant(self) -> bool:
        return self.count == 0

    def dist(self) -> Dist:
        if self.count == 0:
            return Dist.constant(self.plus)
        base = Dist.die(self.sides) if self.sides != 3 else d3_from_d6()
        rolled = base.times(self.count)
        if self.multiplier != 1:
            rolled = rolled.map(lambda v: v * self.multiplier)
        return rolled + self.plus

    def mean(self) -> Fraction:
        return Fraction(self.count * (self.sides + 1), 2) * self.multiplier + self.plus

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.plus)
        text = ("" if self.count == 1 else str(self.count)) + f"D{self.sides}"
        if self.multiplier != 1:
            text += f"x{self.multiplier}"
        if self.plus:
            text += f"{'+' if self.plus > 0 else '-'}{abs(self.plus)}"
        return text


def parse_dice(text: str | int) -> DiceExpr:
    """Parse ``"2D6"``, ``"D3+1"``, ``"D6x5"``, ``"D6-1"``, ``"4"`` (Latin or Cyrillic D), or an int."""
    if isinstance(text, bool):
        raise DiceError(f"Dice expression {text!r} is a boolean; give e.g. 'D6' or 2.")
    if isinstance(text, int):
        if text < 0:
            raise DiceError(f"Dice value {text!r} is negative.")
        check_dice(text, 0, 1, 1, text)
        return DiceExpr.const(text)
    if len(str(text)) > 40:
        raise DiceError(f"Dice expression {str(text)[:20]!r}… is {len(str(text))} characters long; write it like 'D6'.")
    match = _EXPR.match(str(text))
    if not match:
        raise DiceError(
            f"Cannot read dice expression {text!r}: write it like 'D6', '2D6', 'D3+1', 'D6x5' or a number."
        )
    plus = int(match["plus"] or 0) * (-1 if match["sign"] in ("-", "−") else 1)
    mult = int(match["mult"] or 1)
    if match["const"] is not None:
        check_dice(text, 0, 1, mult, int(match["const"]) * mult + plus)
        return DiceExpr(count=0, plus=int(match["const"]) * mult + plus)
    count = int(match["count"]) if match["count"] else 1
    sides = int(match["sides"])
    if count == 0 or sides == 0:
        raise DiceError(f"Dice expression {text!r} rolls no dice; write e.g. 'D6' or '2D6'.")
    check_dice(text, count, sides, mult, plus)
    return DiceExpr(count=count, sides=sides, plus=plus, multiplier=mult)


@rule("d3", cite("6e-rules", 166, 168), cite("10e-core", 224))
def d3_from_d6() -> Dist:
    """A D3: roll a D6 and halve it, rounding up."""
    return Dist.die(6).map(lambda face: (face + 1) // 2)


D6 = Dist.die(6)
D3 = d3_from_d6()
