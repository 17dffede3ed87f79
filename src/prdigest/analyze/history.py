"""What the analysis knows from outside the window, from the store: one argument of
`build_context`, built by the pipeline (`analyze` never reads the store itself)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .people import People


@dataclass(frozen=True)
class History:
    """Facts from before the window. Each field has a default: a caller that knows
    nothing of the history still gets a digest (everyone is new, nothing is known)."""

    people: People = field(default_factory=People)  # the window's authors seen before
