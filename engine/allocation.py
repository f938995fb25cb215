"""Damage allocation: the packets of damage an attack deals, applied model by model as a Markov chain over the
damage dealt so far (10e-core 626–632, 672–683), and rolled damage applied attack by attack.

A *packet* is one unsaved wound or one Devastating Wounds critical wound: it deals the weapon's damage to one
model, and damage beyond what that model has left is lost. A wounded model takes the next attack, so the
unit's state is just the damage dealt so far; Feel No Pain thins each point. :mod:`rulekb.engine.attack`
builds the packets and re-exports these functions.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist

__all__ = ["SPILL", "allocate", "allocate_rolls"]

#: Code of a Devastating Wounds packet when its mortal wounds spill over (joint counting).
SPILL = 1000


def allocate(
    packets: Dist,
    damage: Dist,
    models: int,
    wounds: int,
    fnp: Fraction = Fraction(0),
    wounds_taken: int = 0,
    spill: Dist | None = None,
) -> Dist:
    """Distribution of the total damage dealt to a unit of ``models`` models of ``wounds`` wounds.

    ``packets``: number of unsaved wounds (each deals ``damage`` to the model it is allocated to;
    damage beyond that model's remaining wounds is lost). A model that has lost wounds takes the
    next attack (10e-core 628–632), so the unit's state is just the damage dealt so far. Each point of
    damage is ignored with probability ``fnp`` (Feel No Pain, 10e-core 681–683). With ``spill`` the
    packet count is joint: ``code = lost + SPILL * spilling``, and the spilling packets (mortal wounds
    that carry over, 10e-core 661) are applied after the others.
    Returns the distribution of the final damage dealt, counting ``wounds_taken`` already on the first
    model; ``value // wounds`` is the number of models destroyed.
    """
    dead = models * wounds
    effective = damage.thin(1 - fnp) if fnp else damage
    eff_items = sorted(effective.weights().items())
    eff_total = effective.total
    capped = effective.min() >= 1

    def lost_step(state: dict[int, int]) -> dict[int, int]:
        out: dict[int, int] = {}
        for d, w in state.items():
            if d >= dead:
                out[dead] = out.get(dead, 0) + w * eff_total
                continue
            remaining = wounds - d % wounds
            for e, we in eff_items:
                nd = d + e if e < remaining else (d // wounds + 1) * wounds
                out[nd] = out.get(nd, 0) + w * we
        return out

    def spill_step(state: dict[int, int]) -> dict[int, int]:
        out: dict[int, int] = {}
        for d, w in state.items():
            for e, we in eff_items:
                nd = min(d + e, dead)
                out[nd] = out.get(nd, 0) + w * we
        return out

    start = {wounds_taken: 1}
    if spill is None:
        return _run_chain(packets, start, lost_step, eff_total, dead, capped)
    groups: dict[int, dict[int, int]] = {}
    for code, w in packets.weights().items():
        groups.setdefault(code % SPILL, {})[code // SPILL] = w
    parts: list[tuple[Fraction, Dist]] = []
    state, total = start, 1
    for n in range(max(groups) + 1):
        if n in groups:
            sub = groups[n]
            before = Dist._raw(dict(state), total)
            spilled = _run_chain(Dist(sub), before.weights(), spill_step, eff_total, dead, capped, before.total)
            parts.append((Fraction(sum(sub.values()), packets.total), spilled))
        state, total = lost_step(state), total * eff_total
    return Dist.mixture(parts)


@rule("damage", cite("10e-core", 672, 677), cite("10e-core", 703, 710))
def allocate_rolls(damage_rolls: list[int], wounds: int, models: int) -> tuple[int, int]:
    """Apply rolled damage attack by attack, in order, to a unit of ``models`` models of ``wounds``
    wounds: a damaged model takes the next attack and excess damage is lost. Returns the models
    destroyed and the wounds left on a damaged model (0 if none is damaged)."""
    destroyed, left = 0, wounds
    for roll in damage_rolls:
        if destroyed == models:
            break
        if roll >= left:
            destroyed, left = destroyed + 1, wounds
        else:
            left -= roll
    return destroyed, (0 if left == wounds or destroyed == models else left)


def _run_chain(
    count: Dist,
    start: dict[int, int],
    step: Callable[[dict[int, int]], dict[int, int]],
    step_total: int,
    dead: int,
    capped: bool,
    start_total: int = 1,
) -> Dist:
    """``sum_k P(count = k) * step^k(start)`` with integer weights (``step`` multiplies totals by ``step_total``)."""
    kmax = count.max()
    if capped:
        kmax = min(kmax, dead)  # every packet deals at least 1: after ``dead`` packets the unit is gone
    acc: dict[int, int] = {}
    state = dict(start)
    weights = count.weights()
    beyond = sum(w for k, w in weights.items() if k > kmax)
    for k in range(kmax + 1):
        w = weights.get(k, 0)
        if k == kmax:
            w += beyond
        if w:
            scale = w * step_total ** (kmax - k)
            for d, sw in state.items():
                acc[d] = acc.get(d, 0) + sw * scale
        if k < kmax:
            if len(state) == 1 and dead in state:
                rest = sum(weights.get(j, 0) for j in range(k + 1, kmax + 1)) + beyond
                if rest:
                    acc[dead] = acc.get(dead, 0) + state[dead] * rest * step_total ** (kmax - k)
                break
            state = step(state)
    return Dist._raw(acc, count.total * start_total * step_total**kmax)
