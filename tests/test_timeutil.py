from datetime import UTC, date, datetime

import pytest

from prdigest.errors import ConfigError
from prdigest.timeutil import (
    Window,
    iso_week_window,
    last_complete_week,
    parse_datetime,
    window_between,
)


def test_iso_week_is_monday_to_sunday_inclusive() -> None:
    window = iso_week_window("2026-W07")
    assert window.first_day == date(2026, 2, 9)
    assert window.last_day == date(2026, 2, 15)
    assert window.label == "20260209-20260215"
    assert window.start == datetime(2026, 2, 9, tzinfo=UTC)
    assert window.end == datetime(2026, 2, 16, tzinfo=UTC)
    assert window.iso_week == "2026-W07"
    assert window.contains(datetime(2026, 2, 15, 23, 59, 59, tzinfo=UTC))
    assert not window.contains(datetime(2026, 2, 16, tzinfo=UTC))


def test_previous_window_has_the_same_length() -> None:
    window = window_between("2026-02-01", "2026-02-10")
    assert window.previous() == Window(date(2026, 1, 22), date(2026, 1, 31))
    assert window.iso_week is None


@pytest.mark.parametrize("text", ["2026-W54", "2026-07", "W07", "2026-W00"])
def test_invalid_weeks_are_refused(text: str) -> None:
    with pytest.raises(ConfigError, match="invalid week"):
        iso_week_window(text)


def test_until_before_since_is_refused() -> None:
    with pytest.raises(ConfigError, match="before"):
        window_between("2026-02-10", "2026-02-01")


def test_last_complete_week_excludes_the_week_in_progress() -> None:
    # Saturday 2026-08-22: its week (W34) is not over, so W33 is the last complete one.
    assert last_complete_week(parse_datetime("2026-08-22T22:26:39Z")) == iso_week_window("2026-W33")
