"""Engine commands: ``examples`` (the worked examples, checked against the books) and ``calc`` (one profile).

Both are thin: ``rulekb.kb.examples.worked.run_examples`` and ``rulekb.engine.calc.calculate`` do the work, and the JSON
they print is the contract documented in docs/engine.md.

The modules a command needs are imported inside it, so that ``rulekb --help`` and every other
command start without loading the index, the termbase or the engine.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from rulekb.corpus.errors import QueryError
from rulekb.engine.calc import CONTRACT_KEYS, calculate, calculate_lines
from rulekb.engine.errors import EngineError
from rulekb.kb.contracts import Example, dump_list
from rulekb.kb.contracts.calc import calc_json

__all__ = ["COMMANDS", "CalcError"]


class CalcError(QueryError):
    """A calc profile is malformed; the message names the field and the fix."""


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract (a list of example objects).")
@click.option("--id", "ids", multiple=True, metavar="ID", help="Only this example (repeatable).")
@click.option("--printed", is_flag=True, help="Only the examples printed in the books.")
@click.option("--source", "sources", multiple=True, metavar="SOURCE", help="Only examples citing this source id.")
def examples(as_json: bool, ids: tuple[str, ...], printed: bool, sources: tuple[str, ...]) -> None:
    """Run every worked example through the engine and check its quotes; exit 1 if any fails."""
    from rulekb.corpus.parser import parse_corpus
    from rulekb.kb.examples.worked import load_examples, run_examples

    chosen = load_examples()
    if ids:
        unknown = sorted(set(ids) - {e.id for e in chosen})
        if unknown:
            raise QueryError(f"Unknown example id {unknown[0]!r}; list them with `rulekb examples`.")
        chosen = [e for e in chosen if e.id in ids]
    if printed:
        chosen = [e for e in chosen if e.printed]
    if sources:
        chosen = [e for e in chosen if any(c.source in sources for c in e.citations)]
    results = run_examples(chosen, parse_corpus().nodes)
    if as_json:
        click.echo(json.dumps(dump_list(Example, results), ensure_ascii=False, indent=2, sort_keys=True))
    else:
        for item in results:
            mark = "ok  " if item["ok"] else "FAIL"
            where = ", ".join(f"{c['source']}:{c['lines'][0]}-{c['lines'][1]}" for c in item["citations"])
            click.echo(f"{mark} {item['id']:<44} {where}")
            for problem in item["problems"]:
                click.echo(f"     {problem}")
        failed = sum(1 for item in results if not item["ok"])
        click.echo(f"{len(results) - failed} of {len(results)} examples reproduce the books' numbers"
                   f"{'' if not failed else f'; {failed} failed'}.")
    if any(not item["ok"] for item in results):
        raise click.exceptions.Exit(1)


def _flags_profile(opts: dict[str, Any]) -> dict[str, Any]:
    """The JSON profile described by the command-line flags that were given."""
    profile: dict[str, Any] = {}

    def put(section: str, key: str, value: Any) -> None:
        if value is not None and value != () and value is not False:
            profile.setdefault(section, {})[key] = value

    if opts["edition"] is not None:
        profile["edition"] = opts["edition"]
    put("attacker", "models", opts["attackers"])
    put("weapon", "type", "melee" if opts["melee"] else None)
    put("weapon", "attacks", opts["attacks"])
    put("weapon", "skill", opts["bs"] if opts["bs"] is not None else opts["ws"])
    put("weapon", "strength", opts["s"])
    put("weapon", "ap", opts["ap"])
    put("weapon", "damage", opts["d"])
    put("weapon", "abilities", list(opts["abilities"]) or None)
    put("defender", "models", opts["models"])
    put("defender", "toughness", opts["t"])
    put("defender", "save", opts["sv"])
    put("defender", "wounds", opts["w"])
    put("defender", "invulnerable", opts["invuln"])
    put("defender", "fnp", opts["fnp"])
    put("defender", "keywords", list(opts["keywords"]) or None)
    put("defender", "weapon_skill", opts["target_ws"])
    put("defender", "cover_save", opts["cover_save"])
    for flag, key in (("half_range", "half_range"), ("stationary", "remained_stationary"), ("charged", "charged"),
                      ("cover", "cover"), ("overwatch", "overwatch"), ("stealth", "stealth"),
                      ("two_weapons", "two_weapons"), ("snap_shots", "snap_shots")):
        put("situation", key, True if opts[flag] else None)
    if opts["unseen"]:
        profile.setdefault("situation", {})["target_visible"] = False
    put("modifiers", "hit", opts["hit_mod"])
    put("modifiers", "wound", opts["wound_mod"])
    put("modifiers", "save", opts["save_mod"])
    put("rerolls", "hit", opts["hit_reroll"])
    put("rerolls", "wound", opts["wound_reroll"])
    put("rerolls", "save", opts["save_reroll"])
    put("options", "devastating_spill", True if opts["spill"] else None)
    return profile


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _fmt(p: Fraction) -> str:
    return f"{float(p):.4g}"


def _print_text(result: dict[str, Any]) -> None:
    exact = {k: Fraction(v) for k, v in result["expected_exact"].items()}
    click.echo(f"{result['edition_name']} (edition {result['edition']})")
    click.echo("Expected:")
    labels = {"critical_hits": "  critical hits", "critical_wounds": "  critical wounds"}
    for key in CONTRACT_KEYS:
        click.echo(f"  {labels.get(key, key.replace('_', ' ')):<22} {_fmt(exact[key]):>10}   = {exact[key]}")
    for key in sorted(set(exact) - set(CONTRACT_KEYS)):
        click.echo(f"  {key.replace('_', ' '):<22} {_fmt(exact[key]):>10}   = {exact[key]}")
    summary = result["summary"]
    click.echo(f"P(any damage) {_fmt(Fraction(summary['p_any_damage']))}; "
               f"P(at least one model destroyed) {_fmt(Fraction(summary['p_at_least_one_model_destroyed']))}; "
               f"P(unit destroyed) {_fmt(Fraction(summary['p_unit_destroyed']))}")
    click.echo("Steps:")
    for n, step in enumerate(result["steps"], start=1):
        cites = ", ".join(f"{c['source']} {c['lines'][0]}-{c['lines'][1]}" for c in step["cites"])
        click.echo(f"  {n}. [{step['concept']}] {step['title']}: {step['detail']}" + (f" ({cites})" if cites else ""))
        if step["values"]:
            click.echo("     " + ", ".join(f"{k} = {v}" for k, v in step["values"].items()))
    for name in ("hits", "damage", "models_destroyed"):
        click.echo(f"Distribution of {name.replace('_', ' ')} (value: P exact ≈ decimal):")
        for value, p in result["distributions"][name]:
            click.echo(f"  {value:>4}: {p} ≈ {_fmt(Fraction(p))}")


@click.command()
@click.option("--file", "file", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="Read the JSON profile from this file (otherwise from stdin when no flags are given).")
@click.option("--batch", "batch", type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
              help="A JSON Lines file of profiles (- for stdin): one result object per line, in one process.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract.")
@click.option("--edition", "-e", default=None, help="10, 6, 7 or kt (aliases like 10th, kill team work).")
@click.option("--attackers", type=int, default=None, help="Attacking models (each uses the weapon).")
@click.option("--attacks", "-a", default=None, help="Attacks per model: 2, D6, 2D6, D3+1…")
@click.option("--bs", type=int, default=None, help="Ballistic Skill: the 10th-edition target (3 = 3+) or 6th BS.")
@click.option("--ws", type=int, default=None, help="Weapon Skill, for melee (10th target or 6th WS).")
@click.option("--melee", is_flag=True, help="A melee weapon (hit by WS).")
@click.option("--s", type=int, default=None, help="Strength.")
@click.option("--ap", type=int, default=None, help="AP: 0 or negative in the 10th, 1-6 in the 6th/7th.")
@click.option("--d", default=None, help="Damage: 1, D3, D6+2… (10th only).")
@click.option("--t", type=int, default=None, help="Target Toughness.")
@click.option("--sv", type=int, default=None, help="Target armour save (3 = 3+; 7 = none).")
@click.option("--w", type=int, default=None, help="Target Wounds per model.")
@click.option("--models", type=int, default=None, help="Target models.")
@click.option("--invuln", type=int, default=None, help="Target invulnerable save.")
@click.option("--fnp", type=int, default=None, help="Target Feel No Pain (5 = 5+).")
@click.option("--target-ws", type=int, default=None, help="Target's WS (6th/7th melee).")
@click.option("--cover-save", type=int, default=None, help="Target's cover save (6th/7th shooting).")
@click.option("--ability", "abilities", multiple=True, help="Weapon ability, repeatable: lethal-hits, 'melta 2'…")
@click.option("--keyword", "keywords", multiple=True, help="Target keyword, repeatable (for Anti-X).")
@click.option("--half-range", is_flag=True, help="Target within half range (Rapid Fire, Melta).")
@click.option("--stationary", is_flag=True, help="The attacker remained stationary (Heavy).")
@click.option("--charged", is_flag=True, help="The attacker charged (Lance; 6th: +1 Attack).")
@click.option("--cover", is_flag=True, help="Target has the benefit of cover (10th).")
@click.option("--unseen", is_flag=True, help="No target model is visible (Indirect Fire).")
@click.option("--overwatch", is_flag=True, help="Overwatch shots.")
@click.option("--stealth", is_flag=True, help="Every target model has Stealth.")
@click.option("--two-weapons", is_flag=True, help="6th/7th: two close combat weapons (+1 Attack).")
@click.option("--snap-shots", is_flag=True, help="6th/7th: snap shots.")
@click.option("--hit-mod", type=int, default=None, help="Hit roll modifier.")
@click.option("--wound-mod", type=int, default=None, help="Wound roll modifier.")
@click.option("--save-mod", type=int, default=None, help="Save modifier.")
@click.option("--hit-reroll", default=None, help="none, ones, failed, failed-unmodified, noncrit, single.")
@click.option("--wound-reroll", default=None, help="Same choices, for the wound roll.")
@click.option("--save-reroll", default=None, help="Same choices, for the save.")
@click.option("--spill", is_flag=True, help="Devastating Wounds' mortal wounds spill over (older ruling).")
def calc(file: Path | None, batch: Path | None, as_json: bool, **opts: Any) -> None:
    """The exact outcome of one attack profile: expectations, distributions and cited steps.

    Give the profile as JSON (--file or stdin) or as flags; flags override the JSON. Example:
    rulekb calc --attackers 5 --attacks 2 --bs 3 --s 4 --ap -1 --t 4 --sv 3 --w 2 --models 10

    With --batch FILE.jsonl every line is a profile (optionally with an "id"); each prints one line
    {"line", "id", "result"} or {"line", "id", "error": {"field", "message"}}; the exit status is 1
    when any line failed.
    """
    flags = _flags_profile(opts)
    if batch is not None:
        _calc_batch(batch, flags)
        return
    base: Any = {}
    if file is not None:
        text = file.read_text(encoding="utf-8")
    elif not flags and not sys.stdin.isatty():
        text = sys.stdin.read()
    else:
        text = ""
    if text.strip():
        try:
            base = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalcError(f"calc: the profile is not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno}); "
                            "give an object like {\"edition\": \"10\", \"weapon\": {...}}.") from exc
        if not isinstance(base, dict):
            raise CalcError(f"calc: the profile must be a JSON object, got {type(base).__name__}.")
    elif not flags:
        raise CalcError("calc: no profile given; pipe JSON to stdin, use --file, or give flags like "
                        "--attacks 2 --bs 3 --s 4 --t 4 --sv 3.")
    profile = _merge(base, flags)
    profile.setdefault("edition", "10")
    try:
        result = calculate(profile)
    except EngineError as exc:
        raise CalcError(f"calc: {exc}") from exc
    if as_json:
        click.echo(json.dumps(calc_json(result), ensure_ascii=False, indent=2))
    else:
        _print_text(result)


def _calc_batch(path: Path, flags: dict[str, Any]) -> None:
    if flags:
        raise CalcError("calc: --batch reads whole profiles from the file; drop the other flags.")
    if str(path) == "-":
        lines = sys.stdin
    else:
        try:
            lines = path.open(encoding="utf-8")
        except OSError as exc:
            raise CalcError(f"calc: cannot read {str(path)!r} ({exc.strerror}); give a JSON Lines file.") from exc
    failed = False
    try:
        for out in calculate_lines(lines):
            failed = failed or "error" in out
            if "result" in out:
                out["result"] = calc_json(out["result"])
            click.echo(json.dumps(out, ensure_ascii=False, separators=(",", ":")))
    except UnicodeDecodeError as exc:
        raise CalcError(f"calc: {str(path)!r} is not UTF-8 text ({exc.reason}); save it as UTF-8.") from exc
    finally:
        if lines is not sys.stdin:
            lines.close()
    if failed:
        raise click.exceptions.Exit(1)


COMMANDS: list[click.Command] = [examples, calc]
