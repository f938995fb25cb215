"""The attack sequence as pure functions over exact distributions, with a step-by-step trace.

An edition turns a :class:`~rulekb.engine.profiles.Profile` into an :class:`AttackPlan` — per-die outcome
probabilities for the hit, wound and save rolls, what a critical hit or wound does, the damage of
one unsaved wound — and :func:`resolve` computes every count's exact distribution from it.

How: each attack is independent, so the number of anything (hits, wounds, damage *packets*) over the
whole attack is the compound of one attack's distribution over the number of attacks. A *packet* is
one unsaved wound or one Devastating Wounds critical wound: it deals the weapon's damage to one
model, and damage beyond what that model has left is lost (10e-core 674–677; 665/668 for
Devastating Wounds). The target's state is the damage already dealt (which model, how many wounds it
has left), so the packets drive a Markov chain whose final distribution gives the damage actually
dealt and the models destroyed. A Command Re-roll of one die (``single``) changes one die of a pool,
handled with the pool identity ``s^n + g * (g^n - s^n)`` (``g`` one die's distribution, ``s`` its
successful part, ``*`` convolution): a pool with at least one failure has one failed die rolled again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from rulekb.engine.allocation import SPILL, allocate, allocate_rolls
from rulekb.engine.concepts import Citation
from rulekb.engine.dice import Dist
from rulekb.engine.errors import ProfileError

__all__ = [
    "SPILL", "AttackPlan", "AttackResult", "Counts", "Step", "Triple", "allocate", "allocate_rolls", "count",
    "per_wound_total", "resolve",
]

#: Code of one wound die when a single re-roll applies to the wound-roll pool (joint counting).
WOUND_DIE = 1_000_000

Triple = tuple[Fraction, Fraction, Fraction]


@dataclass(frozen=True)
class Step:
    """One line of the explanation: which rule (concept and lines) did what, with exact values."""

    concept: str
    title: str
    detail: str
    citations: tuple[Citation, ...] = ()
    values: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "concept": self.concept,
            "title": self.title,
            "detail": self.detail,
            "cites": [c.to_json() for c in self.citations],
            "values": dict(self.values),
        }


@dataclass(frozen=True)
class AttackPlan:
    """Per-die probabilities of one weapon's attack sequence against one target."""

    edition: str
    attacks: Dist
    hit: Triple
    """(fail, normal hit, critical hit) per attack, after the re-roll policy."""
    wound: Triple
    """(fail, normal wound, critical wound) per wound roll."""
    save_fail: Fraction
    """P(a saveable wound is not saved)."""
    damage: Dist
    """Damage of one packet (after Melta and damage modifiers)."""
    target_models: int
    target_wounds: int
    auto_hit: bool = False
    hit_single: bool = False
    wound_single: bool = False
    lethal: bool = False
    sustained: Dist | None = None
    devastating: bool = False
    devastating_spill: bool = False
    fnp: Fraction = Fraction(0)
    """P(one point of damage is ignored)."""
    wounds_taken: int = 0
    steps: tuple[Step, ...] = ()
    allocation_cites: tuple[Citation, ...] = ()
    extra: Mapping[str, Fraction] = field(default_factory=dict)
    """Edition-specific expectations to report (e.g. Hazardous mortal wounds on the attacker)."""

    def __post_init__(self) -> None:
        most = self.attacks.max() * (1 + (self.sustained.max() if self.sustained else 0))
        if most >= SPILL:
            raise ProfileError("weapon.attacks", f"up to {most} hits is more than this engine counts (999).")
        if self.target_models < 1 or self.target_wounds < 1:
            raise ProfileError("defender", "needs at least one model with at least one wound.")
        if not 0 <= self.wounds_taken < self.target_wounds:
            raise ProfileError("defender.wounds_taken", f"must be 0..{self.target_wounds - 1}.")

    def damage_text(self) -> str:
        items = self.damage.items()
        if len(items) == 1:
            return f"{items[0][0]} damage"
        return f"damage averaging {self.damage.mean()}"


@dataclass(frozen=True)
class AttackResult:
    edition: str
    expected: dict[str, Fraction]
    distributions: dict[str, Dist]
    steps: tuple[Step, ...]


# --- pools ----------------------------------------------------------------------------------------


def _zero(p: Fraction) -> Dist | None:
    return Dist.constant(0).scale(p) if p else None


def _branches(*parts: tuple[Fraction, Dist]) -> Dist:
    """The measure ``sum p_i * D_i``; all-zero weights give the zero measure (a roll that cannot succeed)."""
    kept = [(p, d) for p, d in parts if p]
    return Dist.mixture(kept) if kept else Dist._raw({0: 0}, 1)


def _single_pool(fail: Fraction, success: Dist, count: Dist) -> Dist:
    """Total over ``n ~ count`` dice when one failed die of the pool is re-rolled once."""
    zero = _zero(fail)
    g = success.merge(zero) if zero else success
    if not fail:
        return g.compound(count)
    parts: list[tuple[Fraction, Dist]] = []
    gn, sn = Dist.constant(0), Dist.constant(0)
    for n in range(count.max() + 1):
        p = count.prob(n)
        if p:
            if n == 0:
                parts.append((p, Dist.constant(0)))
            else:
                rerolled = g + gn.minus(sn)
                total = sn.merge(rerolled)
                parts.append((p, total))
        gn, sn = gn + g, sn + success
    return Dist.mixture(parts)


def _over_attacks(plan: AttackPlan, normal_hit: Dist, critical_hit: Dist) -> Dist:
    """Total of a per-hit quantity over all attacks (mass-1 inputs for a normal and a critical hit)."""
    if plan.auto_hit:
        return normal_hit.compound(plan.attacks)
    fail, normal, crit = plan.hit
    success = _branches((normal, normal_hit), (crit, critical_hit))
    if plan.hit_single:
        return _single_pool(fail, success, plan.attacks)
    zero = _zero(fail)
    per_attack = success.merge(zero) if zero else success
    return per_attack.compound(plan.attacks)


def per_wound_total(plan: AttackPlan, normal_wound: Dist, critical_wound: Dist, lethal: Dist) -> Dist:
    """Total over the attack of a quantity defined per successful wound roll and per Lethal auto-wound.

    ``normal_wound``, ``critical_wound`` and ``lethal`` are mass-1 distributions of what one normal
    wound, one critical wound and one Lethal Hits auto-wound contribute (e.g. ``Bernoulli(p_unsaved)``)."""
    fail, wn, wc = plan.wound
    extra = plan.sustained
    if plan.wound_single and fail:
        # Count wound dice jointly with the auto-wound quantity, then re-roll one die of each pool size.
        crit_first = lethal if plan.lethal else Dist.constant(WOUND_DIE)
        crit_hit = crit_first + extra.map(lambda x: x * WOUND_DIE) if extra else crit_first
        joint = _over_attacks(plan, Dist.constant(WOUND_DIE), crit_hit)
        success = _branches((wn, normal_wound), (wc, critical_wound))
        groups: dict[int, dict[int, int]] = {}
        for code, w in joint.weights().items():
            groups.setdefault(code // WOUND_DIE, {})[code % WOUND_DIE] = w
        parts: list[tuple[Fraction, Dist]] = []
        for m, sub in sorted(groups.items()):
            rest = Dist(sub)
            pool = _single_pool(fail, success, Dist.constant(m))
            parts.append((Fraction(sum(sub.values()), joint.total), rest + pool))
        return Dist.mixture(parts)
    die = _branches((fail, Dist.constant(0)), (wn, normal_wound), (wc, critical_wound))
    crit_first = lethal if plan.lethal else die
    crit_hit = crit_first + die.compound(extra) if extra else crit_first
    return _over_attacks(plan, die, crit_hit)


# --- the whole sequence ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    """One weapon's counts over its whole attack, before damage is allocated to models."""

    hits: Dist
    wounds: Dist
    critical_wounds: Dist
    unsaved: Dist
    devastating: Dist
    """Critical wounds that became mortal wounds (Devastating Wounds): no save of any kind."""
    mortal: Dist
    expected: dict[str, Fraction]


def count(plan: AttackPlan) -> Counts:
    """Hits, wounds, unsaved wounds and Devastating Wounds of one plan, with their expectations."""
    one, zero = Dist.constant(1), Dist.constant(0)
    unsaved = Dist.bernoulli(plan.save_fail)
    dw = plan.devastating
    hits = _over_attacks(plan, one, one + plan.sustained if plan.sustained else one)
    wounds = per_wound_total(plan, one, one, one)
    crit_wounds = per_wound_total(plan, zero, one, zero)
    unsaved_d = per_wound_total(plan, unsaved, zero if dw else unsaved, unsaved)
    dw_packets = per_wound_total(plan, zero, one if dw else zero, zero)
    mortal = plan.damage.compound(dw_packets) if dw else zero
    inflicted = (unsaved_d.mean() + dw_packets.mean()) * plan.damage.mean()
    expected = {
        "attacks": plan.attacks.mean(),
        "hits": hits.mean(),
        "critical_hits": plan.attacks.mean() * (0 if plan.auto_hit else _crit_rate(plan)),
        "wounds": wounds.mean(),
        "critical_wounds": crit_wounds.mean(),
        "unsaved": unsaved_d.mean(),
        "devastating_wounds": dw_packets.mean(),
        "mortal_wounds": mortal.mean(),
        "damage_inflicted": inflicted,
        "damage_after_fnp": inflicted * (1 - plan.fnp),
    }
    return Counts(hits, wounds, crit_wounds, unsaved_d, dw_packets, mortal, expected)


def resolve(plan: AttackPlan) -> AttackResult:
    """Exact expectations and distributions for one plan."""
    counts = count(plan)
    unsaved = Dist.bernoulli(plan.save_fail)
    spill = plan.devastating_spill and plan.devastating
    code = Dist.constant(SPILL if spill else 1)
    # Without Devastating Wounds a critical wound is saved like any other: the packets are the unsaved wounds.
    packets = per_wound_total(plan, unsaved, code, unsaved) if plan.devastating else counts.unsaved
    dealt = allocate(
        packets,
        plan.damage,
        plan.target_models,
        plan.target_wounds,
        plan.fnp,
        plan.wounds_taken,
        spill=code if spill else None,
    )
    taken = plan.wounds_taken
    damage = dealt.map(lambda d: d - taken)
    destroyed = dealt.map(lambda d: d // plan.target_wounds)
    expected = {**counts.expected, "damage": damage.mean(), "models_destroyed": destroyed.mean()}
    expected.update(plan.extra)
    distributions = {
        "attacks": plan.attacks,
        "hits": counts.hits,
        "wounds": counts.wounds,
        "unsaved": counts.unsaved,
        "mortal_wounds": counts.mortal,
        "damage": damage,
        "models_destroyed": destroyed,
    }
    return AttackResult(plan.edition, expected, distributions, plan.steps + _allocation_steps(plan, expected))


def _crit_rate(plan: AttackPlan) -> Fraction:
    """Expected critical hits per attack, with a single re-roll counted through the pool identity."""
    if not plan.hit_single:
        return plan.hit[2]
    fail, normal, crit = plan.hit
    crits = _single_pool(fail, _branches((normal, Dist.constant(0)), (crit, Dist.constant(1))), plan.attacks)
    return crits.mean() / plan.attacks.mean() if plan.attacks.mean() else Fraction(0)


def _allocation_steps(plan: AttackPlan, expected: dict[str, Fraction]) -> tuple[Step, ...]:
    return (
        Step(
            "damage",
            "Allocate and inflict damage",
            f"Each unsaved wound deals {plan.damage_text()} to one model of {plan.target_wounds} wound(s); a model "
            "that has lost wounds takes the next attack, and damage beyond what it has left is lost.",
            plan.allocation_cites,
            {
                "damage": str(expected["damage"]),
                "models_destroyed": str(expected["models_destroyed"]),
            },
        ),
    )
