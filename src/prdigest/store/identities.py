"""Who is who in the store: the clone's `.mailmap` as a table, and the identities under
which a window's authors landed something before it (a few indexed queries a window,
never one a PR). The pipeline turns these rows into `analyze.people.People`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from ..timeutil import to_iso
from .core import StoreCore

_CHUNK = 400  # host parameters a statement (SQLite allows far more)

Mailmap = Mapping[tuple[str, str], tuple[str, str]]  # (name, e-mail) → as .mailmap says


class IdentityTables(StoreCore):
    def author_identities(self, repo: str) -> list[tuple[str, str]]:
        """Every (name, e-mail) a landed PR of `repo` was authored under, sorted."""
        rows = self.conn.execute(
            "SELECT DISTINCT p.author_name, p.author_email FROM pull_requests p"
            " JOIN repositories r ON r.id = p.repo_id WHERE r.name = ?",
            (repo,),
        ).fetchall()
        return sorted((name or "", email or "") for name, email in rows)

    def replace_mailmap(self, repo: str, mapping: Mailmap) -> None:
        """The repository's mailmap is now `mapping` (the identities it changes, as recorded)."""
        repo_id = self.repo_id(repo)
        with self.transaction():
            self.conn.execute("DELETE FROM mailmap WHERE repo_id = ?", (repo_id,))
            self.conn.executemany(
                "INSERT INTO mailmap (repo_id, name, email, mapped_name, mapped_email)"
                " VALUES (?, ?, ?, ?, ?)",
                [(repo_id, n, e, mn, me) for (n, e), (mn, me) in sorted(mapping.items())],
            )

    def mailmap_of(
        self, repo: str, emails: Iterable[str]
    ) -> dict[tuple[str, str], tuple[str, str]]:
        """The mailmap entries of these addresses (any case), and of every address .mailmap
        gives the same person."""
        repo_id = self.repo_id(repo, create=False)
        asked = {e.lower() for e in emails if e}
        found: dict[tuple[str, str], tuple[str, str]] = {}
        if repo_id is None or not asked:
            return found
        wanted = asked
        for column in ("email", "mapped_email", "mapped_email"):  # the last: what that added
            for name, email, mapped_name, mapped_email in self._chunked(
                f"SELECT name, email, mapped_name, mapped_email FROM mailmap"
                f" WHERE repo_id = ? AND lower({column}) IN ({{marks}})",
                (repo_id,),
                sorted(wanted),
            ):
                found[(name, email)] = (mapped_name, mapped_email)
            wanted = asked | {m.lower() for _, m in found.values()}
        return found

    def identities_before(
        self,
        repo: str,
        before: datetime,
        emails: Iterable[str],
        logins: Iterable[str],
        names: Iterable[str],
    ) -> set[tuple[str, str, str]]:
        """(name, e-mail, login) of every PR landed before `before` under one of these
        addresses (any case), logins or names: three indexed queries, whatever the window."""
        repo_id = self.repo_id(repo, create=False)
        seen: set[tuple[str, str, str]] = set()
        if repo_id is None:
            return seen
        for column, values in (
            ("lower(p.author_email)", {e.lower() for e in emails if e}),
            ("p.author_login", set(logins) - {""}),
            ("p.author_name", set(names) - {""}),
        ):
            for name, email, login in self._chunked(
                "SELECT DISTINCT p.author_name, p.author_email, p.author_login FROM pull_requests p"
                f" WHERE p.repo_id = ? AND {column} IN ({{marks}}) AND p.merged_at < ?",
                (repo_id,),
                sorted(values),
                (to_iso(before),),
            ):
                seen.add((name or "", email or "", login or ""))
        return seen

    def _chunked(
        self,
        sql: str,
        params: tuple[Any, ...],
        values: list[str],
        after: tuple[Any, ...] = (),
    ) -> Iterable[tuple[Any, ...]]:
        for i in range(0, len(values), _CHUNK):
            chunk = values[i : i + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            yield from self.conn.execute(
                sql.format(marks=marks), (*params, *chunk, *after)
            ).fetchall()
