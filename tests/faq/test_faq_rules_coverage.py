"""Questions on the rules the third FAQ round covered (army muster, mission sequence, terrain
features, 6th/7th-edition and Kill Team details), written for measuring and never copied into
faq.toml: the matcher finds the entry that answers each."""

from __future__ import annotations

from kb.faq import DEFAULT_THRESHOLD, load_faq, match_faq

ENTRIES = load_faq()
BY_ID = {entry.id: entry for entry in ENTRIES}

#: (question, edition, id of the entry that answers it) — held out of faq.toml.
HELD_OUT: tuple[tuple[str, str, str], ...] = (
    ("какую модель назначить военачальником армии", "10", "10e-warlord"),
    ("на каком расстоянии друг от друга ставятся маркеры целей", "10", "10e-objective-placement"),
    ("атакующий первым расставляет свои отряды?", "10", "10e-deploy-armies"),
    ("кто делает первый ход после расстановки", "10", "10e-attacker-first-turn"),
    ("воронка от снаряда даёт кавер пехоте?", "10", "10e-craters"),
    ("получает ли дредноут укрытие в кратере", "10", "10e-craters"),
    ("можно ли поставить холм и встать на нём моделью", "10", "10e-hills"),
    ("может ли урон стать нулём после модификаторов", "10", "10e-characteristic-minimums"),
    ("можно ли взять в армию несколько детачментов", "10", "10e-detachment-rules"),
    ("в каком порядке идут фазы хода", "10", "10e-battle-round"),
    ("эффект до следующего хода действует после высадки из транспорта?", "10", "10e-lasting-effects"),
    ("стратагема выставляет отряд в трёх дюймах от врага, это ещё работает?", "10", "10e-stratagem-setup-distance"),
    ("считается ли ранение от психического оружия психической атакой", "10", "10e-psychic"),
    ("можно ли взять юнит без ключевого слова моей фракции", "10", "10e-army-faction"),
    ("кто выбирает миссию, если мы не договорились", "10", "10e-mission-choice"),
    ("когда отряд полностью виден", "10", "10e-fully-visible"),
    ("в каком порядке разыгрывать правила перед первым раундом", "10", "10e-pre-battle-rules"),
    ("когда объявлять, какой лидер в каком отряде и кто в резерве", "10", "10e-battle-formations"),
    ("где посмотреть стоимость отряда в очках", "10", "10e-battle-size"),
    ("можно ли ставить маркер цели на элемент ландшафта", "10", "10e-objective-on-terrain"),
    ("можно ли закончить движение на обломках", "10", "10e-battlefield-debris"),
    ("все модели цели погибли вне дальности, остальные выстрелы пропадают?", "10", "10e-ranged-attacks-out-of-range"),
    ("что значит управляющий игрок", "6", "6e-controlling-player"),
    ("что означает бросок D6+1", "6", "6e-modified-dice"),
    ("танк сам по себе считается боевой единицей?", "6", "6e-single-model-unit"),
    ("линия видимости из глаз модели", "6", "6e-models-eye-view"),
    ("тест на опасный ландшафт при нападении", "6", "6e-charge-dangerous-terrain"),
    ("отряд в рукопашной проверяет залегание от стрельбы?", "6", "6e-locked-units-shooting-morale"),
    ("сближение после подведения итогов боя", "6", "6e-pile-in-end-of-combat"),
    ("спецправила пехоты с реактивными ранцами", "7", "7e-jet-pack-units"),
    ("может ли персонаж в артиллерийском расчёте стрелять из пушки", "7", "7e-artillery-independent-character"),
    ("какие спецправила у монструозных созданий", "7", "7e-monstrous-creature-rules"),
    ("сколько длится игра в киллтим", "kt", "kt-game-length"),
)


def test_held_out_rule_questions_are_found() -> None:
    """Most questions find their entry first, nearly all within the top 3, and confidently."""
    assert all(want in BY_ID for _, _, want in HELD_OUT)
    assert len({question for question, _, _ in HELD_OUT}) == len(HELD_OUT)
    first = top3 = confident = 0
    misses: list[str] = []
    for question, edition, want in HELD_OUT:
        ranked = match_faq(question, ENTRIES, edition=edition, limit=3)
        ids = [entry.id for entry, _ in ranked]
        top3 += want in ids
        if ids and ids[0] == want:
            first += 1
            confident += ranked[0][1] >= DEFAULT_THRESHOLD
        else:
            misses.append(f"{question!r} -> {ids}, want {want}")
    total = len(HELD_OUT)
    assert first / total >= 0.75, f"top-1 {first}/{total}; misses:\n" + "\n".join(misses)
    assert top3 / total >= 0.9, f"top-3 {top3}/{total}; misses:\n" + "\n".join(misses)
    assert confident / first >= 0.9, f"only {confident} of {first} right answers reach the threshold"
