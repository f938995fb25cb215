"""The `rulekb` subcommands, one module per area; each exposes ``COMMANDS``.

The commands are thin: they parse options, call plain functions in ``corpus``, ``kb`` or
``engine``, and print. ``webapp/cli.py`` lists the modules.
"""
