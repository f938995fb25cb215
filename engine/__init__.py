"""Exact dice mathematics for each edition of Warhammer 40,000, checked against the rulebooks' examples.

Standard library only; nothing here imports ``kb``, ``corpus`` or ``webapp``. Start with
:func:`rulekb.engine.calc.calculate` (a JSON profile in, exact expectations, distributions and cited steps
out), :func:`rulekb.engine.editions.get_edition` (``"10"``, ``"6"``, ``"7"``, ``"kt"`` and aliases) and
:mod:`rulekb.engine.compare` (the same situation under each edition). See docs/engine.md.
"""
