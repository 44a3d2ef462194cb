from datetime import date, timedelta

from server.annotation.badges import badges, longest_streak


def test_longest_streak():
    start = date(2026, 1, 1)
    days = {start + timedelta(days=i) for i in (0, 1, 2, 5, 6, 7, 8)}
    assert longest_streak(days) == 4
    assert longest_streak(set()) == 0


def test_thresholds():
    names = [b.name for b in badges("Sentiment", 120, 50, {date(2026, 1, 1)})]
    assert names == ["50 examples", "100 examples", "50 validations"]
