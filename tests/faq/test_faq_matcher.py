"""The matcher: each phrasing finds its entry, unrelated questions stay below the threshold,
held-out paraphrases are found, and it is fast."""

from __future__ import annotations

import pytest

from rulekb.kb.faq.entries import DEFAULT_THRESHOLD, FaqCitation, FaqEntry, FaqMatcher, load_faq, match_faq

ENTRIES = load_faq()
BY_ID = {entry.id: entry for entry in ENTRIES}
EDITIONS = sorted({entry.edition for entry in ENTRIES})

#: Questions written for measuring the matcher and never copied into the FAQ files (held out):
#: (question, edition, id of the entry that answers it).
HELD_OUT: tuple[tuple[str, str, str], ...] = (
    ("Можно ли после фолбэка стрелять из болтеров?", "10", "10e-fall-back-shoot-charge"),
    ("Перебрасывается ли кубик дважды, если у меня два реролла?", "10", "10e-reroll-twice"),
    ("инвуль игнорирует бронебойность AP -3?", "10", "10e-invulnerable-save"),
    ("ФНП работает против смертельных ран?", "10", "10e-feel-no-pain"),
    ("когда мой отряд должен проверять боевой шок", "10", "10e-battle-shock-test"),
    ("отряд в боевом шоке может держать точку?", "10", "10e-battle-shock-effects"),
    ("сколько стоит овервотч и сколько раз за ход его можно применять", "10", "10e-fire-overwatch"),
    ("можно ли стрелять во врага, который дерётся с моим отрядом", "10", "10e-locked-in-combat"),
    ("мой танк в зоне поражения, он может стрелять?", "10", "10e-big-guns-never-tire"),
    ("какой модификатор на попадание максимальный в десятке", "10", "10e-hit-modifier-cap"),
    ("Что такое консолидация и на сколько дюймов", "10", "10e-consolidate"),
    ("На сколько дюймов двигаться в pile in", "10", "10e-pile-in"),
    ("с какого раунда можно выводить стратегический резерв", "10", "10e-strategic-reserves-arrival"),
    (
        "можно ли высадиться из транспорта после того как он проехал и сразу чарджить",
        "10",
        "10e-disembark-after-move",
    ),
    ("сколько раз за фазу можно использовать одну стратагему", "10", "10e-stratagem-once-per-phase"),
    ("добавляет ли укрытие к инвулю", "10", "10e-cover"),
    ("на каком расстоянии от врага ставить глубокий удар", "10", "10e-deep-strike"),
    ("перекидывают ли весь 2D6 на чардже или только один кубик", "10", "10e-reroll-2d6"),
    ("на сколько увеличивается урон у мельты вблизи", "10", "10e-melta"),
    ("как работает бласт против больших отрядов", "10", "10e-blast"),
    ("какая дальность у гранаты", "10", "10e-grenade"),
    ("как стрелять по отряду, который не видно, непрямой наводкой", "10", "10e-indirect-fire"),
    ("сколько CP игрок получает в начале фазы командования", "10", "10e-command-points"),
    ("обязательно ли ставить модели база в базу после чарджа", "10", "10e-charge-move"),
    ("сколько моделей нужно для когеренси с двумя соседями", "10", "10e-unit-coherency"),
    ("в 6-й редакции можно ли перебросить переброс", "6", "6e-reroll-twice"),
    ("как кидать D3 в шестой", "6", "6e-d3"),
    ("дубль 1 на лидерство всегда успех?", "6", "6e-leadership-double-one"),
    ("овервотч в 6-й стреляет на вскидку?", "6", "6e-overwatch"),
    ("как определить кто выиграл рукопашную", "6", "6e-combat-result"),
    ("стремительное продвижение как считать", "6", "6e-sweeping-advance"),
    ("на сколько дюймов консолидация после победы в 6-ке", "6", "6e-consolidation"),
    ("берегитесь сэр на сколько нужно выкинуть", "6", "6e-look-out-sir"),
    ("чардж через трудный ландшафт 3D6", "6", "6e-charge-difficult-terrain"),
    ("случайный выбор модели из пяти", "6", "6e-random-selection"),
    ("сколько атак даёт нападение и два пистолета", "6", "6e-attacks-bonus"),
    ("на сколько отступают байки", "7", "7e-fall-back-3d6"),
    ("перегруппировка если осталось мало моделей", "7", "7e-regroup"),
    ("прыжковый ранец можно ли использовать дважды за ход", "7", "7e-jump-once-per-turn"),
    ("турбобуст гравицикла сколько дюймов", "7", "7e-turbo-boost"),
    ("монстр стреляет из двух оружий?", "7", "7e-monstrous-creature-shooting"),
    ("в килл тим соседние модели стреляют овервотчем?", "kt", "kt-overwatch"),
    ("контрчардж в kill team нужен тест лидерства?", "kt", "kt-counter-charge"),
    ("поддерживающая атака это сколько атак", "kt", "kt-supporting-attacks"),
    ("какой размер поля в kill team", "kt", "kt-table"),
    ("знамя даёт бонус к результату боя?", "kt", "kt-banner"),
)

#: The same for the rules the third FAQ round covered (army muster, mission sequence, terrain
#: features, 6th/7th-edition and Kill Team details).
RULES_HELD_OUT: tuple[tuple[str, str, str], ...] = (
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

#: Questions no entry answers: everyday topics and hobby questions outside the rules.
UNRELATED: tuple[str, ...] = (
    "как приготовить борщ",
    "какая завтра погода в Москве",
    "what is the weather like today",
    "рецепт пиццы с грибами",
    "сколько стоит билет на поезд",
    "как доехать до вокзала",
    "who won the football match yesterday",
    "как покрасить броню космодесантника",
    "где купить клей для пластика",
    "посоветуй хороший фильм на вечер",
)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_every_phrasing_finds_its_entry_first(entry: FaqEntry) -> None:
    for phrasing in (entry.question, *entry.variants):
        results = match_faq(phrasing, ENTRIES, edition=entry.edition)
        assert results, f"{entry.id}: nothing matched {phrasing!r}"
        best, score = results[0]
        assert best.id == entry.id, f"{phrasing!r} -> {best.id} ({score}), want {entry.id}"
        assert score >= DEFAULT_THRESHOLD


@pytest.mark.parametrize("question", UNRELATED)
def test_unrelated_questions_score_below_threshold(question: str) -> None:
    for edition in (None, *EDITIONS):
        results = match_faq(question, ENTRIES, edition=edition)
        if results:
            entry, score = results[0]
            assert score < DEFAULT_THRESHOLD, f"{question!r} -> {entry.id} scored {score}"


#: A "held-out" question sharing this share of its words (lemmas) with a phrasing of the entry it
#: tests copies that phrasing: it measures nothing and is left out of the held-out figures.
COPY_SHARE = 0.75


def _words(text: str) -> frozenset[str]:
    from rulekb.kb.faq.entries import faq_terms as _terms

    return frozenset(t for t in _terms(text) if not t.startswith("~"))


def copies_a_phrasing(question: str, entry: FaqEntry) -> bool:
    """Whether ``question`` shares at least :data:`COPY_SHARE` of its words with one of ``entry``'s phrasings."""
    words = _words(question)
    if not words:
        return False
    return any(len(words & _words(p)) / len(words) >= COPY_SHARE for p in (entry.question, *entry.variants))


def truly_held_out(held_out: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str, str]]:
    return [row for row in held_out if not copies_a_phrasing(row[0], BY_ID[row[2]])]


def test_copies_of_phrasings_are_recognised() -> None:
    entry = BY_ID["10e-feel-no-pain"]
    assert copies_a_phrasing("ФНП работает против смертельных ран?", entry)
    assert not copies_a_phrasing("спасает ли шестой сейв от мортальных повреждений", entry)
    kept = truly_held_out(HELD_OUT) + truly_held_out(RULES_HELD_OUT)
    assert len(kept) >= 50, f"only {len(kept)} held-out questions do not copy a phrasing"


def test_held_out_questions_are_found() -> None:
    """Paraphrases the data never saw, both lists pooled, those copying an entry's phrasing left out
    (27 of 79; 52 remain): the right entry is first for three in four (0.75 measured), in the top 3
    for nearly all (0.96), and confidently."""
    pooled = HELD_OUT + RULES_HELD_OUT
    assert all(want in BY_ID for _, _, want in pooled)
    assert len({question for question, _, _ in pooled}) == len(pooled)
    held_out = tuple(truly_held_out(pooled))
    first = top3 = confident = 0
    misses: list[str] = []
    for question, edition, want in held_out:
        ranked = match_faq(question, ENTRIES, edition=edition, limit=3)
        ids = [entry.id for entry, _ in ranked]
        top3 += want in ids
        if ids and ids[0] == want:
            first += 1
            confident += ranked[0][1] >= DEFAULT_THRESHOLD
        else:
            misses.append(f"{question!r} -> {ids}, want {want}")
    total = len(held_out)
    assert first / total >= 0.72, f"top-1 {first}/{total}; misses:\n" + "\n".join(misses)
    assert top3 / total >= 0.9, f"top-3 {top3}/{total}; misses:\n" + "\n".join(misses)
    assert confident / first >= 0.9, f"only {confident} of {first} right answers reach the threshold"


def test_scores_are_in_unit_interval_and_sorted() -> None:
    for question, edition, _ in HELD_OUT[:10]:
        results = match_faq(question, ENTRIES, edition=edition)
        scores = [score for _, score in results]
        assert scores == sorted(scores, reverse=True)
        assert all(0.0 < score <= 1.0 for score in scores)


def test_edition_filter_keeps_only_that_edition() -> None:
    for edition in EDITIONS:
        results = match_faq("можно ли перебросить кубик дважды", ENTRIES, edition=edition)
        assert results and {entry.edition for entry, _ in results} == {edition}


def test_limit() -> None:
    assert len(match_faq("чардж", ENTRIES, limit=2)) == 2


def test_question_of_function_words_only_matches_nothing() -> None:
    assert match_faq("а как это что", ENTRIES) == []
    assert match_faq("", ENTRIES) == []


def _entry(entry_id: str, question: str, *variants: str, answer: str = "Ответ для проверки.") -> FaqEntry:
    return FaqEntry(
        id=entry_id,
        question=question,
        variants=variants,
        edition="10",
        concepts=("probe",),
        answer=answer,
        citations=(FaqCitation(source="10e-core", lines=(1, 1), quotes=("ВАХАМЕР",)),),
    )


def test_matching_ignores_inflection() -> None:
    entries = [
        _entry("10e-a", "Что такое зона поражения?", "engagement range", "дальность боя"),
        _entry("10e-b", "Как бросать кубики на попадание?", "hit roll", "ударная калитка"),
    ]
    [(best, score), *_] = FaqMatcher(entries).match("в пределах зоны поражения")
    assert best.id == "10e-a" and score > 0


def test_answer_words_reach_an_entry_its_phrasings_miss() -> None:
    entries = [
        _entry("10e-a", "Вопрос про первое?", "первое", "first", answer="Здесь упомянута мельта."),
        _entry("10e-b", "Вопрос про второе?", "второе", "second", answer="Здесь ничего такого."),
    ]
    [(best, _), *rest] = FaqMatcher(entries).match("мельта")
    assert best.id == "10e-a" and not rest


def test_rare_words_outweigh_common_ones() -> None:
    entries = [
        _entry("10e-a", "Сколько дюймов проходит отряд?", "дюймы отряда", "отряд идёт"),
        _entry("10e-b", "Сколько дюймов у мельты?", "мельта дюймы", "melta range"),
        _entry("10e-c", "Сколько дюймов у огнемёта?", "огнемёт дюймы", "flamer range"),
    ]
    [(best, _), *_] = FaqMatcher(entries).match("сколько дюймов мельта")
    assert best.id == "10e-b"
