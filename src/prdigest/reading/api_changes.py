"""The public names a PR adds, removes or renames, read from its files' diffs (or, when
the source has no diffs, from what its description says it removes or renames).

Read from Python files only, the language these repositories' public surface is written
in: module-level `def`/`class`, methods of a public class, class-level annotated fields
(a dataclass's or a config class's), `argparse`/click flags (`--foo`), the names an
`__init__.py` imports (its exports), and deleted or moved modules (as import paths).

What is public: no path segment or name starts with `_` (`__init__` aside), and the file
is not a test (`tests/`, `test_*.py`, `*_test.py`, `conftest.py`), CI (`.github/`,
`.ci/`, `ci/`), docs, benchmarks, third-party code or a developer script (`scripts/`,
`tools/`): users import none of them. Examples are not imported either, so their
functions do not count, but their command-line flags do: an example script's flags are
what users type (`examples/models/llama/export_llama --use_kv_cache`).

A name removed in one place and added in another of the same PR moved, and is not
removed; a removed name and a similar added one of the same kind (or the description's
"rename X to Y") is a rename. Only the diff's `-`/`+` lines are read, so a hunk's
context can only tell which class a line is in (git's hunk header names it).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..models import FileChange
from .file_roles import is_public

FUNCTION, CLASS, METHOD, FIELD, FLAG, EXPORT, MODULE, ENV = (
    "function", "class", "method", "field", "flag", "export", "module", "environment variable",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ApiName:
    kind: str  # function | class | method | field | flag | export | module | environment variable
    name: str  # as users write it: `Config.field`, `--flag`, `pkg.module`, `func`
    path: str = ""  # the file it was read in; '' when read from the description


@dataclass(frozen=True, slots=True)
class ApiChanges:
    """What a PR does to the public names. `read_from`: `diff`, `body`, or '' (nothing
    to read); `complete`: every Python file's diff was read whole (none cut short or
    missing) and no library code in another language loses lines, so what the diff
    does not show, the PR does not do."""

    added: tuple[ApiName, ...] = ()
    removed: tuple[ApiName, ...] = ()
    renamed: tuple[tuple[ApiName, ApiName], ...] = ()
    read_from: str = ""
    complete: bool = False
    # it deletes deprecation warnings of library code and adds none: what they warned
    # of is gone (`warnings.warn("X is deprecated …")` → `assert version == 2`)
    ends_deprecation: bool = False
    # it adds deprecation warnings to library code and deletes none: users are warned
    # that something will go, whatever the title calls the change ("move X to prototype")
    starts_deprecation: bool = False

    @property
    def breaks(self) -> bool:
        return bool(self.removed or self.renamed)

    def without(self, names: Iterable[str]) -> ApiChanges:
        """These changes but for removals and renames of `names` (added earlier in the
        same window: taking them back breaks no release)."""
        gone = set(names)
        return ApiChanges(
            self.added,
            tuple(n for n in self.removed if n.name not in gone),
            tuple(pair for pair in self.renamed if pair[0].name not in gone),
            self.read_from,
            self.complete,
            self.ends_deprecation,
            self.starts_deprecation,
        )


_PYTHON = (".py", ".pyi")


def module_path(path: str) -> str:
    """`torchao/quantization/quant_api.py` → `torchao.quantization.quant_api`; a
    package's `__init__.py` is the package; a leading `src/` is no part of the import."""
    stem = path.removeprefix("src/").rsplit(".", 1)[0].removesuffix("/__init__")
    return stem.replace("/", ".")


def _public_file(path: str, *, flags: bool = False) -> bool:
    """A Python file whose names users reach (`file_roles.is_public`); with `flags`, an
    example's too: its command-line flags are what users type."""
    return path.endswith(_PYTHON) and is_public(path, examples=flags)


def _public(name: str) -> bool:
    return bool(name) and not name.startswith("_")


_MEMBER = re.compile(r"(?:^|;\s*)([A-Z][A-Z0-9_]+)\s*=(?!=)")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$")
_DEF = re.compile(r"^(?:async\s+)?def\s+(\w+)\s*\(")
_CLASS = re.compile(r"^class\s+(\w+)\b")
# `name: T`, `name: T = default`: a lower-case name, an annotation that reads as a type
# (`Optional[int]`, `int | None`, `"Config"`), not a docstring's `Example: quantize_(…)`
_FIELD_LINE = re.compile(
    r"^([a-z_]\w*)\s*:\s*(?P<type>[A-Za-z_\"'][\w.\"']*(?:\[[^=]*\])?(?:\s*\|\s*[\w.\"']+(?:\[[^=]*\])?)*)"
    r"\s*(?:=.*)?$"
)
# an op's kernel registered for a tensor subclass or a backend (`@implements(aten.mm)`,
# `@register_fake`): no one calls it by name. A `@custom_op` is called by name: it counts.
_REGISTERED = re.compile(r"^@(?:[\w.]*\.)?(?:implements\w*|register_\w+|impl(?:_abstract)?)\b")
# `os.environ["X"]`, `os.getenv("X")`: an environment variable the library reads
_ENV = re.compile(
    r"""\b(?:os\.environ(?:\.get)?\s*[\[(]|os\.getenv\s*\()\s*["']([A-Z][A-Z0-9_]{2,})["']"""
)
_FLAG_LITERAL = re.compile(r"""(?<![\w-])["'](--[A-Za-z][\w.-]*)["']""")
_FLAG_CALL = re.compile(r"\b(?:add_argument|option|Option|argument)\s*\(")
_IMPORT_FROM = re.compile(r"^from\s+\S+\s+import\s+(.*)$")
_IMPORT_ITEM = re.compile(r"^(\w+)(?:\s+as\s+(\w+))?\s*,?\s*(?:#.*)?$")
_INDENT = 4  # a class body's first level by PEP 8; a file's own is read from its diff
_INDENTED = re.compile(r"^[+\- ]( +)\S", re.M)


# a deprecation warning's text or class, in the line a diff adds or removes
_DEPRECATION_WARNING = re.compile(
    r"DeprecationWarning|FutureWarning|(?i:\bdeprecat\w*\b.*\b(?:will|no longer|removed?|"
    r"favou?r|instead|please|use)\b)"
)
DEPRECATION_WARNING = "deprecation warning"  # the kind of a _Seen that is one
# a comment, or a line that silences or tests for warnings, warns no user
_SILENCED = re.compile(r"^\s*#|filterwarnings|simplefilter|catch_warnings|\bignore\b|assert")


@dataclass(frozen=True, slots=True)
class _Seen:
    sign: str  # + or -
    name: ApiName


def _names_in_patch(path: str, patch: str) -> list[_Seen]:
    """Every public name a `+` or `-` line of one file's diff defines."""
    public_code = _public_file(path)
    public_flags = _public_file(path, flags=True)
    is_init = path.rsplit("/", 1)[-1].startswith("__init__.")
    out: list[_Seen] = []
    scope = ""  # the public class the lines are in, _BLOCK, or '' (module level, a function)
    flag_call = {"+": False, "-": False}  # an open add_argument( awaiting its flag
    in_import = {"+": False, "-": False}
    decorator = {"+": "", "-": ""}
    unit = _indent_unit(patch)
    lazy = is_init and "\n+def __getattr__(" in patch  # exports now imported on first use
    for line in patch.splitlines():
        if line.startswith("@@"):
            header = _HUNK.match(line)
            section = header.group(5) if header else ""
            scope = _scope_of(section)
            flag_call = {"+": False, "-": False}
            in_import = {"+": False, "-": False}
            continue
        sign, text = line[:1], line[1:]
        if sign not in "+- " or not line:
            continue
        body = text.lstrip(" ")
        indent = len(text) - len(body)
        if indent == 0 and body and body[0].isalpha():
            scope = _scope_of(body)
        # the decorator just above, per side: a context line's is both sides'
        registered = sign != " " and bool(_REGISTERED.match(decorator[sign]))
        sides = ("+", "-") if sign == " " else (sign,)
        for side in sides:
            if body.startswith("@"):
                decorator[side] = body
            elif body.strip() and not (decorator[side] and (indent or body[0] in ")]")):
                decorator[side] = ""  # a multi-line decorator's arguments keep it
        if sign == " ":
            continue
        if public_code and not registered:  # an op's registered kernel is no API
            out.extend(_Seen(sign, n) for n in _code_names(path, body, indent, scope, unit))
        if public_code:
            out.extend(_Seen(sign, ApiName(ENV, v, path)) for v in _ENV.findall(body))
            if _DEPRECATION_WARNING.search(body) and not _SILENCED.search(body):
                out.append(_Seen(sign, ApiName(DEPRECATION_WARNING, "", path)))
        if public_code:
            if is_init and not (lazy and sign == "-"):
                out.extend(_Seen(sign, n) for n in _exports(path, body, indent, in_import, sign))
        if public_flags:
            flags = (
                _FLAG_LITERAL.findall(body) if flag_call[sign] or _FLAG_CALL.search(body) else []
            )
            out.extend(_Seen(sign, ApiName(FLAG, f, path)) for f in flags[:1] if len(f) > 3)
            if _FLAG_CALL.search(body) and not flags:
                flag_call[sign] = True  # `add_argument(` alone: the flag is on the next line
            elif body.strip():
                flag_call[sign] = False
    return out


_BLOCK = "<block>"  # an `if`/`try`/`with` at module level: what it defines is module-level
_BLOCK_START = re.compile(r"^(?:if|elif|else|try|except|finally|with)\b")


def _scope_of(line: str) -> str:
    """What the top-level line `line` opens: a public class (its name), a conditional
    module-level block (`if has_triton():`, _BLOCK), or anything else ('')."""
    found = _CLASS.match(line)
    if found:
        return found.group(1) if _public(found.group(1)) else ""
    return _BLOCK if _BLOCK_START.match(line) else ""


def _indent_unit(patch: str) -> int:
    """The file's indentation step, as its diff shows it: the shallowest indented line
    (two spaces in a file written that way, PEP 8's four otherwise)."""
    found = [len(m.group(1)) for m in _INDENTED.finditer(patch)]
    shallowest = min(found, default=_INDENT)
    return shallowest if shallowest in (2, 4) else _INDENT


def _code_names(
    path: str, body: str, indent: int, scope: str, unit: int = _INDENT
) -> list[ApiName]:
    if indent == 0 or (indent == unit and scope == _BLOCK):
        found = _DEF.match(body) or _CLASS.match(body)
        if found and _public(found.group(1)):
            kind = FUNCTION if body.startswith(("def", "async")) else CLASS
            return [ApiName(kind, found.group(1), path)]
        return []
    if indent != unit or not scope or scope == _BLOCK:
        return []
    method = _DEF.match(body)
    if method:
        name = method.group(1)
        return [ApiName(METHOD, f"{scope}.{name}", path)] if _public(name) else []
    field = _FIELD_LINE.match(body.rstrip())
    if field and _public(field.group(1)) and not body.startswith(("return", "yield", "raise")):
        return [ApiName(FIELD, f"{scope}.{field.group(1)}", path)]
    # an enum's members and a class's constants (`IDIV = auto(); MOD = auto()`)
    return [ApiName(FIELD, f"{scope}.{name}", path) for name in _MEMBER.findall(body)]


def _exports(
    path: str, body: str, indent: int, in_import: dict[str, bool], sign: str
) -> list[ApiName]:
    """The names an `__init__.py` imports, which its package exports."""
    package = module_path(path)
    items: list[str] = []
    if indent <= 2 * _INDENT and not in_import[sign]:  # under `if TYPE_CHECKING:` or `try:` too
        found = _IMPORT_FROM.match(body.rstrip())
        if not found:
            return []
        rest = found.group(1).strip()
        if rest.startswith("(") and ")" not in rest:
            in_import[sign] = True
            rest = rest[1:]
        items = [part.strip() for part in rest.strip("()").split(",")]
    elif in_import[sign]:
        stripped = body.strip()
        if stripped.startswith(")"):
            in_import[sign] = False
            return []
        items = [part.strip() for part in stripped.split(",")]
    names = []
    for item in items:
        found = _IMPORT_ITEM.match(item)
        if found:
            name = found.group(2) or found.group(1)
            if _public(name) and name != "annotations":
                names.append(ApiName(EXPORT, f"{package}.{name}", path))
    return names


def _init_alone(path: str, python: Sequence[FileChange]) -> bool:
    """Whether `path` is a package's `__init__.py` deleted while no other module of the
    package goes: the package is still there to import from (a namespace package), so no
    module is removed (what the file exported is read from its lines)."""
    if not path.endswith(("/__init__.py", "/__init__.pyi")):
        return False
    package = path.rsplit("/", 1)[0] + "/"
    return not any(
        f.path != path and f.path.startswith(package) and f.patch and _deleted(f.patch)
        for f in python
    )


def _deleted(patch: str) -> bool:
    """Whether the diff deletes the whole file (its one hunk ends at `+0,0`)."""
    header = _HUNK.match(patch.split("\n", 1)[0])
    return bool(header and header.group(3) == "0" and header.group(4) == "0")


def _created(patch: str) -> bool:
    header = _HUNK.match(patch.split("\n", 1)[0])
    return bool(header and header.group(1) == "0" and header.group(2) == "0")


def read_diff(files: Sequence[FileChange], body: str = "", title: str = "") -> ApiChanges:
    """What the PR's diffs do to its public names; from its description when none of its
    Python files has a diff."""
    python = [f for f in files if f.path.endswith(_PYTHON) or (f.old_path or "").endswith(_PYTHON)]
    with_patch = [f for f in python if f.patch]
    public = [f for f in python if _public_file(f.path) or _public_file(f.old_path or "")]
    if public and not any(f.patch for f in public):
        return read_body(body)  # the library's diffs are cut off: what the PR says it removes
    if not with_patch:
        if any(f.patch for f in files):  # diffs, none of a Python file's: no public name
            return ApiChanges(read_from="diff", complete=not python and not _other_code(files))
        return read_body(body)
    complete = not _other_code(files) and all(
        f.patch is not None and not f.patch_truncated for f in python if not f.binary
    )
    seen: list[_Seen] = []
    removed_modules: list[ApiName] = []
    added_modules: list[ApiName] = []
    created = {f.path for f in python if f.patch and _created(f.patch)}
    moved: list[tuple[ApiName, ApiName]] = []
    for change in python:
        patch = change.patch or ""
        if patch:
            seen.extend(_names_in_patch(change.path, patch))
        if _public_file(change.path) and patch and _deleted(patch):
            if not _init_alone(change.path, python):
                removed_modules.append(ApiName(MODULE, module_path(change.path), change.path))
        elif _public_file(change.path) and change.path in created:
            added_modules.append(ApiName(MODULE, module_path(change.path), change.path))
        old = change.old_path
        if old and old != change.path and _public_file(old) and old not in created:
            before, after = module_path(old), module_path(change.path)
            if before != after:
                moved.append((ApiName(MODULE, before, old), ApiName(MODULE, after, change.path)))
    # a cut diff may add back further down what it removes above: its removals are unsure,
    # unless the file adds next to nothing (a file emptied or cut down)
    cut = {f.path for f in python if f.patch_truncated and (f.additions or 0) > 2}
    seen = [
        s
        for s in seen
        if not (s.sign == "-" and s.name.path in cut and s.name.kind != DEPRECATION_WARNING)
    ]
    changes = _net(seen, removed_modules, added_modules, moved, body, title, complete)
    return _fields_still_set(_env_still_read(changes, files), files)


# code in other languages, and build files, whose public names are not read here
_OTHER_CODE = (
    ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh", ".m", ".mm", ".java",
    ".kt", ".swift", ".rs", ".go", ".js", ".ts", ".metal", ".glsl", ".cmake", ".bzl",
    "CMakeLists.txt", "BUCK", "TARGETS",
)  # fmt: skip


def _other_code(files: Sequence[FileChange]) -> bool:
    """Whether the PR deletes lines of library code the reading does not read (a C++
    API, a CMake option): its diff alone cannot say it removes nothing public."""
    return any(
        f.path.endswith(_OTHER_CODE) and (f.deletions or 0) > 0 and _library_dir(f.path)
        for f in files
    )


def _library_dir(path: str) -> bool:
    return is_public(path)


def _env_still_read(changes: ApiChanges, files: Sequence[FileChange]) -> ApiChanges:
    """Without the environment variables whose names an added line still spells (read
    now through a helper, or from C++): only one no line reads any more is gone."""
    envs = [n for n in changes.removed if n.kind == ENV]
    if not envs:
        return changes
    added = "\n".join(
        line for f in files for line in (f.patch or "").splitlines() if line.startswith("+")
    )
    kept = {n.name for n in envs if re.search(rf"\b{re.escape(n.name)}\b", added)}
    return changes.without(kept) if kept else changes


def _fields_still_set(changes: ApiChanges, files: Sequence[FileChange]) -> ApiChanges:
    """Without the fields whose annotation went but whose attribute the file still sets or
    reads (`self.group = …` in a kept or added line): the name users reach is still there."""
    fields = [n for n in changes.removed if n.kind == FIELD]
    if not fields:
        return changes
    kept_lines = {
        f.path: "\n".join(line for line in (f.patch or "").splitlines() if line[:1] in "+ ")
        for f in files
    }
    kept = {
        n.name
        for n in fields
        if re.search(rf"\.{re.escape(n.name.rsplit('.', 1)[-1])}\b", kept_lines.get(n.path, ""))
    }
    return changes.without(kept) if kept else changes


def _net(
    seen: list[_Seen],
    removed_modules: list[ApiName],
    added_modules: list[ApiName],
    moved: list[tuple[ApiName, ApiName]],
    body: str,
    title: str,
    complete: bool,
) -> ApiChanges:
    warnings = [s for s in seen if s.name.kind == DEPRECATION_WARNING]
    ends = any(s.sign == "-" for s in warnings) and not any(s.sign == "+" for s in warnings)
    starts = any(s.sign == "+" for s in warnings) and not any(s.sign == "-" for s in warnings)
    seen = [s for s in seen if s.name.kind != DEPRECATION_WARNING]
    added_keys = {_key(s.name) for s in seen if s.sign == "+"}
    removed_keys = {_key(s.name) for s in seen if s.sign == "-"}
    gone_modules = {m.name for m in removed_modules}
    removed = _unique(
        s.name
        for s in seen
        if s.sign == "-"
        and _key(s.name) not in added_keys
        and module_path(s.name.path) not in gone_modules  # told by its module
    )
    added = _unique(s.name for s in seen if s.sign == "+" and _key(s.name) not in removed_keys)
    removed = [*removed_modules, *removed]
    added = [*added_modules, *added]
    renamed = _renames(removed, added, body, title)
    paired = {old.name for old, _ in renamed}
    renamed = [*moved, *renamed]
    return ApiChanges(
        added=tuple(added),
        removed=tuple(n for n in removed if n.name not in paired),
        renamed=tuple(renamed),
        read_from="diff",
        complete=complete,
        ends_deprecation=ends,
        starts_deprecation=starts,
    )


def _key(name: ApiName) -> tuple[str, str]:
    """What stays the same when a name moves: its kind's family and its name in its scope
    (a class moved to another module is the same class; an export is its leaf)."""
    if name.kind == EXPORT:
        return ("code", name.name.rsplit(".", 1)[-1])
    if name.kind in (FUNCTION, CLASS):
        return ("code", name.name)
    return (name.kind, name.name)


def _unique(names: Iterable[ApiName]) -> list[ApiName]:
    out: dict[str, ApiName] = {}
    for name in names:
        out.setdefault(name.name, name)
    return list(out.values())


_SAID_RENAME = re.compile(
    r"(?i)\brenam\w*\s+`?(?P<old>[-\w.]+)`?\s+(?:to|->|→|=>)\s+`?(?P<new>[-\w.]+)`?"
    r"|`(?P<new2>[^`\n]+)`\s+(?:replaces|supersedes)\s+`(?P<old2>[^`\n]+)`"
)
_SIMILAR = 0.6


def _said_renames(text: str) -> list[tuple[str, str]]:
    out = []
    for found in _SAID_RENAME.finditer(text):
        old = found.group("old") or found.group("old2")
        new = found.group("new") or found.group("new2")
        if old and new:
            old, new = old.split()[0], new.split()[0]  # `--comm.mode torchcomms`: the flag
            if old != new:
                out.append((old, new))
    return out


def _renames(
    removed: list[ApiName], added: list[ApiName], body: str, title: str
) -> list[tuple[ApiName, ApiName]]:
    """Removed names paired with what replaced them: as the PR says (`rename X to Y`),
    else the most similar added name of the same kind and class."""
    pairs: list[tuple[ApiName, ApiName]] = []
    free = list(added)
    said = dict(_said_renames(f"{title}\n{body}"))
    for old in removed:
        if old.kind == MODULE:
            continue
        leaf = _leaf(old.name)
        best, best_ratio = None, _SIMILAR
        for new in free:
            if new.kind != old.kind or _scope(new.name) != _scope(old.name):
                continue
            if said.get(leaf) == _leaf(new.name) or said.get(old.name) == new.name:
                best, best_ratio = new, 2.0
                break
            ratio = difflib.SequenceMatcher(None, leaf, _leaf(new.name)).ratio()
            if ratio > best_ratio:
                best, best_ratio = new, ratio
        if best is not None:
            pairs.append((old, best))
            free.remove(best)
    return pairs


def _leaf(name: str) -> str:
    return name if name.startswith("--") else name.rsplit(".", 1)[-1]


def _scope(name: str) -> str:
    return "" if name.startswith("--") or "." not in name else name.rsplit(".", 1)[0]


# -- from the description, when there is no diff ------------------------------------

_SAID_REMOVAL = re.compile(
    r"(?i)\b(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?)\s+"
    r"(?:the\s+|support\s+for\s+)?(?:(?:deprecated|old|legacy)\s+)?"
    r"(?P<names>(?:(?:`[-\w.:()]+`|--[A-Za-z][\w-]*(?:\.[\w-]+)*|{camel})(?:\s*(?:,|and|&)\s*)?)+)".format(
        camel=r"[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*){2,}\b"
    )
)
# a name in backticks, a flag, or a CamelCase name of three parts and more (`GemliteUIntXConfig`)
_LISTED = re.compile(
    r"`([-\w.:]+)(?:\(\))?`|(--[A-Za-z][\w-]*(?:\.[\w-]+)*)|\b([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*){2,})\b"
)
_NO_BREAK = re.compile(r"(?i)\b(?:unused|dead code|no longer used|test|tests|ci|private)\b")


def read_body(body: str) -> ApiChanges:
    """What the description says the PR removes or renames, for a PR without diffs:
    "removes `X` and `Y`", "`--comm.mode torchcomms` replaces `--comm.use_torchcomms`",
    "rename `A` to `B`". Only names written as code (in backticks, or `--flags`) count."""
    text = _prose(body)
    removed: list[ApiName] = []
    for found in _SAID_REMOVAL.finditer(text):
        if text[: found.start()].rstrip(" ").endswith("`"):
            continue  # "`RemoveNoopPass` removes `clone`": what a thing does, not the PR
        after = text[found.end() : found.end() + 40]
        if _NO_BREAK.search(after.split(".")[0]) or re.match(r"\s*from\b", after):
            continue  # "remove `X` from the pass manager": a use of X goes, X stays
        for code, flag, camel in _LISTED.findall(found.group("names")):
            name = flag or code or camel
            if _api_like(name) and _code_like(name):
                removed.append(ApiName(_kind_of(name), name))
    renamed = [
        (ApiName(_kind_of(old), old), ApiName(_kind_of(new), new))
        for old, new in _said_renames(text)
        if _api_like(old) and _api_like(new) and _code_like(old)
    ]
    if not removed and not renamed:
        return ApiChanges()
    renamed_old = {old.name for old, _ in renamed}
    return ApiChanges(
        removed=tuple(_unique(n for n in removed if n.name not in renamed_old)),
        renamed=tuple(renamed),
        read_from="body",
    )


_FILE = re.compile(
    r"(?i)\.(?:sh|py|txt|md|rst|ya?ml|json|toml|cpp|cc|cu|cuh|c|h|hpp|mm?|cmake|bzl|cfg|ini|"
    r"metal|glslh?|java|kt|swift|js|ts)$"
)


def _api_like(name: str) -> bool:
    """A name users write in code or on a command line: not a file, not private."""
    return not _FILE.search(name) and "/" not in name and _public(_leaf(name).lstrip("-"))


def _code_like(name: str) -> bool:
    """`--flag`, `snake_case`, `dotted.path`, `CamelCase`: not an English word."""
    return name.startswith("--") or "_" in name or "." in name or any(c.isupper() for c in name[1:])


def _kind_of(name: str) -> str:
    if name.startswith("--"):
        return FLAG
    return CLASS if _leaf(name)[:1].isupper() else FUNCTION


_TEST_PLAN = re.compile(r"(?im)^\s*(?:#+\s*)?(?:test plan|testing|differential revision)\b.*$")


def _prose(body: str) -> str:
    """The description up to its test plan (what follows tells how it was tested)."""
    cut = _TEST_PLAN.search(body)
    return body[: cut.start()] if cut else body
