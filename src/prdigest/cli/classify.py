"""`prdigest classify train | eval | explain`: a classifier you can measure."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..classify import Profile, builtin_profile_names, profile_for
from ..classify.training_labels import WorksheetRow, read_worksheet

if TYPE_CHECKING:
    from ..classify.code_index import CodeIndex
    from ..classify.model import TrainedModel

# scikit-learn (≈1 s to import) is loaded inside the commands that need it, so that
# `prdigest --version` and every other command do not pay for it.
from ..errors import ConfigError, SourceError
from ..pipeline import classified_with
from .common import (
    AppContext,
    StderrReporter,
    emit,
    pass_app,
    repo_argument,
    stored_repo,
    sync_again,
)

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
@repo_argument()
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
    stored_repo(app.existing_store, repo)
    prs = app.existing_store.pull_requests_by_number(repo, number)
    if not prs:
        raise SourceError(
            f"{repo}#{number} is not in the store",
            f"sync it first: {sync_again(app.existing_store, repo)}",
        )
    profile = _profile(app, profile_name, repo) if profile_name else profile_for(repo, app.config)
    model: TrainedModel | None = None
    if model_path is not None:
        from ..classify.model import load_model

        model = load_model(model_path)
    else:
        model = _trained(profile)
    from ..classify.explanation import explain_lines  # scikit-learn's numpy: on use only

    lines: list[str] = []
    for pr in prs:
        lines += explain_lines(pr, profile, model, classified_with(app.existing_store, pr, profile))
    emit("\n".join(lines) + "\n", None)


def _trained(profile: Profile) -> TrainedModel | None:
    if profile.model is None:
        return None
    from ..classify.model import TrainedModel

    return profile.model if isinstance(profile.model, TrainedModel) else None
