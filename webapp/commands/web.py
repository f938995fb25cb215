"""Web commands: serve.

The modules a command needs are imported inside it, so that ``rulekb --help`` and every other
command start without loading the index, the termbase or the engine."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["COMMANDS", "serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option(
    "--build-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="The knowledge base to serve (default: ./build in the project).",
)
@click.option("--debug", is_flag=True, help="Reload on code changes and show the debugger (never in production).")
def serve(host: str, port: int, build_dir: Path | None, debug: bool) -> None:
    """Serve the web app (development server); builds the knowledge base first if it is missing.

    For production run gunicorn: gunicorn -w 2 -b 127.0.0.1:8000 'rulekb.webapp:create_app()'.
    """
    from rulekb.kb.build import build, default_build_dir
    from rulekb.webapp import create_app

    target = build_dir or default_build_dir()
    if not (target / "manifest.json").is_file():
        click.echo(f"No knowledge base at {target}; building it first…", err=True)
        build(out=target, log=lambda message: click.echo(f"  {message}", err=True))
    app = create_app({"BUILD_DIR": target})
    click.echo(f"Serving {target} on http://{host}:{port}/ (Ctrl+C to stop)", err=True)
    app.run(host=host, port=port, debug=debug, use_reloader=debug)


COMMANDS = [serve]
