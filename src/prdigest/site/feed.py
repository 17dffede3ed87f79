"""The Atom feed (RFC 4287): the newest entries, dated by their data, never by the build."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import date

from .entries import Entry
from .posts import slugify
from .site_options import SiteSettings

ATOM = "http://www.w3.org/2005/Atom"


def _stamp(day: date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def _link(settings: SiteSettings, path: str) -> str:
    return settings.base_url + path if settings.base_url else path


def _id(settings: SiteSettings, path: str) -> str:
    return (
        settings.base_url + path
        if settings.base_url
        else f"urn:prdigest:{slugify(settings.title)}:{path}"
    )


def atom_feed(entries: Sequence[Entry], settings: SiteSettings, path: str = "feed.xml") -> bytes:
    """`entries` newest first; the feed keeps the first `settings.feed_entries`."""
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    shown = list(entries[: settings.feed_entries])
    _sub(feed, "id", _id(settings, ""))
    _sub(feed, "title", settings.title)
    _sub(feed, "subtitle", settings.tagline)
    _sub(feed, "updated", _stamp(max((e.date for e in shown), default=date(1970, 1, 1))))
    ET.SubElement(
        feed, f"{{{ATOM}}}link", rel="self", href=_link(settings, path), type="application/atom+xml"
    )
    ET.SubElement(
        feed,
        f"{{{ATOM}}}link",
        rel="alternate",
        href=_link(settings, "index.html"),
        type="text/html",
    )
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    _sub(author, "name", settings.title)
    _sub(feed, "generator", "prdigest")
    for item in shown:
        node = ET.SubElement(feed, f"{{{ATOM}}}entry")
        _sub(node, "id", _id(settings, item.path))
        _sub(node, "title", item.title)
        _sub(node, "updated", _stamp(item.date))
        _sub(node, "published", _stamp(item.date))
        ET.SubElement(
            node,
            f"{{{ATOM}}}link",
            rel="alternate",
            href=_link(settings, item.path),
            type="text/html",
        )
        if item.author:
            _sub(ET.SubElement(node, f"{{{ATOM}}}author"), "name", item.author)
        for topic in item.topics:
            ET.SubElement(node, f"{{{ATOM}}}category", term=topic)
        if item.excerpt:
            _sub(node, "summary", item.excerpt)
        content = _sub(node, "content", item.html)
        content.set("type", "html")  # the HTML is escaped as text, as Atom wants for type="html"
    ET.indent(feed)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="utf-8") + b"\n"


def _sub(parent: ET.Element, tag: str, text: str) -> ET.Element:
    node = ET.SubElement(parent, f"{{{ATOM}}}{tag}")
    node.text = text
    return node
