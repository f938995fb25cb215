"""Options several command modules share."""

from __future__ import annotations

from pathlib import Path

import click

BUILD_DIR = click.option(
    "--build-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Where the knowledge base is built (default: ./build in the project).",
)
