"""What a PR announces to its users: a breaking change (a removed or renamed public API,
config field, CLI flag or module, a dropped platform or version, a `bc-breaking` label or
tag), a deprecation, or a changed default. Read from the labels, the classification when
a label decided it, the title, and what the PR changes: the public names its diff removes
or renames (`reading.api_changes`), or, without a diff, those its description names.

Evidence beats title words. A title that removes something whose diff removes no public
name is no break ("Remove the HIP check for symmetric memory", a check that goes because
ROCm now supports it, enables); a "deprecation" whose diff deletes the names is a break; a
diff that drops CLI flags or config fields breaks whatever its title says. Names added
earlier in the same window and taken back break no release.

Conservative by design, because a false alarm in a "breaking changes" callout costs the
reader's trust: using, fixing, replacing or silencing something deprecated announces
nothing; neither does removing something unused, or changing tests, CI or benchmarks; a
removed function, class or method counts only when the title or description speaks of
removing, renaming or deprecating it (refactors move and rename internals all the time).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .. import kinds
from ..models import PullRequest
from ..reading import is_revert, parse_title
from ..reading.api_changes import (
    CLASS,
    ENV,
    FIELD,
    FLAG,
    FUNCTION,
    METHOD,
    MODULE,
    ApiChanges,
    ApiName,
    read_diff,
)
from ..reading.file_roles import FileRole, file_role, is_library, is_public
from ..reading.news_fragments import news_fragment
from ..reading.pr_body import is_bot_body
from ..reading.versions import RaisedMinimum, raised_minimums
from .announcement_words import migration_hint, sentence, starts_announcement, subject
from .body_announcements import said_in_notes, users_must_change
from .claims import prose_lines

BREAKING, DEPRECATION, DEFAULT = "breaking", "deprecation", "default"
# why an announcement read from the PR's release notes was made, by what they say
SAID_IN_NOTES = {
    "breaking": "its release notes say it breaks",
    "deprecation": "its release notes say it deprecates",
    "default": "its release notes say a default changed",
}


@dataclass(frozen=True)
class Announcement:
    kind: str  # breaking | deprecation | default
    why: str  # the evidence, short: "removes a public API", "labelled `bc-breaking`"
    sentence: str  # the PR's own words as a digest sentence ("Removes `X` API.")
    subject: str  # what is removed, deprecated, … with its participle ("`X` API removed"), or ""
    hint: str = ""  # what users should do, a whole sentence of the PR's body, or ""
    removed: tuple[str, ...] = ()  # the public names it removes, as users write them
    renamed: tuple[tuple[str, str], ...] = ()  # (old, new) public names it renames


class WindowNames:
    """The public names each PR of a window adds, read once: removing a name an earlier
    PR of the same window added takes back unreleased work, not a user's API."""

    def __init__(self, prs: list[PullRequest]) -> None:
        self._changes: dict[int, ApiChanges] = {}
        self._added: list[tuple[str, set[str]]] = []  # (merged at, names) in landing order
        for pr in prs:
            changes = read_diff(pr.files, pr.body, pr.title)
            self._changes[id(pr)] = changes
            if changes.added:
                when = pr.merged_at.isoformat() if pr.merged_at else ""
                self._added.append((when, {n.name for n in changes.added}))

    def read(self, pr: PullRequest) -> ApiChanges:
        """What `pr`'s diff does to public names, read once (all of it, whatever the
        window's other PRs added)."""
        found = self._changes.get(id(pr))
        return found if found is not None else read_diff(pr.files, pr.body, pr.title)

    def changes(self, pr: PullRequest) -> ApiChanges:
        changes = self.read(pr)
        when = pr.merged_at.isoformat() if pr.merged_at else ""
        earlier = set().union(*(names for at, names in self._added if at < when))
        return changes.without(earlier) if earlier else changes


_BREAKING_LABEL = re.compile(
    r"(?i)\b(?:bc[ _-]?breaking|breaking(?: change)?|backwards?[ _-]incompatible)\b"
)
_DEPRECATION_LABEL = re.compile(r"(?i)\bdeprecat(?:ion|ed)\b")
_BREAKING_TAGS = frozenset(
    {"bc-breaking", "bc breaking", kinds.BC_BREAKING, "breaking", "breaking change", "bc-breaking change"}
)  # fmt: skip
_DEPRECATION_TAGS = frozenset({"deprecation", "deprecate", "deprecated"})
# what a news fragment's type announces (towncrier's `breaking`, `removal`, `deprecation`)
_FRAGMENT_SAYS = {"breaking": BREAKING, "removal": BREAKING, "deprecation": DEPRECATION}
# work on test, CI, benchmark or docs infrastructure breaks no user
_INFRA_TAGS = frozenset(
    {"ci", "test", "tests", "testing", "benchmark", "benchmarks", "minibench", "infra", "docs", "doc"}
)  # fmt: skip
_INFRA_WORDS = re.compile(
    r"(?i)\b(?:ci|tests?|unittests?|xfails?|workflows?|jobs?|lint\w*|benchmarks?|docs?|"
    r"documentation|tutorials?|readme|matrix|docker|pins?|comments?|warnings?|logs?|logging|"
    r"usages?|imports?|call ?sites?|references?|scripts?|examples?|demos?|files?)\b"
)
# a clause that repairs, replaces or uses something deprecated or broken announces nothing
_REPAIR = re.compile(
    r"(?i)\b(?:fix\w*|unbreak\w*|replac\w*|updat\w*|use[sd]?|using|avoid\w*|suppress\w*|"
    r"silenc\w*|migrat\w*|handl\w*|adapt\w*|stop\w*|clean\w*|instead|address\w*|resolv\w*|"
    r"workaround|work around|due to|because of|in response)\b"
)
_IDLE = re.compile(
    r"(?i)\b(?:unused|no longer (?:used|needed)|dead|redundant|duplicated?|stale|leftover|empty)\b"
)
_DUPLICATE = re.compile(r"(?i)\b(?:duplicated?|redundant)\b")
_CLAUSE_SPLIT = re.compile(r"\s*(?:[,;]|\s-\s|\band\b(?=\s+\w+\s))\s*")

_TAGGED_BREAK = re.compile(
    r"(?i)\bbc[-_ ]?breaking\b|\bbackwards?[-_ ]incompatible\b|\bbreaking[-_ ]changes?\b"
)
_REMOVE = r"(?:remov|delet|drop|kill)\w*"
_REMOVAL = re.compile(rf"(?i)^(?P<verb>{_REMOVE})\s+(?P<object>.+)$")
_PUBLIC_OBJECT = re.compile(
    r"(?i)\b(?:apis?|public|support|options?|arguments?|args?|parameters?|params?|kwargs?|flags?)\b"
)
_OLD_FLOW = re.compile(
    r"(?i)^(?:the\s+)?old\s+(?:\S+\s+){0,2}?(?:flows?|workflows?|apis?|implementations?|quantizers?|configs?|paths?)\b"
)
_FROM_PUBLIC = re.compile(r"(?i)\bfrom (?:the )?public (?:api|interface)")
_DEPRECATED_ADJ = re.compile(r"(?i)^(?:the\s+)?(?:old\s+)?deprecated\s+(?P<what>.+)$")
_PLATFORMS = (
    r"python|py|pytorch|torch|cuda|rocm|numpy|macos|ios|android|windows|linux|gcc|clang|"
    r"java|jdk|ndk|xcode|glibc|manylinux|cmake|protobuf|transformers"
)
_DROPPED_VERSION = re.compile(
    rf"(?i)^(?:{_REMOVE}|end\w*)\s+(?:support\s+(?:for\s+)?)?(?:the\s+)?(?:unsupported\s+)?"
    rf"(?:(?:{_PLATFORMS})\s*(?:<=?|>=?|==?)?\s*v?\d|v?\d+(?:\.\d+)+)"
)
_RAISED_MINIMUM = re.compile(
    rf"(?i)(?:^|\s)(?:requir\w*|(?:bump|rais|upgrad|increas)\w*\s+(?:the\s+)?(?:minimum\s+)?)"
    rf"(?:\S+\s+){{0,2}}?(?:{_PLATFORMS})\b(?:\s+(?:version\s+)?(?:requirement|minimum)\s+to)?\s*(?:>=?\s*)?v?\d"
)
# `minimum version guard for torchao to 0.15.0`, `vLLM minimum supported version to 0.11.0`,
# `minimal is macos13`: a floor users must meet now
_NEW_MINIMUM = re.compile(
    r"(?i)\bminim(?:um|al)\b(?:\s+\S+){0,3}?\s+(?:versions?|supported|required|requirements?)\b"
    r"(?:\s+\S+){0,3}?\s+(?:to|is|of|=|>=)\s+v?\d|\bminim(?:um|al)\s+is\s+[a-z]+\s?v?\d"
)
_DEPRECATE_VERB = re.compile(
    r"(?i)\bdeprecat(?:e|es|ing)\b|\bphas(?:e|es|ed|ing) out\b|^deprecated\b(?!\s+(?:warnings?|apis?|usages?)\b)"
)
# `` `watch` command's closure argument is deprecated ``
_NOW_DEPRECATED = re.compile(r"(?i)\b(?:is|are|now|been|becomes?)\s+deprecated\b")
_MARKED_DEPRECATED = re.compile(r"(?i)\bmark(?:s|ed|ing)?\b.{0,60}?\bas deprecated\b")
_DEPRECATION_NOTICE = re.compile(
    r"(?i)\badd(?:s|ed|ing)?\b.{0,40}?\bdeprecation (?:warnings?|messages?|notices?)\b"
)
_DEPRECATION_NOUN = re.compile(
    r"(?i)\bdeprecation\s*(?:$|(?:part|pt\.?)\s*\d|\(?\d+\s*/\s*(?:\d+|x|n)\b)"
)
# `Rename X to Y`, `Rename X`: a name, not `Rename X params` or `rename X with Y`
_RENAME = re.compile(r"(?i)^renam\w*\s+(?P<old>\S+)(?:\s+(?:to|->|→)\s+(?P<new>\S+)|\s*$)")
# `AOPerModuleConfig`, `torchao.float8.Float8Tensor`: a class or a module path, not `_x`
_PUBLIC_NAME = re.compile(r"^(?:[a-z]\w*\.)*[A-Z][A-Za-z0-9]*[A-Z]\w*$|^[a-z][\w.]*\.[A-Za-z]\w*$")
_FILE_NAME = re.compile(r"(?i)\.(?:sh|py|txt|md|ya?ml|json|toml|cpp|cc|h|hpp|cmake|bzl)$")
_DEFAULT = re.compile(
    r"(?i)(?<![.\w])(?:by default|defaults? to|as (?:the )?default|new default|"
    r"(?:chang|switch|flipp?|mak|set)\w*\s+(?:\S+\s+){0,4}?(?:the )?default)\b(?!\s*[(_])"
)

_LOWERED = re.compile(r"(?i)\blower\w*\b")
# "Flip default torch.load to weights_only", "change the default of X to Y"
_FLIPPED = re.compile(
    r"(?i)^\W*(?:flip|flips|flipped|flipping)\b|\bchang\w*\s+the\s+default\s+(?:of|for|value)\b"
)
_FROM = re.compile(r"(?i)\s+from\s+|\bfrom\b")
_SUPPORT = re.compile(r"(?i)\bsupport\b")
# Every announcement has one of these words: most titles are done after this check.
_TRIGGER = re.compile(
    r"(?i)remov|delet|drop|kill|\bend|deprecat|renam|phas|default|breaking|incompatible|"
    r"requir|bump|rais|upgrad|increas|minim|->|→|=>"
)


def announce(
    pr: PullRequest,
    kind: str = "",
    kind_by_label: bool = False,
    window: WindowNames | None = None,
) -> Announcement | None:
    """What `pr` announces, if anything. `kind` is its classification's kind; it counts
    alone only when a label decided it (`kind_by_label`): wording is judged here.
    `window`: the names the window's PRs add (else the PR is judged alone)."""
    title = pr.title
    if is_revert(title):
        return None  # a revert takes an announcement back; the reverts block tells it
    info = parse_title(title)
    text = info.clean.strip().strip('"“”').rstrip(".").strip()
    changes = window.changes(pr) if window is not None else read_diff(pr.files, pr.body, title)
    for label in pr.labels:
        if _BREAKING_LABEL.search(label):
            return _made(BREAKING, f"labelled `{label}`", text, pr, changes=changes)
        if _DEPRECATION_LABEL.search(label):
            return _made(DEPRECATION, f"labelled `{label}`", text, pr, changes=changes)
    fragment = news_fragment(pr.files)
    if fragment is not None and fragment.type in _FRAGMENT_SAYS:
        why = f"labelled by its news fragment `{fragment.path}`"
        said = _made(_FRAGMENT_SAYS[fragment.type], why, text, pr, changes=changes)
        return said if said.hint else replace(said, hint=fragment.text)
    if kind_by_label and kind in (kinds.BC_BREAKING, kinds.DEPRECATION):
        found = BREAKING if kind == kinds.BC_BREAKING else DEPRECATION
        return _made(found, "labelled so", text, pr, changes=changes)
    tags = {t.lower() for t in info.tags}
    if tags & _INFRA_TAGS:
        return None
    noted = said_in_notes(pr.body)
    if noted is not None and not _only_checks(pr):
        # what the PR's own release notes tell users to act on (a changed default too)
        kind = DEPRECATION if noted.kind == "deprecation" else BREAKING
        return _made(kind, SAID_IN_NOTES[noted.kind], text, pr, changes=changes)
    if info.breaking or tags & _BREAKING_TAGS:
        return _made(BREAKING, "marked BC-breaking", text, pr, changes=changes)
    if tags & _DEPRECATION_TAGS:
        return _weighed(_made(DEPRECATION, "marked as a deprecation", text, pr), changes, text, pr)
    if _IDLE.search(text) and not _TAGGED_BREAK.search(text):
        # a duplicate's users still import it from where it went ("Remove duplicated
        # prepare_deepspeed"); what nobody uses breaks nobody
        whole = [n for n in _weak(changes) if n.kind in (CLASS, FUNCTION)]
        if _DUPLICATE.search(text) and whole and _about(text, whole, _SAYS_REMOVAL):
            return _diff_break(changes, text, pr, "removes a public API (a duplicate)")
        return None
    return _weighed(_from_title(text, pr), changes, text, pr)


# What the title says it removes, judged against the diff: a removal the diff does not show
_TITLE_REMOVALS = frozenset(
    {"removes a public API", "drops support", "removes an old API", "removes a deprecated API",
     "removes an API from the public API", "renames a public API"}
)  # fmt: skip
# "… because ROCm now supports it": what goes is a check, a guard, a workaround
_ENABLES = re.compile(
    r"(?i)\b(?:now (?:supports?|supported|works?|handles?|available)|(?:is|are) now supported|"
    r"(?:is|are) supported now|no longer (?:needed|necessary|required))\b"
)
_CHECK = re.compile(
    r"(?i)\b(?:checks?|guards?|asserts?|assertions?|restrictions?|limitations?|workarounds?|"
    r"skips?|xfails?|warnings?|errors?|gates?|constraints?|blocks?)\b"
)
# the description says users are affected
_SAYS_BREAKS = re.compile(
    r"(?i)\bbc[- ]?breaking\b|\bbreaking changes?\b|\bbackwards?[- ]incompatible\b|"
    r"\bno longer (?:supported|available|exported|exists?|accepted)\b|"
    r"\b(?:has|have) been (?:removed|renamed|deleted)\b|\bmust (?:now )?(?:use|pass|migrate)\b"
)
# the verbs themselves, not a name that starts like one (`RemoveNoopPass`)
_SAYS_REMOVAL = re.compile(
    r"(?i)\b(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?|kill(?:s|ed|ing)?|"
    r"renam(?:e|es|ed|ing)|deprecat(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|phas(?:e|es|ed|ing) out)\b"
    r"|\bmake\b(?=.*\bprivate\b)"
)
# folding several things into one removes the several: their classes, functions, modules
_SAYS_FOLDING = re.compile(
    r"(?i)\b(?:consolidat(?:e|es|ed|ing)|unif(?:y|ies|ied|ying)|merg(?:e|es|ed|ing))\b"
)
_STOP = frozenset(
    {"remove", "removes", "removed", "delete", "deletes", "deleted", "drop", "drops", "rename",
     "renames", "deprecate", "deprecates", "move", "moves", "make", "private", "the", "and",
     "old", "legacy", "deprecated", "unused", "related", "code", "support", "from", "for",
     "with", "into", "out", "all", "references", "implementation", "apis", "api", "kernels",
     "functions", "classes", "class", "function", "module", "modules", "files", "file",
     "config", "configs", "option", "options", "of", "to", "in", "on", "a", "an"}
)  # fmt: skip


def _weighed(
    found: Announcement | None, changes: ApiChanges, text: str, pr: PullRequest
) -> Announcement | None:
    """The title's announcement weighed against what the PR changes."""
    strong, weak = _strong(changes), _weak(changes)
    if found is not None and found.kind == BREAKING and found.why in _TITLE_REMOVALS:
        if not strong and _CHECK.search(text) and _ENABLES.search(f"{text}\n{pr.body}"):
            return None  # a check removed because the thing is now supported: enablement
        if changes.read_from == "diff" and changes.complete and not changes.breaks:
            if not (found.why == "renames a public API" and _renamed_in_code(text, pr)):
                return None  # the diff removes or renames no public name
        return _with(found, changes)
    if found is not None and found.kind == DEPRECATION:
        if strong or (weak and _about(text, weak, _DEPRECATE_VERB)):
            names = _shown(changes)
            return _with(
                _retold(found, BREAKING, f"removes {names} it says it deprecates"), changes
            )
        if changes.ends_deprecation and _DEPRECATE_VERB.search(text):
            # "deprecate v1 of X" whose diff deletes v1's deprecation warning: v1 is gone
            return _with(
                _retold(found, BREAKING, "removes what its deprecation warned of"), changes
            )
        return _with(found, changes)
    if found is not None and found.why == "raises a minimum version":
        return _raised_floor(text, pr) or found  # the diff says from what to what
    if found is not None:
        return _with(found, changes)
    if strong:
        return _diff_break(changes, text, pr, "removes or renames a public option")
    if weak and (
        _SAYS_BREAKS.search(pr.body)
        or _about(text, weak, _SAYS_REMOVAL)
        or _body_removes(pr.body, weak)
    ):
        return _diff_break(changes, text, pr, "removes or renames a public API")
    whole = [n for n in weak if n.kind in (CLASS, FUNCTION)]
    if whole and _about(text, whole, _SAYS_FOLDING):
        return _diff_break(changes, text, pr, "replaces a public API")
    if changes.starts_deprecation and not _INFRA_SCOPE.search(text):
        return _made(DEPRECATION, "adds a deprecation warning", text, pr, changes=changes)
    return _unnamed_break(changes, text, pr)


def _raised_floor(text: str, pr: PullRequest) -> Announcement | None:
    """A minimum version the diff raises, with what it was and is, and what to do."""
    bot = is_bot_body(pr.body) or bool(_BOT_BUMP.match(pr.title))
    raised = [r for r in raised_minimums(pr.files) if _users_must_upgrade(r, bot)]
    if not raised:
        return None
    first = raised[0]
    why = f"raises the minimum `{first.name}` from {first.before} to {first.after}"
    hint = migration_hint(pr.body) or f"Upgrade `{first.name}` to {first.after} or later."
    return Announcement(BREAKING, why, sentence(text), "", hint)


_BOT_BUMP = re.compile(r"(?i)^(?:build\(deps\):\s*)?(?:bump|update) \S+ requirement from ")
# what users run the project on: a new floor of these is theirs to meet. A compiler's
# (Cargo's `rust-version`, go.mod's `go`) is not: only who builds from source meets it, and
# Rust and Go projects raise it in minor releases by policy (Cargo picks a release that
# fits the toolchain)
_RUNTIMES = re.compile(
    r"(?i)^(?:requires-python|python|python_requires|node|engines|cuda|"
    r"torch|pytorch|numpy|jax|tensorflow|transformers)$"
)


def _users_must_upgrade(raised: RaisedMinimum, bot: bool) -> bool:
    """Whether a raised floor asks something of users: a runtime's (Python, Rust, CUDA,
    torch, …), or, by a person, a package's new major version (a minor one before 1.0);
    a patch-level floor, or a bot's routine bump (`namex >=0.0.8 → >=0.1.0`), is the
    resolver's to meet."""
    if _RUNTIMES.match(raised.name):
        return True
    before, after = ([*v.split("."), "0"] for v in (raised.before, raised.after))
    major = before[0] != after[0] or (before[0] == "0" and before[1] != after[1])
    return major and not bot


def _unnamed_break(changes: ApiChanges, text: str, pr: PullRequest) -> Announcement | None:
    """A break the public names do not show: a raised minimum version (the diff), a
    removal of library code whose diff cannot be read whole (a title that removes, a large
    deletion), a body that says the PR is BC-breaking."""
    raised = _raised_floor(text, pr)
    if raised is not None:
        return raised
    if not changes.complete and deleted_library(pr):
        return _made(BREAKING, "deletes public library code", text, pr, changes=changes)
    if _body_says_breaking(pr.body):
        return _made(BREAKING, "says it is BC-breaking", text, pr, changes=changes)
    told = users_must_change(pr.body)
    if told:
        found = _made(
            BREAKING, "its release note says users must change", text, pr, changes=changes
        )
        return found if found.hint else replace(found, hint=told)
    return None


_NEGATED = re.compile(
    r"(?i)\b(?:no|non|not|without|isn't|avoid\w*|none|n/a)\b[\w\s-]{0,12}$|\[\s?\]\s*$"
)


def _body_says_breaking(body: str) -> bool:
    """Whether the body's prose calls the change BC-breaking (a heading or a sentence;
    not "no breaking changes", "non-breaking", an unticked template box)."""
    if not body or not _TAGGED_BREAK.search(body):
        return False  # most bodies: one search, no prose to split
    for line in prose_lines(body):
        found = _TAGGED_BREAK.search(line)
        if found is None:
            continue
        before = line[: found.start()]
        after = line[found.end() : found.end() + 12]
        if _NEGATED.search(before) or re.match(r"(?i)\W*(?:none|no|n/a)\b", after):
            continue
        return True
    return False


_REMOVAL_TITLE = re.compile(r"(?i)^(?:remov|delet|drop)\w*\b")
_MIN_DELETED = 100  # lines of library code a removal deletes to count as one
_ADDED_SHARE = 0.1  # … while adding at most this share of them back


def deleted_library(pr: PullRequest) -> list[str]:
    """The public library files a PR titled as a removal deletes from (it adds next to
    nothing back), when that is at least `_MIN_DELETED` lines; else []. What the diff
    shows only as counts (no patch) is told as files, never guessed as names."""
    title = parse_title(pr.title).clean.strip()
    if pr.number is None or not _REMOVAL_TITLE.match(title) or _IDLE.search(title):
        return []
    files = [f for f in pr.files if is_public(f.path)]
    deleted = sum(f.deletions or 0 for f in files)
    added = sum(f.additions or 0 for f in files)
    if deleted < _MIN_DELETED or added > deleted * _ADDED_SHARE:
        return []
    return [f.path for f in files if (f.deletions or 0) > 0 and not (f.additions or 0)]


def _body_removes(body: str, names: list[ApiName]) -> bool:
    """Whether a line of the body's prose says it removes or renames one of `names`
    ("also deleted idiv method")."""
    return any(
        _about(line, names, _SAYS_REMOVAL)
        for line in prose_lines(body or "")
        if _SAYS_REMOVAL.search(line)
    )


def _strong(changes: ApiChanges) -> list[ApiName]:
    """Removed or renamed names that break users whatever the title says: CLI flags,
    environment variables, config classes and their fields. From a description (no
    diff), only a rename it states: "removes `--whole-archive`" may be a linker's flag."""
    return [n for n in _gone(changes) if _is_strong(n, changes)]


def _weak(changes: ApiChanges) -> list[ApiName]:
    """Removed or renamed code names (functions, classes, methods, modules, exports) that
    break users when the PR says it removes them; not an experiment's internals
    (`experiments/`, `experimental/`), which its users configure, not import: its flags
    and config fields are strong."""
    return [
        n for n in _gone(changes) if not _is_strong(n, changes) and not _EXPERIMENT.search(n.path)
    ]


_EXPERIMENT = re.compile(r"(?:^|/)(?:experiments|experimental)/")


def _is_strong(name: ApiName, changes: ApiChanges) -> bool:
    if changes.read_from == "body" and name in changes.removed:
        return False
    return name.kind in (FLAG, ENV) or _config(name)


def _gone(changes: ApiChanges) -> list[ApiName]:
    return [*changes.removed, *(old for old, _ in changes.renamed)]


_CONFIG_CLASS = re.compile(r"(?:Config|Configuration|Args|Options|Settings)$")


_CONFIG_FILE = re.compile(r"(?i)(?:^|[/_])(?:config|configs|args|options|settings)\.pyi?$")


def _config(name: ApiName) -> bool:
    """A config class (`QuantConfig`, `ModelArgs`) or a field of one, or of any class
    of a config module (`job_config.py`'s `Parallelism`)."""
    if name.kind == FIELD:
        return bool(
            _CONFIG_CLASS.search(name.name.rsplit(".", 1)[0]) or _CONFIG_FILE.search(name.path)
        )
    return name.kind == CLASS and bool(_CONFIG_CLASS.search(name.name))


def _squash(word: str) -> str:
    return re.sub(r"[^a-z0-9]", "", word.lower())


_EXTENSION = re.compile(r"\.[a-z]{1,5}$")


def _about(text: str, names: list[ApiName], verbs: re.Pattern[str] | None = None) -> bool:
    """Whether the title names what the diff removes: a word of what its verb governs
    (`GPTQ`, `marlin qqq`, `--use_tp`, `marlin` of `marlin_kernel_nm.cu`; not what it is
    removed *from*) inside a removed name (`torchao.quantization.GPTQ`), or a removed
    module's or class's own name in it. A method counts only by its own name: the class
    a title names is where it goes on, not what goes."""
    verb = verbs.search(text) if verbs is not None else None
    if verbs is not None and verb is None:
        return False
    scope = _FROM.split(text[verb.start() :] if verb else text, maxsplit=1)[0]
    squashed = [_squash(n.name if n.kind != METHOD else n.name.rsplit(".", 1)[-1]) for n in names]
    words = [_EXTENSION.sub("", w) for w in re.findall(r"[\w.-]+", scope)]
    words = [w for w in words if w.lower() not in _STOP]
    keys = [_squash(w) for w in words]
    keys += [_squash(a + b) for a, b in zip(words, words[1:], strict=False)]
    keys += [
        p for w in words if "_" in w for p in w.lower().split("_") if len(p) >= 4 and p not in _STOP
    ]
    if any(len(k) >= 4 and any(k in name for name in squashed) for k in keys):
        return True
    title = _squash(scope)
    leaves = [_squash(n.name.rsplit(".", 1)[-1]) for n in names if n.kind in (MODULE, CLASS)]
    return any(len(leaf) >= 6 and leaf in title for leaf in leaves)


def _retold(found: Announcement, kind: str, why: str) -> Announcement:
    """A deprecation the diff shows is a removal: "X deprecated" → "X deprecated and removed"."""
    subject = found.subject
    if subject.endswith(" deprecated"):
        subject += " and removed"
    return Announcement(kind, why, found.sentence, subject, found.hint)


def _diff_break(changes: ApiChanges, text: str, pr: PullRequest, why: str) -> Announcement:
    return _with(Announcement(BREAKING, why, sentence(text), "", migration_hint(pr.body)), changes)


def _with(found: Announcement, changes: ApiChanges) -> Announcement:
    """`found` with the names the PR removes and renames (none when it breaks nothing)."""
    if found.kind != BREAKING or not changes.breaks:
        return found
    removed = _display(changes.removed)
    renamed = tuple((old.name, new.name) for old, new in changes.renamed)
    return Announcement(
        found.kind, found.why, found.sentence, found.subject, found.hint, removed, renamed
    )


def _display(names: tuple[ApiName, ...]) -> tuple[str, ...]:
    """Removed names as a reader wants them: modules first, then classes, functions,
    fields, flags and methods; an export of a name also removed is told once."""
    order = {MODULE: 0, CLASS: 1, "function": 2, FIELD: 3, FLAG: 4, "method": 5, "export": 6}
    leaves = {n.name.rsplit(".", 1)[-1] for n in names if n.kind != "export"}
    modules = {n.name for n in names if n.kind == MODULE}
    kept = [
        n
        for n in names
        if not (n.kind == "export" and (n.name.rsplit(".", 1)[-1] in leaves or n.name in modules))
    ]
    kept.sort(key=lambda n: order.get(n.kind, 9))
    return tuple(dict.fromkeys(n.name for n in kept))


def _shown(changes: ApiChanges) -> str:
    names = [f"`{n}`" for n in _display(changes.removed)] + [
        f"`{old.name}`" for old, _ in changes.renamed
    ]
    return ", ".join(names[:2]) + (" …" if len(names) > 2 else "")


def _from_title(text: str, pr: PullRequest) -> Announcement | None:
    if not _TRIGGER.search(text):
        return None
    tagged = _TAGGED_BREAK.search(text)
    if tagged and not _REPAIR.search(text[: tagged.start()]):
        return _made(BREAKING, "marked BC-breaking", text, pr)
    # `drop Python 3.9 from the CI matrix`: only a deprecation is news in such a title, and
    # in a PR that changes only tests, docs or CI (`Cleanup tests after dropping 3.9`)
    # (`drop PyTorch<2.9 support` is the drop itself, whichever files carry it out)
    infra = bool(_INFRA_SCOPE.search(text)) or (
        _only_checks(pr) and not _DROPPED_VERSION.search(text)
    )
    for clause in _clauses(text):
        found = _judge_clause(clause, infra)
        if found is not None:
            kind, why = found
            if why in _LIBRARY_ONLY and not _touches_library(pr):
                return None  # a default or a name in a test, CI or example script
            if why == "raises a minimum version" and not _touches_manifest(pr):
                return None  # a version gate in code (`min JAX for collective streams`)
            if why in _OPTION_REMOVAL and _NOT_NEEDED.search(text):
                return None  # `remove X option, do it automatically`: nothing to act on
            return _made(kind, why, text, pr, clause)
    return None


_OPTION_REMOVAL = frozenset({"removes a public API"})
_NOT_NEEDED = re.compile(
    r"(?i)\b(?:automatic(?:ally)?|by default|no longer (?:needed|necessary))\b"
)
_CHECK_ROLES = frozenset({FileRole.TEST, FileRole.DOCS, FileRole.CI, FileRole.BENCH})


_MANIFEST = re.compile(
    r"(?i)(?:^|/)(?:setup\.py|setup\.cfg|pyproject\.toml|requirements[^/]*\.txt|cargo\.toml|"
    r"go\.mod|package\.json|environment\.ya?ml|[^/]*dependenc[^/]*|[^/]*versions?_table[^/]*)$"
)


def _touches_manifest(pr: PullRequest) -> bool:
    """Whether the PR changes what installs it: a package manifest or requirements file (a
    record with no files says nothing against it)."""
    return not pr.files or any(_MANIFEST.search(f.path) for f in pr.files)


def _only_checks(pr: PullRequest) -> bool:
    """A PR that changes only tests, docs, CI or benchmarks: its title's removals and drops
    are of those, whatever they name."""
    return bool(pr.files) and all(file_role(f.path) in _CHECK_ROLES for f in pr.files)


def _clauses(text: str) -> list[str]:
    """The title's clauses, each starting at its own verb where it has one: `Add X and
    drop Y` → [`Add X`, `drop Y`]; a leading `Java` before `Remove …` is dropped."""
    parts = [p.strip() for p in _CLAUSE_SPLIT.split(text) if p and p.strip()]
    out = []
    for part in parts:
        words = part.split()
        for i, word in enumerate(words[:4]):
            if starts_announcement(word) and i > 0:
                out.append(" ".join(words[i:]))
                break
        out.append(part)
    return out


def _judge_clause(clause: str, infra: bool) -> tuple[str, str] | None:
    if not infra:
        found = _judge_break(clause)
        if found:
            return BREAKING, found
    if _MARKED_DEPRECATED.search(clause) or _DEPRECATION_NOTICE.search(clause):
        return DEPRECATION, "adds a deprecation"
    verb = _DEPRECATE_VERB.search(clause) or _NOW_DEPRECATED.search(clause)
    if verb and not _REPAIR.search(clause[: verb.start()]):
        return DEPRECATION, "deprecates an API"
    noun = _DEPRECATION_NOUN.search(clause)
    if noun and not _REPAIR.search(clause[: noun.start()]) and not _REMOVAL.match(clause):
        return DEPRECATION, "a deprecation"
    default = _DEFAULT.search(clause)
    if not infra and default and not _REPAIR.search(clause[: default.start()]):
        if _FLIPPED.search(clause):
            return BREAKING, "flips a default"  # what users relied on now works otherwise
        return DEFAULT, "changes a default"
    return None


def _judge_break(clause: str) -> str:
    if _DROPPED_VERSION.search(clause) and not _INFRA_WORDS.search(clause):
        return "drops a supported version"
    if (_RAISED_MINIMUM.search(clause) or _NEW_MINIMUM.search(clause)) and not _LOWERED.search(
        clause
    ):
        return "raises a minimum version"
    removal = _REMOVAL.match(clause)
    if removal:
        return _judge_removal(removal.group("object"))
    rename = _RENAME.match(clause) or _ARROW.match(clause)
    old = rename.group("old").strip("`") if rename else ""
    dotted = rename is not None and rename.re is _ARROW and "." in old
    if rename and (_PUBLIC_NAME.match(old) or dotted) and not _FILE_NAME.search(old):
        return "renames a public API"
    return ""


# `Ops.IDIV -> Ops.CDIV`: a title that is the rename itself
_ARROW = re.compile(r"^`?(?P<old>[A-Za-z][\w.]*)`?\s*(?:->|→|=>)\s*`?(?P<new>[A-Za-z][\w.]*)`?")


def _renamed_in_code(text: str, pr: PullRequest) -> bool:
    """Whether the library code's diff carries out the title's rename where the reading
    of names cannot see it (an enum member, a constant): the old name leaves every line
    the diff touches, the new one comes in."""
    rename = _RENAME.match(text) or _ARROW.match(text)
    if rename is None or not rename.group("new"):
        return False
    old, new = (rename.group(k).strip("`").rsplit(".", 1)[-1] for k in ("old", "new"))
    gone = re.compile(rf"\b{re.escape(old)}\b")
    came = re.compile(rf"\b{re.escape(new)}\b")
    removed = added = False
    for change in pr.files:
        if not is_public(change.path):  # `_pytest/…` renames nothing users import
            continue
        for line in (change.patch or "").splitlines():
            if line.startswith("+") and gone.search(line):
                return False
            removed = removed or (line.startswith("-") and bool(gone.search(line)))
            added = added or (line.startswith("+") and bool(came.search(line)))
    return removed and added


_LIBRARY_ONLY = frozenset({"changes a default", "flips a default", "renames a public API"})
# A clause about tests, CI or the build matrix: `drop Python 3.9 from the CI matrix`.
_INFRA_SCOPE = re.compile(
    r"(?i)\b(?:from|in|on) (?:the )?(?:ci|tests?|test suite|matrix|benchmarks?|docker)\b|\bci\b"
)


def _judge_removal(obj: str) -> str:
    if _FROM_PUBLIC.search(obj):
        return "removes an API from the public API"
    deprecated = _DEPRECATED_ADJ.match(obj)
    if deprecated:
        what = deprecated.group("what")
        # `remove deprecated X from Y`: stops using X inside Y, removes nothing of ours
        if _FROM.search(what) or _INFRA_WORDS.search(what.split(" and ")[0]):
            return ""
        return "removes a deprecated API"
    head = _FROM.split(obj)[0]
    if _INFRA_WORDS.search(head):
        return ""
    if _OLD_FLOW.match(obj):
        return "removes an old API"
    if _PUBLIC_OBJECT.search(head):
        return "drops support" if _SUPPORT.search(head) else "removes a public API"
    return ""


def _touches_library(pr: PullRequest) -> bool:
    """Whether the PR changes more than tests, CI, docs, examples and scripts (a record
    that lists no files at all says nothing against it)."""
    return not pr.files or any(is_library(change.path) for change in pr.files)


def _made(
    kind: str,
    why: str,
    text: str,
    pr: PullRequest,
    clause: str = "",
    changes: ApiChanges | None = None,
) -> Announcement:
    found = Announcement(
        kind=kind,
        why=why,
        sentence=sentence(text),
        subject=subject(clause or text, text),
        hint=migration_hint(pr.body),
    )
    return _with(found, changes) if changes is not None else found
