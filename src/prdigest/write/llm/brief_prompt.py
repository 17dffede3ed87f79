"""The request that asks a model for one PR's brief: its messages (Jinja2 templates in
`prompts/`, overridable with `[llm] prompts_dir`), the answer's JSON schema, and the
prompt version the stored briefs are keyed by.

The system message is the same for every PR of a repository and comes first, so a server
that caches a prompt's prefix (llama-server does) reads it once per slot. The PR follows
between `PR_DATA_BEGIN` and `PR_DATA_END`, which no printed value can forge, and then the
deterministic brief as a draft: its facts and names are the PR's, and the model is asked
to keep them and say them better.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from ...analyze.brief_types import Brief
from ...errors import TemplateError
from ...kinds import LABELS
from .pr_input import PRInput

PROMPT_VERSION = 1  # a change of what is asked or checked takes a new number
TEMPLATES = ("brief_system.j2", "brief_user.j2", "takeaway_system.j2", "takeaway_user.j2")
_BUILTIN = Path(__file__).parent / "prompts"
_MARKER = re.compile(r"(PR|DIGEST)_DATA")  # what no printed value may write
_PLAIN = r'[^"\\{}\[\]<>|\n]'
# The answer: two bounded sentences (a server that follows schemas cannot run past them),
# no JSON, HTML or table characters; `why` may be empty.
SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "what": {"type": "string", "pattern": rf"^[A-Z`]{_PLAIN}{{10,220}}$"},
        "why": {"type": "string", "pattern": rf"^(?:[A-Z`]{_PLAIN}{{10,220}})?$"},
    },
    "required": ["what", "why"],
    "additionalProperties": False,
}
TAKEAWAY_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"sentence": {"type": "string", "pattern": rf"^[A-Z`]{_PLAIN}{{20,200}}$"}},
    "required": ["sentence"],
    "additionalProperties": False,
}
ANSWER_TOKENS = 170  # room for both sentences at their longest, and the JSON around them


@dataclass(frozen=True)
class Guide:
    """What the deterministic brief tells the model of a PR."""

    what: str
    why: str
    kind: str  # a digest label: "bug fix", "new feature", …
    subject: str
    names: str  # "adds `a`, `b`; removes `c`", or ""

    @classmethod
    def of(cls, brief: Brief) -> Guide:
        parts = []
        surface = brief.surface
        if surface.added:
            parts.append("adds " + ", ".join(f"`{n}`" for n in surface.added[:4]))
        if surface.removed:
            parts.append("removes " + ", ".join(f"`{n}`" for n in surface.removed[:4]))
        if surface.renamed:
            parts.append("renames " + ", ".join(f"`{a}` to `{b}`" for a, b in surface.renamed[:3]))
        return cls(
            brief.what,
            brief.why,
            LABELS.get(brief.kind, brief.kind),
            brief.subject,
            "; ".join(parts),
        )


def as_data(value: Any) -> Any:
    """Every value a template prints: unable to forge the markers around the data."""
    return _MARKER.sub(r"\1-DATA", value) if isinstance(value, str) else value


class BriefPrompts:
    """The templates (the user's `prompts_dir` first, then ours) and what they ask."""

    def __init__(self, repo: str, prompts_dir: Path | None = None, temperature: float = 0.0):
        loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(_BUILTIN))]
        if prompts_dir is not None:
            loaders.insert(0, jinja2.FileSystemLoader(str(prompts_dir)))
        self.env = jinja2.Environment(
            loader=jinja2.ChoiceLoader(loaders),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            finalize=as_data,
        )
        self.repo = repo
        self.temperature = temperature
        self.version = f"{PROMPT_VERSION}.{self._fingerprint()}"

    def _fingerprint(self) -> str:
        """The brief templates' and the schema's text, hashed: changed prompts ask anew
        (the takeaway's request is keyed by its own text)."""
        digest = hashlib.sha256(json.dumps(SCHEMA, sort_keys=True).encode())
        for name in TEMPLATES[:2]:
            try:
                source, _, _ = self.env.loader.get_source(self.env, name)  # type: ignore[union-attr]
            except jinja2.TemplateNotFound:
                raise TemplateError(
                    f"prompt template {name} not found", "restore it in [llm] prompts_dir"
                ) from None
            digest.update(source.encode())
        return digest.hexdigest()[:8]

    def writer(self, model: str) -> str:
        """Who wrote a brief: `model:<name>@<prompt version>`, its key in the store."""
        return f"model:{model}@{self.version}"

    def messages(self, pr: PRInput, guide: Guide) -> list[dict[str, str]]:
        values = {"repo": self.repo, "pr": pr, "guide": guide, "kind": guide.kind,
                  "subject": guide.subject, "names": guide.names}  # fmt: skip
        return [
            {"role": "system", "content": self._render(TEMPLATES[0], values)},
            {"role": "user", "content": self._render(TEMPLATES[1], values)},
        ]

    def takeaway_messages(self, leads: list[Guide]) -> list[dict[str, str]]:
        """The request for Key Takeaways' opening sentence, from the leading briefs."""
        values = {"repo": self.repo, "leads": leads}
        return [
            {"role": "system", "content": self._render(TEMPLATES[2], values)},
            {"role": "user", "content": self._render(TEMPLATES[3], values)},
        ]

    def params(self, schema: dict[str, object] = SCHEMA, name: str = "brief") -> dict[str, Any]:
        """What a request asks for; the client sends the schema on the server's rung."""
        return {
            "temperature": self.temperature,
            "max_tokens": ANSWER_TOKENS,
            "json_schema": {"name": name, "schema": schema},
        }

    def _render(self, name: str, values: dict[str, Any]) -> str:
        try:
            return self.env.get_template(name).render(**values).strip()
        except jinja2.TemplateError as exc:
            raise TemplateError(
                f"prompt template {name}: {exc}", "fix the template in [llm] prompts_dir"
            ) from None
