"""`prdigest classify train | eval | explain`: a classifier you can measure."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..classify import Profile, builtin_profile_names, profile_for
from ..classify.features import Sample
from ..classify.rules import Decision
from ..classify.worksheet import WorksheetRow, read_worksheet

if TYPE_CHECKING:
    from ..classify.code_index import CodeIndex
    from ..classify.model import TrainedModel

# scikit-learn (≈1 s to import) is loaded inside the commands that need it, so that
# `prdigest --version` and every other command do not pay for it.
from ..errors import ConfigError, SourceError
from ..models import PullRequest
from .common import AppContext, StderrReporter, emit, pass_app

DEFAULT_PROFILE = "pytorch"

CODE_HELP = (
    "The project's code: a source tree (a clone), a package archive (.whl, .zip, .tar.gz) or "
    "an index file (.npz); the directories defining the code names in a title become "
    "features. Default: the profile's code index, if it names one."
)
NO_CODE_HELP = "Train without a code index, even the profile's."


@click.group("classify")
def classify_group() -> None:
    """Train, measure and explain the area/kind classifier."""


def _profile(app: AppContext, name: str, repo: str = "") -> Profile:
    if not name.endswith(".toml") and name not in builtin_profile_names():
        raise ConfigError(
            f"unknown profile {name!r}",
            f"use one of {', '.join(builtin_profile_names())}, or a path to a profile .toml",
        )
    return profile_for(repo, app.config, name)


def _describe(rows: list[WorksheetRow], labels: Path) -> str:
    categories = len({row.category for row in rows})
    topiced = sum(row.topic is not None for row in rows)
    return f"labels: {labels} ({len(rows)} rows, {categories} categories, {topiced} with a topic)"


@classify_group.command("train")
@click.option(
    "--labels", type=click.Path(path_type=Path), required=True, help="Labelled worksheet CSV."
)
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Model file to write.")
@click.option(
    "--profile",
    "profile_name",
    default=DEFAULT_PROFILE,
    show_default=True,
    help="Built-in profile whose rules become features.",
)
@click.option("--code", "code_path", type=click.Path(path_type=Path), help=CODE_HELP)
@click.option("--no-code", is_flag=True, help=NO_CODE_HELP)
@pass_app
def train_command(
    app: AppContext,
    labels: Path,
    out: Path,
    profile_name: str,
    code_path: Path | None,
    no_code: bool,
) -> None:
    """Train an area/kind model on a labelled worksheet (PyTorch's commitlist CSV)."""
    if out.is_dir():
        raise ConfigError(f"--out {out} is a directory", "give a file path, e.g. model.prdm")
    from ..classify.evaluate import train_on
    from ..classify.model import save_model

    rows = read_worksheet(labels)
    profile = _profile(app, profile_name)
    started = time.perf_counter()
    code = _code_index(code_path, no_code, profile)
    model = train_on(rows, profile, out.stem, code)
    save_model(model, out)
    took = time.perf_counter() - started
    indexed = f", code index of {len(code.names)} names" if code else ""
    StderrReporter().done(
        f"trained on {len(rows)} rows ({len(model.area.classes)} categories, "
        f"{model.info.get('topiced_rows', 0)} with a topic{indexed}) in {took:.1f}s → {out}"
    )


def _code_index(path: Path | None, no_code: bool, profile: Profile) -> CodeIndex | None:
    """`--code`, else the profile's code index; none with `--no-code`."""
    if no_code:
        if path is not None:
            raise click.UsageError("give --code or --no-code, not both")
        return None
    from ..classify.code_index import build_code_index

    chosen = path or profile.code_index_path
    return build_code_index(chosen) if chosen else None


@classify_group.command("eval")
@click.option(
    "--labels", type=click.Path(path_type=Path), required=True, help="Labelled worksheet CSV."
)
@click.option(
    "--model",
    "model_path",
    type=click.Path(path_type=Path),
    help="A trained model (default: the profile's rules alone).",
)
@click.option(
    "--profile",
    "profile_name",
    default=DEFAULT_PROFILE,
    show_default=True,
    help="Profile to measure.",
)
@click.option(
    "--folds",
    "--cv",
    "folds",
    type=click.IntRange(min=2),
    default=None,
    help="Train and measure by K-fold cross-validation on the labels themselves.",
)
@click.option(
    "--code",
    "code_path",
    type=click.Path(path_type=Path),
    help=CODE_HELP + " With --folds (a --model carries its own).",
)
@click.option("--no-code", is_flag=True, help=NO_CODE_HELP + " With --folds.")
@click.option(
    "--out", type=click.Path(path_type=Path), help="Write the report here instead of stdout."
)
@pass_app
def eval_command(
    app: AppContext,
    labels: Path,
    model_path: Path | None,
    profile_name: str,
    folds: int | None,
    code_path: Path | None,
    no_code: bool,
    out: Path | None,
) -> None:
    """Per-class precision/recall, main confusions and accuracy against a labelled worksheet."""
    if model_path is not None and folds is not None:
        raise click.UsageError(
            "give --model (measure a trained model) or --folds (cross-validate), not both"
        )
    if (code_path is not None or no_code) and folds is None:
        raise click.UsageError(
            "--code and --no-code go with --folds (a trained model carries its own index)"
        )
    from ..classify.evaluate import classify_rows, cross_validate, report, summary_line
    from ..classify.model import load_model

    rows = read_worksheet(labels)
    profile = _profile(app, profile_name)
    header = [_describe(rows, labels)]
    reporter = StderrReporter()
    if folds is not None:
        if folds > len(rows):
            raise ConfigError(
                f"--folds {folds} exceeds the {len(rows)} labelled rows", "use fewer folds"
            )
        code = _code_index(code_path, no_code, profile)
        header.append(
            f"method: {folds}-fold cross-validation (stratified, seed 0), "
            f"rules ({profile.name}) + model trained on the other folds"
            + (f", code index of {code.source} ({len(code.names)} names)" if code else "")
        )
        started = time.perf_counter()
        result = cross_validate(
            rows,
            profile,
            folds,
            progress=lambda done, total: reporter.progress(done, total, "folds"),
            code=code,
        )
        reporter.done(f"cross-validated {len(rows)} rows in {time.perf_counter() - started:.1f}s")
        header.append(
            summary_line(
                "model alone, for comparison (argmax, no rule overrides)", result.model_alone
            )
        )
        text = report(result.outcomes, header, result.folds)
    elif model_path is not None:
        model = load_model(model_path)
        header.append(f"method: rules ({profile.name}) + model {model_path}")
        text = report(classify_rows(rows, profile, model), header + [""])
    else:
        header.append(f"method: rules alone (profile {profile.name})")
        text = report(classify_rows(rows, profile, None), header + [""])
    emit(text, out)


@classify_group.command("index")
@click.option(
    "--code",
    "code_path",
    type=click.Path(path_type=Path),
    required=True,
    help="A source tree (a clone) or package archive (.whl, .zip, .tar.gz) to index.",
)
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Index file to write (.npz)."
)
def index_command(code_path: Path, out: Path) -> None:
    """Index a project's code once, for `--code FILE` or a profile's `code_index`."""
    from ..classify.code_index import INDEX_SUFFIX, build_code_index

    if not out.name.endswith(INDEX_SUFFIX):
        raise ConfigError(f"--out {out} does not end in {INDEX_SUFFIX}", "name it e.g. code.npz")
    started = time.perf_counter()
    index = build_code_index(code_path)
    index.save(out)
    StderrReporter().done(
        f"indexed {len(index)} code names in {len(index.directories)} directories of "
        f"{code_path} in {time.perf_counter() - started:.1f}s → {out}"
    )


@classify_group.command("explain")
@click.argument("repo")
@click.argument("number", type=int)
@click.option("--profile", "profile_name", help="Profile (default: the repository's).")
@click.option(
    "--model",
    "model_path",
    type=click.Path(path_type=Path),
    help="Also consult this trained model.",
)
@pass_app
def explain_command(
    app: AppContext, repo: str, number: int, profile_name: str | None, model_path: Path | None
) -> None:
    """Show a stored PR's area and kind with the evidence for each."""
    prs = app.existing_store.pull_requests_by_number(repo, number)
    if not prs:
        raise SourceError(
            f"{repo}#{number} is not in the store",
            f"sync it first: prdigest sync {repo} --jsonl FILE",
        )
    profile = _profile(app, profile_name, repo) if profile_name else profile_for(repo, app.config)
    model: TrainedModel | None = None
    if model_path is not None:
        from ..classify.model import load_model

        model = load_model(model_path)
    else:
        model = _trained(profile)
    lines: list[str] = []
    for pr in prs:
        lines += explain_lines(pr, profile, model, _week_of(app, pr, profile))
    emit("\n".join(lines) + "\n", None)


def _week_of(app: AppContext, pr: PullRequest, profile: Profile) -> list[PullRequest]:
    """The PRs a digest classifies with this one: its ISO week and the week before (the
    generic profile derives its areas from them, spelled as the digest spells them)."""
    if pr.merged_at is None:
        return [pr]
    from datetime import timedelta

    from ..store.spelling import title_spelling
    from ..timeutil import last_complete_week

    week = last_complete_week(pr.merged_at + timedelta(days=7))
    profile.use_spelling(title_spelling(app.existing_store, pr.repo, week))
    batch = app.existing_store.merged_between(pr.repo, week.previous().start, week.end)
    return batch if any(other.sha == pr.sha for other in batch) else [*batch, pr]


def _trained(profile: Profile) -> TrainedModel | None:
    if profile.model is None:
        return None
    from ..classify.model import TrainedModel

    return profile.model if isinstance(profile.model, TrainedModel) else None


def explain_lines(
    pr: PullRequest,
    profile: Profile,
    model: TrainedModel | None,
    batch: list[PullRequest] | None = None,
) -> list[str]:
    """The PR classified as a digest would (with `batch`, the PRs classified with it) by
    `profile` and `model`; which rule or model won each of area and kind, and why the
    other rules' answers lost, all from the one engine that decided."""
    from ..classify.explain import area_rivals, kind_rivals, model_lines, why_won

    batch = batch or [pr]
    chosen = profile.with_model(model) if model is not None else profile
    position = next(i for i, other in enumerate(batch) if other.sha == pr.sha)
    label = chosen.classify_all(batch)[position]
    engine = chosen.engine  # after classify_all: the generic profile's derived one too
    area_rule, kind_rule = engine.decide(pr)
    area = _decided(label.area, label.area_rule, label.confidence, area_rule)
    kind = _decided(label.kind, label.kind_rule, 1.0, kind_rule)
    lines = [
        f"{pr.repo}#{pr.number}  {pr.title}" + (f"  ({pr.sha[:10]})" if pr.sha else ""),
        f"profile: {profile.name}" + (f" + model {model.name}" if model else ""),
        f"area: {label.area}  (decided by {label.area_rule}, confidence {label.confidence:.2f})",
        why_won(area),
        *(model_lines(area_rule, area, "area") if model else []),
        *(rival.line for rival in area_rivals(engine, pr, area_rule)),
        f"kind: {label.kind}  (decided by {label.kind_rule})",
        why_won(kind),
        *(model_lines(kind_rule, kind, "kind") if model else []),
        *(rival.line for rival in kind_rivals(engine, pr, kind_rule)),
    ]
    if model is not None:
        guess = model.guess([Sample.from_pr(pr)])[0]
        its_kind = f"; kind {guess.kind} ({guess.kind_confidence:.2f})" if guess.kind else ""
        lines.append(
            f"model: area {model.display(guess.area)} ({guess.area_confidence:.2f}), "
            f"best area besides skip {model.display(guess.area_no_skip)} "
            f"({guess.area_no_skip_confidence:.2f}){its_kind}"
        )
    if model is not None and model.featurizer.code is not None:
        named = model.featurizer.code.lookup(pr.title)
        if named:
            lines.append("code: " + "; ".join(_placed(name, dirs) for name, dirs in named[:4]))
    if pr.labels:
        lines.append(f"labels: {', '.join(pr.labels)}")
    if pr.files:
        shown = [change.path for change in pr.files[:8]]
        more = f" … (+{len(pr.files) - 8})" if len(pr.files) > 8 else ""
        lines.append(f"files: {', '.join(shown)}{more}")
    lines.append("")
    return lines


def _decided(value: str, rule: str, confidence: float, by_rules: Decision) -> Decision:
    """The decision as stored (a model's, or the rules' own)."""
    if rule.startswith("model:"):
        return Decision(value, rule, "model", confidence)
    return by_rules


def _placed(name: str, directories: tuple[str, ...]) -> str:
    shown = ", ".join(directories[:3]) + (
        f" (+{len(directories) - 3})" if len(directories) > 3 else ""
    )
    return f"{name} → {shown}"
