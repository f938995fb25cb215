"""Engine speed: exact damage distributions against a seeded Monte Carlo estimate (prints figures only).

    .venv/bin/python benchmarks/engine.py [--repeat 20] [--trials 100000]

The headline profile: 40 attacks (20 models, Rapid Fire 1 at half range), BS 3+, S5 AP-1 D2, Sustained
Hits 1, Lethal Hits and Devastating Wounds, against 10 models of T4 Sv3+ W3 with Feel No Pain 6+.
The exact engine is timed (median of ``--repeat`` runs); beside it a 100,000-trial simulation that
rolls every die (``random.Random(42)``) is timed and compared with the exact distribution.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulekb.engine.calc import calculate

HEADLINE: dict[str, Any] = {
    "edition": "10",
    "attacker": {"models": 20},
    "weapon": {"attacks": 1, "skill": 3, "strength": 5, "ap": -1, "damage": 2,
               "abilities": ["rapid-fire 1", "sustained-hits 1", "lethal-hits", "devastating-wounds"]},
    "defender": {"models": 10, "toughness": 4, "save": 3, "wounds": 3, "fnp": 6},
    "situation": {"half_range": True},
}

MORE: dict[str, dict[str, Any]] = {
    "40 attacks D3 damage, FNP 5+, anti-infantry 4+": {
        "edition": "10",
        "weapon": {"attacks": 40, "skill": 3, "strength": 4, "ap": -2, "damage": "D3",
                   "abilities": ["anti-infantry 4+", "devastating-wounds", "sustained-hits 2"]},
        "defender": {"models": 10, "toughness": 4, "save": 3, "wounds": 2, "fnp": 5, "keywords": ["INFANTRY"]},
    },
    "D6 attacks x 10 models, D6+2 Melta, 6 vehicles W12": {
        "edition": "10",
        "attacker": {"models": 10},
        "weapon": {"attacks": "D6", "skill": 4, "strength": 9, "ap": -4, "damage": "D6",
                   "abilities": ["melta 2", "twin-linked"]},
        "defender": {"models": 6, "toughness": 10, "save": 3, "wounds": 12, "invulnerable": 5},
        "situation": {"half_range": True},
    },
    "6th edition: 30 bolter shots, BS4, vs 10 T4 Sv3+": {
        "edition": "6",
        "attacker": {"models": 15},
        "weapon": {"attacks": 2, "skill": 4, "strength": 4, "ap": 5},
        "defender": {"models": 10, "toughness": 4, "save": 3, "wounds": 1},
    },
}


def time_exact(profile: dict[str, Any], repeat: int) -> tuple[float, dict[str, Any]]:
    times = []
    result: dict[str, Any] = {}
    for _ in range(repeat):
        start = time.perf_counter()
        result = calculate(profile)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def simulate(trials: int, seed: int = 42) -> tuple[float, dict[int, int], int]:
    """Roll every die of the headline profile ``trials`` times; returns (seconds, damage counts, total)."""
    rng = Random(seed)
    d6 = rng.randint
    wounds, dead = 3, 30  # 10 models of 3 wounds
    counts: dict[int, int] = {}
    total_damage = 0
    start = time.perf_counter()
    for _ in range(trials):
        saveable = 0  # wounds that allow a save (normal wounds and Lethal Hits' automatic wounds)
        devastating = 0
        for _attack in range(40):
            hit = d6(1, 6)
            if hit == 6:  # critical: Lethal Hits wounds automatically; Sustained Hits 1 adds one hit
                saveable += 1
                rolls = 1
            elif hit >= 3:
                rolls = 1
            else:
                continue
            for _ in range(rolls):
                wound = d6(1, 6)
                if wound == 6:
                    devastating += 1
                elif wound >= 3:  # S5 against T4
                    saveable += 1
        unsaved = sum(1 for _ in range(saveable) if d6(1, 6) < 4)  # Sv3+ with AP-1: 4+ saves
        dealt = 0
        for _ in range(unsaved + devastating):  # damage 2, FNP 6+, excess lost
            if dealt >= dead:
                break
            left = wounds - dealt % wounds
            lost = sum(1 for _ in range(2) if d6(1, 6) < 6)
            dealt += lost if lost < left else left
        counts[dealt] = counts.get(dealt, 0) + 1
        total_damage += dealt
    return time.perf_counter() - start, counts, total_damage


MIXED: dict[str, Any] = {
    "edition": "10",
    "weapons": [
        {"name": "bolt rifles", "models": 10, "attacks": 2, "skill": 3, "strength": 4, "ap": -1, "damage": 1},
        {"name": "plasma", "models": 2, "attacks": 1, "skill": 3, "strength": 8, "ap": -3, "damage": 2,
         "abilities": ["rapid-fire 1"]},
    ],
    "defender": {"toughness": 4, "groups": [{"models": 9, "save": 3, "wounds": 2},
                                            {"models": 1, "save": 2, "wounds": 5, "invulnerable": 4, "fnp": 5}]},
    "situation": {"half_range": True},
}


def time_batch(count: int = 100) -> tuple[float, int]:
    """Wall time of one ``rulekb calc --batch`` process over ``count`` profiles (start-up included)."""
    import json
    import subprocess
    import tempfile

    rulekb = Path(sys.executable).with_name("rulekb")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
        for n in range(count):
            profile = {**MORE[next(iter(MORE))], "id": n}
            profile["weapon"] = {**profile["weapon"], "attacks": 1 + n % 20}
            handle.write(json.dumps(profile) + "\n")
    start = time.perf_counter()
    done = subprocess.run([str(rulekb), "calc", "--batch", handle.name], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    Path(handle.name).unlink()
    return seconds, len(done.stdout.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--trials", type=int, default=100_000)
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}; exact timings are the median of {args.repeat} runs.")
    seconds, result = time_exact(HEADLINE, args.repeat)
    exact = {v: Fraction(p) for v, p in result["distributions"]["damage"]}
    mean = Fraction(result["expected_exact"]["damage"])
    print("\nHeadline: 40 attacks (Rapid Fire), Sustained Hits 1 + Lethal Hits + Devastating Wounds, "
          "vs 10 x T4 Sv3+ W3 FNP 6+")
    print(f"  exact   {seconds * 1000:8.2f} ms   E[damage] = {float(mean):.6f}  "
          f"E[models destroyed] = {result['expected']['models_destroyed']:.6f}  ({len(exact)} damage values)")
    sim_seconds, counts, total = simulate(args.trials)
    est = total / args.trials
    worst = max(abs(counts.get(v, 0) / args.trials - float(p)) for v, p in exact.items())
    print(f"  monte carlo {args.trials:,} trials {sim_seconds * 1000:9.1f} ms   E[damage] = {est:.6f} "
          f"(error {est - float(mean):+.6f}); largest error of one P(damage = k): {worst:.6f}")
    print(f"  exact is {sim_seconds / seconds:,.0f} times faster and has no sampling error.")

    print("\nOther profiles (exact):")
    for name, profile in MORE.items():
        seconds, result = time_exact(profile, args.repeat)
        print(f"  {seconds * 1000:8.2f} ms  {name}: E[damage] = {result['expected']['damage']:.4f}, "
              f"E[destroyed] = {result['expected']['models_destroyed']:.4f}")
    seconds, result = time_exact(MIXED, args.repeat)
    print(f"  {seconds * 1000:8.2f} ms  two weapons (bolt rifles, then plasma) vs 9 Intercessors and a Captain "
          f"(2+, 4++, FNP 5+): E[damage] = {result['expected']['damage']:.4f}, "
          f"E[destroyed] = {result['expected']['models_destroyed']:.4f}")

    seconds, lines = time_batch()
    print(f"\nrulekb calc --batch: {lines} profiles in one process, {seconds:.2f} s wall (start-up included)")


if __name__ == "__main__":
    main()
