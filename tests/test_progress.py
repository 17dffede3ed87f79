"""Long work shows progress: a rich bar with total, percentage and ETA on a terminal (a
pseudo-terminal here), a countdown while a rate limit is waited out, and plain lines
without a control character in a pipe or a file."""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import re
import struct
import subprocess
import sys
import termios
import time
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from conftest import ET_RECORDS, real_data
from github_helpers import AO, RecordingReporter, fake_for, github_sync
from prdigest.pipeline import SourceSpec, sync
from prdigest.sources import git as git_source
from prdigest.sources.git_count import CommitCount
from prdigest.store import open_store
from replay import REPOSITORY_OVERRIDES, Replay, replay

REPO = "pytorch/executorch"
BAR = re.compile(r"━+.* [\d,]+/[\d,]+ commits \(\d+%\), ETA \d+:\d\d:\d\d, [\d,.]+ commits/s")
COUNTDOWN = re.compile(r"━+.* waiting, 0:00:0(\d) left: GitHub's core rate limit is used up")


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """400 executorch records as a real git history (4 progress reports of 100)."""
    source = real_data(ET_RECORDS)
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in islice(handle, 400)]
    return replay(records, tmp_path_factory.mktemp("progress") / "repo", non_utf8=False)


@pytest.fixture(autouse=True)
def _no_outer_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in REPOSITORY_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def _environment(**extra: str) -> dict[str, str]:
    """The child's: a colour terminal, none of the settings that turn rich's off."""
    off = ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
    env = {k: v for k, v in os.environ.items() if k not in off}
    return {**env, "TERM": "xterm-256color", **extra}


def _on_a_terminal(
    argv: list[str], env: dict[str, str], columns: int = 120
) -> tuple[int, str, str]:
    """Run with stderr on a pseudo-terminal of `columns`: (exit code, stderr, stdout)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal (it exited)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert process.stdout is not None
    stdout = process.stdout.read().decode()
    process.stdout.close()
    return process.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace"), stdout


def _in_a_pipe(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    done = subprocess.run(argv, capture_output=True, env=env, timeout=120)
    return done.returncode, done.stderr.decode(), done.stdout.decode()


def _plain(text: str) -> str:
    """What a terminal shows, roughly: escape sequences out, carriage returns as lines."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "\n")


def test_sync_shows_a_bar_on_a_terminal_and_no_control_character_in_a_pipe(
    replayed: Replay, tmp_path: Path
) -> None:
    def argv(db: str) -> list[str]:
        return [sys.executable, "-m", "prdigest", "--db", str(tmp_path / db), "sync", REPO,
                "--git", str(replayed.path)]  # fmt: skip

    code, terminal, stdout = _on_a_terminal(argv("tty.db"), _environment())
    assert code == 0, terminal
    shown = _plain(terminal)
    bars = [line for line in shown.splitlines() if BAR.search(line)]
    assert bars, shown
    total = len(replayed.expected)
    assert any(f"/{total:,} commits" in line for line in bars)
    assert "\x1b[" in terminal  # drawn in place, the terminal's way
    assert shown.strip().splitlines()[-1].startswith(f"synced {REPO} from git: {total} read")
    assert stdout == ""  # stdout is data: the bar never goes there

    code, piped, stdout = _in_a_pipe(argv("pipe.db"), _environment())
    assert code == 0, piped
    assert "\x1b" not in piped and "\r" not in piped
    assert len(piped.splitlines()) == 1  # no progress line for a sync this short: the summary
    assert piped.startswith(f"synced {REPO} from git: {total} read")


def test_a_rate_limit_wait_counts_down_on_a_terminal_and_is_one_line_in_a_pipe(
    ao_jsonl: Path, tmp_path: Path
) -> None:
    def run(runner: Any, db: str) -> tuple[int, str, str]:
        fake = fake_for(ao_jsonl, AO)
        del fake.repos[AO][30:]  # one page
        with fake:
            fake.inject("primary", path=f"/repos/{AO}/pulls", reset_in=2)  # a wait of ~3 s
            argv = [sys.executable, "-m", "prdigest", "--db", str(tmp_path / db), "sync", AO,
                    "--api", "rest", "--github-api-url", fake.url]  # fmt: skip
            return runner(argv, _environment(GITHUB_TOKEN="test-token"))  # type: ignore[no-any-return]

    code, terminal, _ = run(_on_a_terminal, "tty.db")
    assert code == 0, terminal
    shown = _plain(terminal)
    left = {int(m.group(1)) for m in COUNTDOWN.finditer(shown)}
    assert len(left) >= 2, shown  # the time left, counting down
    assert "1/1 pages (100%)" in shown  # then the listing, with GitHub's page count
    assert shown.strip().splitlines()[-1].startswith(f"synced {AO} from github")

    code, piped, _ = run(_in_a_pipe, "pipe.db")
    assert code == 0, piped
    assert "\x1b" not in piped and "\r" not in piped
    lines = piped.splitlines()
    assert len(lines) == 2 and lines[1].startswith(f"synced {AO} from github")
    assert re.fullmatch(
        r"waiting 0:00:0\d: GitHub's core rate limit is used up; waiting until .* UTC", lines[0]
    )


def test_at_80_columns_every_figure_stays_whole(
    replayed: Replay, ao_jsonl: Path, tmp_path: Path
) -> None:
    """A narrow terminal drops whole figures (the rate, then the ETA), never cuts one:
    `2,200 re…` said nothing."""
    git = [sys.executable, "-m", "prdigest", "--db", str(tmp_path / "git.db"), "sync", REPO,
           "--git", str(replayed.path)]  # fmt: skip
    code, terminal, _ = _on_a_terminal(git, _environment(), columns=80)
    assert code == 0, terminal
    lines = [line for line in _plain(terminal).splitlines() if "━" in line]
    total = len(replayed.expected)
    assert any(re.search(rf" [\d,]+/{total:,} commits \(\d+%\)", line) for line in lines), lines
    fake = fake_for(ao_jsonl, AO)
    del fake.repos[AO][90:]  # three pages of 30, each with its PRs' files
    with fake:
        github = [sys.executable, "-m", "prdigest", "--db", str(tmp_path / "gh.db"), "sync", AO,
                  "--api", "rest", "--github-api-url", fake.url]  # fmt: skip
        code, terminal, _ = _on_a_terminal(github, _environment(GITHUB_TOKEN="t"), columns=80)
    assert code == 0, terminal
    shown = [line for line in _plain(terminal).splitlines() if "━" in line]
    assert any(re.search(r" \d+/\d+ pages \(\d+%\)", line) for line in shown), shown
    for line in lines + shown:
        assert len(line.rstrip()) <= 80, line
        assert "…" not in line, f"a figure was cut: {line!r}"


# -- the totals each source gives ------------------------------------------------------


def test_a_git_sync_counts_the_range_it_reads(replayed: Replay, tmp_path: Path) -> None:
    count = CommitCount(replayed.path)
    assert count.poll() is None  # nothing to count until the range is known
    middle = replayed.expected[150]["sha"]
    records = git_source.iter_git_records(
        replayed.path, REPO, after_sha=middle, on_range=count.set_range
    )
    read = sum(1 for _ in records)
    assert count.poll() is None  # started now, beside the log
    while (counted := count.poll()) is None:
        time.sleep(0.01)
    assert counted == read == len(replayed.expected) - 151


def test_a_long_git_sync_shows_the_count_as_its_total(
    replayed: Replay, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prdigest.ingest import from_git as ingest_git

    real = git_source.iter_git_records
    counts: list[CommitCount] = []
    real_init = CommitCount.__init__

    def recorded(self: CommitCount, *args: Any, **kwargs: Any) -> None:
        real_init(self, *args, **kwargs)
        counts.append(self)

    def slow(*args: Any, **kwargs: Any) -> Any:  # a long sync: git pauses after 150 commits
        for read, record in enumerate(real(*args, **kwargs), start=1):
            if read == 150:  # until the count (started at the report of 100) has ended
                deadline = time.monotonic() + 60
                while counts[0].poll() is None and time.monotonic() < deadline:
                    time.sleep(0.01)
            yield record

    monkeypatch.setattr(CommitCount, "__init__", recorded)
    monkeypatch.setattr(ingest_git, "COUNT_AFTER", 0.0)
    monkeypatch.setattr(git_source, "iter_git_records", slow)
    reports, total = _progress_of_a_sync(replayed, tmp_path)
    assert reports == [
        "progress 100/None commits",  # asked for here, the count is not known yet
        *(f"progress {read}/{total} commits" for read in range(200, total, 100)),
        f"progress {total}/{total} commits",
    ]


def _progress_of_a_sync(replayed: Replay, tmp_path: Path) -> tuple[list[str], int]:
    """The progress reports of a sync of the replayed clone (`progress 200/400 commits`),
    and how many commits it holds."""
    reporter = RecordingReporter()
    store = open_store(str(tmp_path / "s.db"))
    sync(store, REPO, SourceSpec(git=replayed.path), reporter)
    store.close()
    reports = [line.split(";")[0] for line in reporter.lines if line.startswith("progress")]
    return reports, len(replayed.expected)


def test_a_sync_shorter_than_count_after_counts_nothing(
    replayed: Replay, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prdigest.ingest import from_git as ingest_git

    monkeypatch.setattr(ingest_git, "COUNT_AFTER", 60.0)  # however slow the machine
    monkeypatch.setattr(CommitCount, "poll", lambda self: pytest.fail("counted"))
    reports, total = _progress_of_a_sync(replayed, tmp_path)
    assert reports[0] == "progress 100/None commits"
    assert reports[-1] == f"progress {total}/{total} commits"  # the end: all of it was read


def test_a_short_sync_reports_no_progress(replayed: Replay, tmp_path: Path) -> None:
    """Under 100 records: no bar to show (nor rich to import), no count to run."""
    since = datetime.fromisoformat(replayed.expected[-60]["committed_at"].replace("Z", "+00:00"))
    reporter, store = RecordingReporter(), open_store(str(tmp_path / "s.db"))
    result = sync(store, REPO, SourceSpec(git=replayed.path, since=since), reporter)
    store.close()
    assert 0 < result.read < 100
    assert not [line for line in reporter.lines if line.startswith("progress")]


def test_a_jsonl_sync_counts_the_bytes_of_its_file(executorch_jsonl: Path, tmp_path: Path) -> None:
    part = tmp_path / "part.jsonl.gz"
    with gzip.open(executorch_jsonl, "rt", encoding="utf-8") as handle:
        lines = list(islice(handle, 900))
    with gzip.open(part, "wt", encoding="utf-8") as out:
        out.writelines(lines)
    reporter, store = RecordingReporter(), open_store(str(tmp_path / "s.db"))
    sync(store, REPO, SourceSpec(jsonl=part), reporter)
    store.close()
    size = part.stat().st_size
    reports = [line for line in reporter.lines if line.startswith("progress")]
    done = [int(line.split()[1].split("/")[0]) for line in reports]
    assert all(f"/{size} bytes; " in line for line in reports)
    assert done == sorted(done) and 0 < done[0] < size and done[-1] == size
    assert reports[-1].endswith("; 900 records")


@pytest.mark.parametrize("api", ["rest", "graphql"])
def test_a_github_backfill_shows_the_listing_size(
    ao_jsonl: Path, tmp_path: Path, api: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    fake = fake_for(ao_jsonl, AO)
    del fake.repos[AO][45:]
    pulls = fake.repos[AO]
    store = open_store(str(tmp_path / "s.db"))
    with fake:
        first = RecordingReporter()
        github_sync(store, fake, since=None, api=api, reporter=first, page_size=20)
        fake.touch(AO, pulls[0]["number"], title="Touched")
        again = RecordingReporter()
        github_sync(store, fake, since=None, api=api, reporter=again, page_size=20)
    store.close()
    reports = [line.split(";")[0] for line in first.lines if line.startswith("progress")]
    if api == "rest":  # pages: before and after each page's PRs are fetched
        assert reports == [f"progress {n}/3 pages" for n in (0, 1, 1, 2, 2, 3)]
    else:
        assert reports == [f"progress {n}/45 PRs" for n in (0, 20, 20, 40, 40, 45)]
    # an incremental pass stops at what the store holds: no one can tell where
    assert all("/None " in line for line in again.lines if line.startswith("progress"))


# -- the plain lines and their figures --------------------------------------------------


def test_plain_lines_come_every_so_often_and_say_when_a_wait_begins() -> None:
    from prdigest.cli.progress import PlainLines

    now, lines = [0.0], []  # type: ignore[var-annotated]
    plain = PlainLines(lines.append, clock=lambda: now[0], every=30, remind_every=300)
    for second in range(0, 100, 5):
        now[0] = float(second)
        plain.progress(second * 10, 1000, "pages", "12 requests left")
    assert lines == [
        "300/1,000 pages (30%), ETA 0:01:10, 10 pages/s; 12 requests left",
        "600/1,000 pages (60%), ETA 0:00:40, 10 pages/s; 12 requests left",
        "900/1,000 pages (90%), ETA 0:00:10, 10 pages/s; 12 requests left",
    ]
    lines.clear()
    for second in range(3600, 0, -1):
        now[0] += 1
        plain.waiting(second, "GitHub's core rate limit is used up")
    plain.waiting(0, "GitHub's core rate limit is used up")
    assert lines[0] == "waiting 1:00:00: GitHub's core rate limit is used up"
    assert lines[1] == "still waiting, 0:55:00 left: GitHub's core rate limit is used up"
    assert len(lines) == 12  # the start, then a reminder every five minutes
    assert not any(c in "".join(lines) for c in "\x1b\r")


def test_figures_say_what_is_known() -> None:
    from prdigest.cli.progress import Pace, figures, rate_text

    pace = Pace(100, 0.0)
    assert figures(100, None, "commits", pace, 0.0) == "100 commits"
    assert figures(600, None, "commits", pace, 2.0) == "600 commits, 250 commits/s"
    assert figures(6_000_000, 12_000_000, "bytes", Pace(0, 0.0), 3.0) == (
        "6.0 MB/12.0 MB (50%), ETA 0:00:03, 2.0 MB/s"
    )
    assert rate_text(1 / 30, "pages") == "2.0 pages/min"  # GitHub, a page of PRs at a time
    assert rate_text(1 / 75, "pages") == "48 pages/h"  # a rate-limited backfill
    assert rate_text(1 / 7200, "pages") == "0.5 pages/h"
