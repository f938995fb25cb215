"""A brute-force oracle for small attack profiles: every face of every die, one die at a time.

Written from the rule text, independently of the engine's generating-function algebra: dice pools
are enumerated face by face (identical partial results are merged, which keeps it fast without
changing what is enumerated), damage is applied one point at a time to the model the rules pick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

FACES = range(1, 7)
SIXTH = Fraction(1, 6)
Spec = dict[str, Any]
Counts = dict[Any, Fraction]


def add(acc: Counts, key: Any, p: Fraction) -> None:
    acc[key] = acc.get(key, Fraction(0)) + p


def die_values(expr: str | int) -> list[tuple[int, Fraction]]:
    """Faces of a small dice expression: an int, 'D3' (a halved D6), 'D6', 'D6+2', '2D3'…"""
    if isinstance(expr, int):
        return [(expr, Fraction(1))]
    text = expr.upper()
    plus = 0
    if "+" in text:
        text, extra = text.split("+")
        plus = int(extra)
    count_text, sides_text = text.split("D")
    count = int(count_text or 1)
    sides = int(sides_text)
    results: Counts = {0: Fraction(1)}
    for _ in range(count):
        new: Counts = {}
        for total, p in results.items():
            for face in FACES:
                value = (face + 1) // 2 if sides == 3 else face
                if sides in (3, 6):
                    add(new, total + value, p * SIXTH)
        results = new
    return [(v + plus, p) for v, p in results.items()]


def one_die(classify: Callable[[int], str], reroll: Callable[[int], bool]) -> Iterator[tuple[str, Fraction]]:
    for face in FACES:
        if reroll(face):
            for again in FACES:
                yield classify(again), SIXTH * SIXTH
        else:
            yield classify(face), SIXTH


def pool(n: int, classify: Callable[[int], str], reroll: Callable[[int], bool], single: bool) -> Counts:
    """Outcome counts (fails, successes, criticals) of ``n`` dice; ``single``: one failed die re-rolled."""
    states: Counts = {(0, 0, 0): Fraction(1)}
    for _ in range(n):
        new: Counts = {}
        for (f, s, c), p in states.items():
            for outcome, q in one_die(classify, reroll):
                add(new, (f + (outcome == "F"), s + (outcome == "S"), c + (outcome == "C")), p * q)
        states = new
    if single:
        new = {}
        for (f, s, c), p in states.items():
            if f == 0:
                add(new, (f, s, c), p)
                continue
            for face in FACES:
                outcome = classify(face)
                add(new, (f - 1 + (outcome == "F"), s + (outcome == "S"), c + (outcome == "C")), p * SIXTH)
        states = new
    return states


def policy(name: str, classify: Callable[[int], str], fails_up_to: int, target: int | None) -> Callable[[int], bool]:
    if name == "ones":
        return lambda f: f == 1
    if name == "failed":
        return lambda f: classify(f) == "F"
    if name == "failed-unmodified":
        return lambda f: classify(f) != "C" and (f <= fails_up_to or target is None or f < target)
    if name == "noncrit":
        return lambda f: classify(f) != "C"
    return lambda f: False


def sum_of(n: int, expr: str | int) -> Counts:
    out: Counts = {0: Fraction(1)}
    for _ in range(n):
        new: Counts = {}
        for total, p in out.items():
            for v, q in die_values(expr):
                add(new, total + v, p * q)
        out = new
    return out


def apply_packets(states: Counts, packets: int, damage: str | int, fnp: int | None, wounds: int, dead: int,
                  spill: bool, mortal: bool) -> Counts:
    """States (dealt, mortal wounds inflicted) after ``packets`` packets of ``damage``, point by point.

    ``mortal``: the packets are Devastating Wounds' mortal wounds (counted, whether or not they land)."""
    for _ in range(packets):
        new: Counts = {}
        for (dealt, inflicted), p in states.items():
            for dmg, q in die_values(damage):
                points: Counts = {(dealt, False): p * q}
                for _ in range(dmg):
                    step: Counts = {}
                    for (d, done), r in points.items():
                        if done or d >= dead:
                            add(step, (d, done), r)
                            continue
                        for face in FACES:
                            if fnp is not None and face >= fnp:
                                add(step, (d, done), r * SIXTH)
                            else:
                                nd = d + 1
                                # a destroyed model ends this packet unless its damage spills over
                                add(step, (nd, (nd % wounds == 0) and not spill), r * SIXTH)
                    points = step
                for (d, _), r in points.items():
                    add(new, (d, inflicted + (dmg if mortal else 0)), r)
        states = new
    return states


def oracle10(spec: Spec) -> dict[str, Counts]:
    models, wounds, taken = spec["models"], spec["wounds"], spec["taken"]
    dead = models * wounds
    ranged = not spec["melee"]
    unseen = spec["indirect"] and not spec["visible"] and ranged
    # hit roll
    hit_mod = spec["hit_mod"] + (1 if spec["heavy"] and spec["stationary"] and ranged else 0) - (1 if unseen else 0)
    hit_mod = max(-1, min(1, hit_mod))
    hit_fails = 3 if unseen else 1

    def hit_classify(f: int) -> str:
        if f <= hit_fails:
            return "F"
        if f == 6:
            return "C"
        if spec["overwatch"]:
            return "F"
        return "S" if f + hit_mod >= spec["skill"] else "F"

    # wound roll
    s, t = spec["strength"], spec["toughness"]
    need = 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5
    wound_mod = max(-1, min(1, spec["wound_mod"] + (1 if spec["lance"] and spec["charged"] else 0)))
    crit_wound = spec["anti"] or 6

    def wound_classify(f: int) -> str:
        if f == 1:
            return "F"
        if f >= crit_wound:
            return "C"
        return "S" if f + wound_mod >= need else "F"

    # save
    cover = spec["cover"] or unseen
    if spec["ignores_cover"] or not ranged or (spec["save"] is not None and spec["save"] <= 3 and spec["ap"] == 0):
        cover = False

    def pass_armour(f: int) -> bool:
        return spec["save"] is not None and f != 1 and f + min(spec["ap"] + (1 if cover else 0), 1) >= spec["save"]

    def pass_invuln(f: int) -> bool:
        return spec["invuln"] is not None and f != 1 and f >= spec["invuln"]

    armour_p = sum(SIXTH for f in FACES if pass_armour(f))
    invuln_p = sum(SIXTH for f in FACES if pass_invuln(f))
    save_ok = pass_invuln if invuln_p > armour_p else pass_armour
    save_reroll = policy(spec["save_reroll"], lambda f: "S" if save_ok(f) else "F", 1, None)

    hit_reroll = policy(spec["hit_reroll"], hit_classify, hit_fails, None if spec["overwatch"] else spec["skill"])
    wound_policy = spec["wound_reroll"]
    if spec["twin"] and wound_policy == "none":
        wound_policy = "failed"
    wound_reroll = policy(wound_policy, wound_classify, 1, need)

    # attacks
    per_model = spec["attacks"]
    bonus = (spec["rapid_fire"] if spec["half_range"] else 0) + (models // 5 if spec["blast"] else 0)
    attacks: Counts = {}
    for a, p in sum_of(spec["attackers"], per_model).items():
        add(attacks, a + bonus * spec["attackers"], p)
    damage: str | int = spec["damage"]
    if spec["melta"] and spec["half_range"]:
        damage = f"{damage}+{spec['melta']}" if isinstance(damage, str) else damage + spec["melta"]

    out: dict[str, Counts] = {k: {} for k in ("hits", "wounds", "unsaved", "mortal_wounds", "damage", "models_destroyed")}
    for n, pa in attacks.items():
        if spec["torrent"]:
            hit_states: Counts = {(0, n, 0): Fraction(1)}
        else:
            hit_states = pool(n, hit_classify, hit_reroll, spec["hit_reroll"] == "single")
        for (_, hn, hc), ph in hit_states.items():
            extras = sum_of(hc, spec["sustained"]) if spec["sustained"] and not spec["torrent"] else {0: Fraction(1)}
            for extra, px in extras.items():
                lethal = hc if spec["lethal"] and not spec["torrent"] else 0
                dice = hn + (hc - lethal) + extra
                for (_, wn, wc), pw in pool(dice, wound_classify, wound_reroll, wound_policy == "single").items():
                    dw = wc if spec["dev"] else 0
                    saveable = wn + lethal + (wc - dw)
                    unsaved_states = pool(saveable, lambda f: "S" if save_ok(f) else "F", save_reroll, False)
                    for (u, _, _), ps in unsaved_states.items():
                        p = pa * ph * px * pw * ps
                        states = apply_packets({(taken, 0): Fraction(1)}, u, damage, spec["fnp"], wounds, dead,
                                               False, False)
                        if dw:
                            states = apply_packets(states, dw, damage, spec["fnp"], wounds, dead, spec["spill"], True)
                        for (d, mortal), q in states.items():
                            add(out["damage"], d - taken, p * q)
                            add(out["models_destroyed"], d // wounds, p * q)
                            add(out["mortal_wounds"], mortal, p * q)
                        add(out["hits"], hn + hc + extra, p)
                        add(out["wounds"], wn + wc + lethal, p)
                        add(out["unsaved"], u, p)
    return {k: {v: p for v, p in d.items() if p} for k, d in out.items()}


def oracle6(spec: Spec) -> dict[str, Counts]:
    """6th edition: hit by WS comparison or BS, wound chart, the single best save, one wound per unsaved wound."""
    melee = spec["melee"]
    if melee:
        bonus = (1 if spec["charged"] else 0) + (1 if spec["two_weapons"] else 0)
        att, dws = spec["skill"], spec["defender_ws"]
        need = 1 if dws == 0 else 3 if att > dws else 5 if dws > 2 * att else 4
        if att == 0:
            need = 7
    else:
        bonus = 0
        bs = spec["skill"]
        need = 6 if spec["snap"] else 7 if bs <= 0 else max(2, 7 - bs)
    hit_policy = spec["hit_reroll"]
    if spec["twin"] and hit_policy == "none":
        hit_policy = "failed"

    def hit_faces() -> Iterator[tuple[bool, Fraction]]:
        for face in FACES:
            ok = face >= need
            high_bs = not melee and not spec["snap"] and spec["skill"] >= 6
            again = (hit_policy == "ones" and face == 1) or (hit_policy == "failed" and not ok)
            if not ok and high_bs and not again:
                for second in FACES:  # BS 6+: a 1 may be re-rolled, hitting on (12 - BS)+
                    yield second >= 12 - min(spec["skill"], 10), SIXTH * SIXTH
            elif again:
                for second in FACES:
                    yield second >= need, SIXTH * SIXTH
            else:
                yield ok, SIXTH

    diff = spec["strength"] - spec["toughness"]
    wound_need = 2 if diff >= 2 else 3 if diff == 1 else 4 if diff == 0 else 5 if diff == -1 else 6 if diff >= -3 else 7
    saves = []
    if spec["save"] is not None and (spec["ap"] is None or spec["ap"] > spec["save"]):
        saves.append(spec["save"])
    if spec["cover"] is not None and not melee:
        saves.append(spec["cover"])
    if spec["invuln"] is not None:
        saves.append(spec["invuln"])
    save_need = min(saves) if saves else 7

    def wound_faces() -> Iterator[tuple[bool, Fraction]]:
        for face in FACES:
            ok = face >= wound_need
            again = (spec["wound_reroll"] == "ones" and face == 1) or (spec["wound_reroll"] == "failed" and not ok)
            if again:
                for second in FACES:
                    yield second >= wound_need, SIXTH * SIXTH
            else:
                yield ok, SIXTH

    def count(n: int, faces: Callable[[], Iterator[tuple[bool, Fraction]]]) -> Counts:
        out: Counts = {0: Fraction(1)}
        for _ in range(n):
            new: Counts = {}
            for k, p in out.items():
                for ok, q in faces():
                    add(new, k + ok, p * q)
            out = new
        return out

    def save_faces() -> Iterator[tuple[bool, Fraction]]:
        for face in FACES:
            yield face < save_need, SIXTH

    models, wounds = spec["models"], spec["wounds"]
    out: dict[str, Counts] = {k: {} for k in ("hits", "wounds", "unsaved", "damage", "models_destroyed")}
    for n, pa in sum_of(spec["attackers"], spec["attacks"]).items():
        for hits, ph in count(n + bonus * spec["attackers"], hit_faces).items():
            for w, pw in count(hits, wound_faces).items():
                for u, pu in count(w, save_faces).items():
                    p = pa * ph * pw * pu
                    dealt = min(u, models * wounds)
                    add(out["hits"], hits, p)
                    add(out["wounds"], w, p)
                    add(out["unsaved"], u, p)
                    add(out["damage"], dealt, p)
                    add(out["models_destroyed"], dealt // wounds, p)
    return {k: {v: p for v, p in d.items() if p} for k, d in out.items()}
