"""How well the engine's work estimate predicts the time of a profile; prints one line per profile.

Random profiles around the limits (many attacks, Sustained Hits, single re-rolls, Devastating Wounds,
Feel No Pain, large units) are estimated with ``rulekb.engine.limits.estimate_work``; those under the work
bound are computed and timed. The figures: the slowest accepted profile and the time per million
estimated operations. Usage: ``.venv/bin/python benchmarks/engine_limits.py [--n 60] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulekb.engine.calc import calculate, parse_profile
from rulekb.engine.errors import EngineError
from rulekb.engine.limits import WORK_MAX, estimate_work


def random_profile(rng: random.Random) -> dict[str, Any]:
    attacks = rng.choice(["1", "2", "4", "D6", "2D6", "D3+1", "10", "20", "40", "3D6"])
    abilities = []
    if rng.random() < 0.4:
        abilities.append(f"sustained-hits {rng.choice(['1', '2', '3', 'D3', 'D6'])}")
    if rng.random() < 0.3:
        abilities.append("devastating-wounds")
    if rng.random() < 0.3:
        abilities.append("lethal-hits")
    return {
        "edition": rng.choice(["10", "10", "10", "6"]),
        "attacker": {"models": rng.choice([1, 5, 10, 20, 40, 100])},
        "weapon": {"attacks": attacks, "damage": rng.choice(["1", "2", "D3", "D6", "D6+1", "2D6"]),
                   "abilities": abilities, "skill": 3},
        "defender": {"models": rng.choice([1, 5, 10, 30, 100]), "wounds": rng.choice([1, 2, 3, 10, 30]),
                     "fnp": rng.choice([None, None, 5])},
        "rerolls": {"hit": rng.choice(["none", "none", "single", "failed"]),
                    "wound": rng.choice(["none", "none", "single"])},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    worst = (0.0, 0, "")
    rates = []
    refused = 0
    for _ in range(args.n):
        data = random_profile(rng)
        if data["edition"] == "6":
            data["weapon"].pop("abilities")
            data["weapon"].pop("damage")
            data["defender"].pop("fnp")
            data["rerolls"]["wound"] = "none"
            data["rerolls"]["hit"] = "none" if data["rerolls"]["hit"] == "single" else data["rerolls"]["hit"]
        try:
            _, profile = parse_profile(data)
        except EngineError:
            refused += 1
            continue
        work = estimate_work(profile)
        if work.operations > WORK_MAX:
            refused += 1
            continue
        started = time.perf_counter()
        try:
            calculate(data)
        except EngineError:
            refused += 1
            continue
        seconds = time.perf_counter() - started
        rates.append(seconds / max(work.operations, 1) * 1e6)
        print(f"{seconds * 1000:8.1f} ms  {work.operations / 1e6:7.2f} M ops  A={work.attacks} H={work.hits} "
              f"unit={work.unit_wounds}  {data}"[:220], flush=True)
        if seconds > worst[0]:
            worst = (seconds, work.operations, str(data))
    rates.sort()
    print(f"\naccepted {len(rates)}, refused {refused}; slowest accepted {worst[0] * 1000:.0f} ms "
          f"({worst[1] / 1e6:.1f} M ops): {worst[2]}")
    if rates:
        print(f"ms per million estimated operations: median {rates[len(rates) // 2] * 1000:.0f}, "
              f"max {rates[-1] * 1000:.0f}")


if __name__ == "__main__":
    main()
