"""Several weapons of one unit against a target unit whose models may differ (Sv, W, invulnerable, FNP).

The single-weapon path (:func:`rulekb.engine.attack.resolve`) tracks only the damage dealt so far, which is
enough when every model of the target is the same. Here the target is a list of *groups* of identical
models allocated in the order given (a Character's bodyguard first, then the Character, say): the
model that takes the next attack is the first one not yet destroyed, and one that has lost wounds
takes the next attack first (10e-core 626–632). The state is therefore (index of the model taking
attacks, damage on it), and each wound is saved with *that* model's save and Feel No Pain:

1. each weapon's hit and wound rolls give the joint count of saveable wounds and of Devastating
   Wounds (mortal wounds, no save), exactly as :func:`rulekb.engine.attack.per_wound_total` computes them;
2. the saveable wounds are allocated one at a time (save, then damage, excess lost), then that
   weapon's mortal wounds (10e-core 661–668: after the other attacks, excess lost);
3. the next weapon starts from the state the previous one left: weapons resolve one after another.

Every number stays an exact :class:`~fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulekb.engine.attack import SPILL, AttackPlan, AttackResult, Step, count, per_wound_total
from rulekb.engine.concepts import cite
from rulekb.engine.dice import Dist
from rulekb.engine.errors import ProfileError

__all__ = ["resolve_unit"]

State = tuple[int, int]
"""(index of the first model not destroyed, damage already on it)."""


@dataclass(frozen=True)
class _Group:
    models: int
    wounds: int


def _groups(plans: Sequence[AttackPlan]) -> list[_Group]:
    return [_Group(p.target_models, p.target_wounds) for p in plans]


def _model_groups(groups: Sequence[_Group]) -> list[int]:
    """Group index of each model, in allocation order."""
    return [g for g, group in enumerate(groups) for _ in range(group.models)]


#: Most state updates one calculation may take (about 1 s of exact arithmetic on a slow machine).
WORK_LIMIT = 100_000


def _step(
    states: dict[State, Fraction],
    owner: list[int],
    groups: Sequence[_Group],
    plans: Sequence[AttackPlan],
    saveable: bool,
) -> tuple[dict[State, Fraction], Fraction]:
    """Allocate one wound (saveable or a mortal wound) from every state; also P(it is not saved)."""
    out: dict[State, Fraction] = {}
    unsaved = Fraction(0)
    last = len(owner)
    zero = Fraction(0)
    for (i, d), w in states.items():
        if i == last:
            out[(i, d)] = out.get((i, d), zero) + w
            continue
        g = owner[i]
        plan = plans[g]
        fail = plan.save_fail if saveable else Fraction(1)
        if fail != 1:
            out[(i, d)] = out.get((i, d), zero) + w * (1 - fail)
        if not fail:
            continue
        unsaved += w * fail
        left = groups[g].wounds - d
        for e, p in _effective(plan):
            key = (i + 1, 0) if e >= left else (i, d + e)
            out[key] = out.get(key, zero) + w * fail * p
    return out, unsaved


def _effective(plan: AttackPlan) -> list[tuple[int, Fraction]]:
    """Damage one unsaved wound deals after Feel No Pain, as (points, probability)."""
    return (plan.damage.thin(1 - plan.fnp) if plan.fnp else plan.damage).items()


def check_work(lead: AttackPlan, groups: Sequence[_Group], plans: Sequence[AttackPlan]) -> None:
    """Refuse, before any work, a weapon whose exact allocation would take more than :data:`WORK_LIMIT`
    updates: about (joint wound counts + wounds) x model states (x damage values for each wound)."""
    hits = lead.attacks.max() * (1 + (lead.sustained.max() if lead.sustained else 0))
    pairs = (hits + 1) * (hits + 2) // 2 if lead.devastating else hits + 1
    states = sum(g.wounds * g.models for g in groups) + 1
    damage_values = max(len(p.damage.items()) * (2 if p.fnp else 1) for p in plans)
    work = pairs * states + hits * states * damage_values
    if work > WORK_LIMIT:
        raise ProfileError("defender.groups", f"this calculation needs about {work:,} allocation steps, more than "
                           f"the {WORK_LIMIT:,} computed exactly here; use fewer attacks, models or wounds.")


def _weapon(
    start: dict[State, Fraction],
    owner: list[int],
    groups: Sequence[_Group],
    plans: Sequence[AttackPlan],
) -> tuple[dict[State, Fraction], Fraction]:
    """The state after one weapon's saveable wounds and then its mortal wounds; and E[unsaved wounds].

    With ``P(s, m)`` the joint law of saveable wounds ``s`` and mortal wounds ``m``, ``S^s`` the
    saving step applied ``s`` times and ``L`` the mortal-wound step, the result is
    ``sum_m L^m (B_m)`` with ``B_m = sum_s P(s, m) S^s(start)``, evaluated by Horner's rule in ``m``.
    """
    lead = plans[0]
    check_work(lead, groups, plans)
    one = Dist.constant(1)
    joint = per_wound_total(lead, one, Dist.constant(SPILL) if lead.devastating else one, one).items()
    s_max = max(code % SPILL for code, _ in joint)
    m_max = max(code // SPILL for code, _ in joint)
    tail = Fraction(1)  # P(S > s)
    states = dict(start)
    buckets: dict[int, dict[State, Fraction]] = {}
    expected_unsaved = Fraction(0)
    by_s: dict[int, list[tuple[int, Fraction]]] = {}
    for code, p in joint:
        by_s.setdefault(code % SPILL, []).append((code // SPILL, p))
    for s in range(s_max + 1):
        for m, p in by_s.get(s, []):
            bucket = buckets.setdefault(m, {})
            for key, w in states.items():
                bucket[key] = bucket.get(key, Fraction(0)) + w * p
            tail -= p
        if s < s_max:
            states, unsaved = _step(states, owner, groups, plans, saveable=True)
            expected_unsaved += tail * unsaved
    acc = dict(buckets.get(m_max, {}))
    for m in range(m_max - 1, -1, -1):
        acc, _ = _step(acc, owner, groups, plans, saveable=False)
        for key, w in buckets.get(m, {}).items():
            acc[key] = acc.get(key, Fraction(0)) + w
    return {k: w for k, w in acc.items() if w}, expected_unsaved


def resolve_unit(weapons: Sequence[Sequence[AttackPlan]]) -> AttackResult:
    """Exact result of several weapons (in order) against a unit of groups (in allocation order).

    ``weapons[k][g]`` is weapon ``k``'s plan against a unit of group ``g``'s models: the plans of one
    weapon share the attacks, hit and wound rolls and differ in the save, Feel No Pain, Wounds and
    models of the group. Distributions of hits and wounds add up over the weapons (independent dice);
    damage and models destroyed come from the allocation chain.
    """
    if not weapons or not all(weapons):
        raise ProfileError("weapons", "need at least one weapon and one target group.")
    first = weapons[0]
    groups = _groups(first)
    if any(_groups(plans) != groups for plans in weapons):
        raise ProfileError("defender.groups", "every weapon must attack the same groups.")
    if any(p.devastating_spill for plans in weapons for p in plans):
        raise ProfileError("options.devastating_spill",
                           "is not modelled with several weapons or mixed groups; leave it off.")
    if any(p.wounds_taken for plans in weapons for p in plans[1:]):
        raise ProfileError("defender.wounds_taken", "only the first group's first model may have lost wounds.")
    owner = _model_groups(groups)
    states: dict[State, Fraction] = {(0, first[0].wounds_taken): Fraction(1)}
    totals: dict[str, Fraction] = {}
    sums: dict[str, Dist] = {}
    steps: list[Step] = []
    for k, plans in enumerate(weapons):
        counts = count(plans[0])
        for key, value in counts.expected.items():
            if key not in ("unsaved", "damage_inflicted", "damage_after_fnp"):
                totals[key] = totals.get(key, Fraction(0)) + value
        for name, dist in (("hits", counts.hits), ("wounds", counts.wounds), ("mortal_wounds", counts.mortal),
                           ("attacks", plans[0].attacks)):
            sums[name] = sums[name] + dist if name in sums else dist
        for key, value in plans[0].extra.items():
            totals[key] = totals.get(key, Fraction(0)) + value
        states, unsaved = _weapon(states, owner, groups, plans)
        totals["unsaved"] = totals.get("unsaved", Fraction(0)) + unsaved
        label = f"Weapon {k + 1}" if len(weapons) > 1 else "Weapon"
        steps.extend(Step(s.concept, f"{label}: {s.title}", s.detail, s.citations, s.values) for s in plans[0].steps)

    start = first[0].wounds_taken
    wounds_before = [0]
    for g in owner:
        wounds_before.append(wounds_before[-1] + groups[g].wounds)
    damage: dict[int, Fraction] = {}
    destroyed: dict[int, Fraction] = {}
    for (i, d), p in states.items():
        dealt = wounds_before[i] + d - start
        damage[dealt] = damage.get(dealt, Fraction(0)) + p
        destroyed[i] = destroyed.get(i, Fraction(0)) + p
    damage_d = Dist.from_probabilities(damage)
    destroyed_d = Dist.from_probabilities(destroyed)
    expected = {
        "attacks": totals["attacks"],
        "hits": totals["hits"],
        "critical_hits": totals["critical_hits"],
        "wounds": totals["wounds"],
        "critical_wounds": totals["critical_wounds"],
        "unsaved": totals["unsaved"],
        "devastating_wounds": totals["devastating_wounds"],
        "mortal_wounds": totals["mortal_wounds"],
        "damage": damage_d.mean(),
        "models_destroyed": destroyed_d.mean(),
    }
    expected.update({k: v for k, v in totals.items() if k not in expected})
    detail = (f"{len(weapons)} weapon(s) resolved one after another against "
              + ", then ".join(f"{g.models} model(s) of {g.wounds} wound(s)" for g in groups)
              + ": each wound is saved with the save of the model it is allocated to; a model that has lost "
                "wounds takes the next attack, and damage beyond what it has left is lost.")
    steps.append(Step("damage", "Allocate and inflict damage", detail,
                      (cite("10e-core", 626, 632), cite("10e-core", 672, 677)) if first[0].edition == "10"
                      else first[0].allocation_cites,
                      {"damage": str(expected["damage"]), "models_destroyed": str(expected["models_destroyed"])}))
    distributions = {**sums, "damage": damage_d, "models_destroyed": destroyed_d}
    return AttackResult(first[0].edition, expected, distributions, tuple(steps))
