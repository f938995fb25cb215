"""The `rulekb` command line: a click group over the per-area command modules."""

from __future__ import annotations

import importlib

import click

__all__ = ["main"]

#: Modules under ``rulekb.webapp.commands`` whose ``COMMANDS`` are added to the group, in help order.
COMMAND_MODULES: tuple[str, ...] = (
    "corpus",
    "engine",
    "graph",
    "search",
    "terms",
    "web",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="rulekb")
def main() -> None:
    """rulekb: a cross-edition rules knowledge base for Russian Warhammer 40,000 rulebooks.

    Build it once with `rulekb build`, then search, ask, compare and calculate.
    """


for _name in COMMAND_MODULES:
    _module = importlib.import_module(f"rulekb.webapp.commands.{_name}")
    for _command in _module.COMMANDS:
        main.add_command(_command)
