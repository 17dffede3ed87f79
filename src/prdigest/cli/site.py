"""`prdigest site build --out DIR [--posts DIR]` and `prdigest site serve [--out DIR] [--port N]`."""

from __future__ import annotations

from pathlib import Path

import click

from .common import AppContext, StderrReporter, pass_app


@click.group("site")
def site_group() -> None:
    """Build and preview the DevLog static site (posts, digests, release notes)."""


@site_group.command("build")
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Directory to write the site to."
)
@click.option(
    "--posts",
    "posts_dir",
    type=click.Path(path_type=Path),
    help="Directory of Markdown posts (default: ./posts when it exists).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Write into a non-empty --out that prdigest did not build (same-named files are overwritten).",
)
@pass_app
def build_command(app: AppContext, out: Path, posts_dir: Path | None, force: bool) -> None:
    """Write the site: only files whose content changed are rewritten."""
    from ..pipeline import build_site

    if posts_dir is None and Path("posts").is_dir():
        posts_dir = Path("posts")
    result = build_site(app.existing_store, app.config, out, posts_dir, force=force)
    StderrReporter().done(result.summary())


@site_group.command("serve")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("public"),
    show_default=True,
    help="Directory of a built site.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1 (0: any free port).",
)
def serve_command(out: Path, port: int) -> None:
    """Preview the built site on http://127.0.0.1:PORT/ until Ctrl-C."""
    from ..site.serve import make_server, site_url

    server = make_server(out, port)
    click.echo(f"Serving {out} at {site_url(server)} (Ctrl-C to stop)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
