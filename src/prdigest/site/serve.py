"""`prdigest site serve`: the built site over HTTP on 127.0.0.1 (stdlib only), for previews."""

from __future__ import annotations

from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..errors import ConfigError

HOST = "127.0.0.1"  # a preview server: never listen on other interfaces


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        pass  # the library never prints; the CLI says where the site is

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()


_QuietHandler.extensions_map = {
    **SimpleHTTPRequestHandler.extensions_map,
    ".xml": "application/atom+xml",
    ".svg": "image/svg+xml",
}


def make_server(out: Path, port: int = 8000) -> ThreadingHTTPServer:
    """A server for `out` (port 0: any free port; read it back from `server.server_address`)."""
    if not (out / "index.html").is_file():
        raise ConfigError(
            f"{out} holds no built site (no index.html)", f"run: prdigest site build --out {out}"
        )
    try:
        return ThreadingHTTPServer((HOST, port), partial(_QuietHandler, directory=str(out)))
    except OSError as exc:
        raise ConfigError(
            f"cannot listen on {HOST}:{port}: {exc.strerror}",
            "pick another --port (0 picks a free one)",
        ) from None


def site_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}/"
