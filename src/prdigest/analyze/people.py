"""Who is who: a window's authors as people, not addresses.

One person may land under several identities (a name, an e-mail address, a GitHub
login). Identities are one person when the clone's `.mailmap` maps them to one, when
they share a GitHub login (also read from a `…@users.noreply.github.com` address), an
e-mail address (in any case), or, last, the same name (not a placeholder like `root`).
A first-time contributor is a person none of whose identities landed anything before
the window: `People.seen` holds the earlier identities the store found for the window's
authors, by any of their addresses, logins or names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..models import PullRequest

_NOREPLY = re.compile(r"^(?:\d+\+)?([^@+]+)@users\.noreply\.github\.com$", re.I)
# Names that many people's tools write: they tell nobody apart.
_PLACEHOLDER_NAMES = frozenset(
    "root ubuntu admin administrator user unknown github none nobody noreply runner".split()
)


@dataclass(frozen=True, slots=True)
class Identity:
    """One way an author appears on a landed PR."""

    name: str
    email: str
    login: str = ""


def identity_of(pr: PullRequest) -> Identity:
    return Identity(pr.author_name, pr.author_email, pr.author_login or "")


@dataclass(frozen=True)
class People:
    """What the store knows about the window's authors from outside the window."""

    # (name, e-mail) as recorded → (name, e-mail) as .mailmap says
    mailmap: Mapping[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    seen: frozenset[Identity] = frozenset()  # identities that landed before the window

    @classmethod
    def from_emails(cls, emails: Iterable[str]) -> People:
        """Only the addresses seen before (what a caller without a store knows)."""
        return cls(seen=frozenset(Identity("", email) for email in emails if email))

    @cached_property
    def _folded(self) -> dict[tuple[str, str], tuple[str, str]]:
        return {(n.casefold(), e.lower()): mapped for (n, e), mapped in self.mailmap.items()}

    def mapped(self, identity: Identity) -> Identity:
        """The identity as `.mailmap` writes it (itself when it maps nothing); git matches
        names and addresses in any case."""
        found = self._folded.get((identity.name.casefold(), identity.email.lower()))
        if found is None:
            return identity
        return Identity(found[0] or identity.name, found[1] or identity.email, identity.login)


def lookups(identities: Iterable[Identity], people: People) -> tuple[set[str], set[str], set[str]]:
    """The addresses, logins and names to look the window's authors up by in the store:
    theirs, those .mailmap gives them, and those of every identity .mailmap maps to them."""
    found = list(identities) + [Identity(name, email) for name, email in people.mailmap]
    found += [people.mapped(identity) for identity in found]
    emails = {identity.email.lower() for identity in found if identity.email}
    logins = {login_of(identity) for identity in found} - {""}
    names = {identity.name for identity in found if name_key(identity.name)}
    return emails, logins, names


def login_of(identity: Identity) -> str:
    """The GitHub login: the source's, else the one a noreply address carries."""
    if identity.login:
        return identity.login.lower()
    match = _NOREPLY.match(identity.email)
    return match.group(1).lower() if match else ""


def name_key(name: str) -> str:
    """The name as compared (`''` for a placeholder that tells nobody apart)."""
    key = " ".join(name.casefold().split())
    return "" if key in _PLACEHOLDER_NAMES or len(key) < 2 else key


def keys(identity: Identity) -> list[str]:
    """What links this identity to others of the same person."""
    out = []
    if identity.email:
        out.append("e:" + identity.email.lower())
    login = login_of(identity)
    if login:
        out.append("l:" + login)
    name = name_key(identity.name)
    if name:
        out.append("n:" + name)
    elif not out and identity.name.strip():
        out.append("n:" + " ".join(identity.name.casefold().split()))  # all there is
    return out


class Persons:
    """The window's authors grouped into people (a union-find over identity keys)."""

    def __init__(self, identities: Sequence[Identity], people: People) -> None:
        self._parent: dict[str, str] = {}
        self._people = people
        self._known: dict[Identity, list[str]] = {}  # keys of each identity, made once
        for identity in [*identities, *sorted(people.seen, key=_order)]:
            self._link(self._keys(identity))
        self._seen_roots = {self._root(k) for i in people.seen for k in self._keys(i)}

    def person(self, identity: Identity) -> str:
        """A stable key of the person (the same for all their identities); '' for none."""
        found = self._keys(identity)
        return self._root(found[0]) if found else ""

    def landed_before(self, identity: Identity) -> bool:
        return any(self._root(k) in self._seen_roots for k in self._keys(identity))

    def display_name(self, identity: Identity) -> str:
        mapped = self._people.mapped(identity)
        return mapped.name or identity.name or identity.login or identity.email

    def _keys(self, identity: Identity) -> list[str]:
        found = self._known.get(identity)
        if found is None:
            mapped = self._people.mapped(identity)
            found = keys(identity)
            if mapped != identity:
                found += [k for k in keys(mapped) if k not in found]
            self._known[identity] = found
        return found

    def _link(self, found: list[str]) -> None:
        for key in found:
            self._parent.setdefault(key, key)
        for key in found[1:]:
            a, b = self._root(found[0]), self._root(key)
            if a != b:  # the smaller key is the root: the same grouping whatever the order
                self._parent[max(a, b)] = min(a, b)

    def _root(self, key: str) -> str:
        self._parent.setdefault(key, key)
        root = key
        while self._parent[root] != root:
            root = self._parent[root]
        while self._parent[key] != root:  # path compression
            self._parent[key], key = root, self._parent[key]
        return root


def _order(identity: Identity) -> tuple[str, str, str]:
    return (identity.email, identity.name, identity.login)
