"""Kill Team (the 6th/7th-edition-era supplement, corpus text ``kt``) on top of the 7th edition.

Printed in the supplement: overwatch by friendly models within 3" (1–3), counter-charge after a
Leadership test (7–9), supporting attacks (13–15), combat result modifiers (19–39), Inspiring
Presence (51–53) and the random mission table (143–157).
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.editions.seventh import Seventh

__all__ = ["MISSIONS", "KillTeam"]

K = "kt"

MISSIONS = ("Escalating Skirmish", "Doomsday Device", "Take and Hold", "Possession", "Last Stand", "Raid")


class KillTeam(Seventh):
    key: ClassVar[str] = "kt"
    name: ClassVar[str] = "Kill Team (6th/7th-edition era)"
    aliases: ClassVar[tuple[str, ...]] = ("kill team", "killteam", "kill-team", "кт", "килл тим", "киллтим", "кил тим")
    sources: ClassVar[tuple[str, ...]] = (K, "7e-pp58-67", "6e-rules", "6e-assault")

    @rule("counter-charge", cite(K, 7, 9))
    def counter_charge(self, leadership: int, modifier: int = 0) -> Fraction:
        """P(a model within 3" of the charger may counter-charge): it must pass a Leadership test."""
        return self.leadership_test(leadership, modifier)

    @rule("supporting-attacks", cite(K, 13, 15))
    def supporting_attacks(self, engaged_attacks: list[int], supporting_models: int) -> int:
        """Attacks in one fight: engaged models their Attacks; each supporting model (in base contact
        with a friend in base contact with the enemy) exactly one, whatever its Attacks."""
        return sum(engaged_attacks) + supporting_models

    @rule("combat-result", cite(K, 19, 39))
    def combat_score(
        self,
        unsaved_wounds: int,
        charged: bool = False,
        counter_charged: bool = False,
        banner: bool = False,
        models: int = 1,
        enemy_models: int = 1,
    ) -> int:
        """A side's combat result: its unsaved wounds +1 for each condition (charged, counter-charged,
        a banner or standard, five times as many models as the enemy); each counts once."""
        bonus = sum(1 for c in (charged, counter_charged, banner, models >= 5 * enemy_models) if c)
        return unsaved_wounds + bonus

    @rule("inspiring-presence", cite(K, 51, 53))
    def inspiring_presence(self, own_leadership: int, leader_leadership: int, within_6: bool) -> int:
        """The Leadership a model tests on: within 6" of a model with Inspiring Presence it may use that
        model's Leadership (it takes the better)."""
        return max(own_leadership, leader_leadership) if within_6 else own_leadership

    @rule("overwatch", cite(K, 1, 3))
    def overwatch_shooters(self, distances_to_target_model: list[float]) -> int:
        """Models that fire overwatch: the charged model, plus every friendly model within 3" of it."""
        return 1 + sum(1 for d in distances_to_target_model if d <= 3)

    @rule("kill-team-mission", cite(K, 143, 157))
    def random_mission(self) -> Dist:
        """The mission rolled on the D6 table: values 1–6 index :data:`MISSIONS`."""
        return Dist.die(6)
