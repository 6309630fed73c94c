"""Press detection on a polled contact with bounce, at 5 ms polling."""

from hardware.clock import ticks_add
from hardware.presses import CLICK, DOUBLE, LONG, PressDetector


def run(timeline, until, poll_ms=5):
    """timeline: (time_ms, pressed) changes; returns [(time, event)]."""
    detector = PressDetector(50, 700, 350)
    events = []
    state = False
    changes = list(timeline)
    for now in range(0, until, poll_ms):
        while changes and changes[0][0] <= now:
            state = changes.pop(0)[1]
        event = detector.update(state, now)
        if event:
            events.append((now, event))
    return events


def chatter(at, pressed):
    """A contact edge with 10 ms of bounce."""
    return [(at, pressed), (at + 2, not pressed), (at + 4, pressed), (at + 8, not pressed),
            (at + 10, pressed)]


def test_short_press_is_a_click_after_the_double_window():
    events = run(chatter(100, True) + chatter(200, False), 1200)
    assert [e for _, e in events] == [CLICK]
    assert 200 + 350 <= events[0][0] <= 200 + 350 + 20


def test_bounce_does_not_make_extra_presses():
    events = run(chatter(100, True) + chatter(180, False) + chatter(1000, True)
                 + chatter(1090, False), 2000)
    assert [e for _, e in events] == [CLICK, CLICK]


def test_double_press_reported_on_the_second_press():
    events = run(chatter(100, True) + chatter(180, False) + chatter(300, True)
                 + chatter(380, False), 1500)
    assert [e for _, e in events] == [DOUBLE]
    assert 300 <= events[0][0] <= 310


def test_long_press_while_held_and_no_click_after():
    events = run(chatter(100, True) + chatter(1200, False), 2500)
    assert [e for _, e in events] == [LONG]
    assert 800 <= events[0][0] <= 815


def test_slow_second_press_is_two_clicks():
    events = run(chatter(100, True) + chatter(180, False) + chatter(700, True)
                 + chatter(780, False), 2000)
    assert [e for _, e in events] == [CLICK, CLICK]


def test_tick_wrap_around():
    detector = PressDetector(50, 700, 350)
    start = ticks_add(0, -100)       # 100 ms before the ticks counter wraps
    assert detector.update(True, start) == 0
    assert detector.update(False, ticks_add(start, 100)) == 0
    assert detector.update(False, ticks_add(start, 500)) == CLICK


def later(t, ms):
    """ticks_add in steps: a port refuses a delta of half a period (6.2 days) or more."""
    while ms:
        step = min(ms, 1 << 28)
        t = ticks_add(t, step)
        ms -= step
    return t


def test_a_press_after_days_idle_past_half_the_tick_period():
    # ticks_ms wraps every 2**30 ms on a 32-bit port and ticks_diff is right only within half
    # of that (6.2 days): a wheel left on for a week must still hear its button.
    detector = PressDetector(50, 700, 350)
    t = 1000
    assert detector.update(True, t) == 0
    assert detector.update(False, ticks_add(t, 100)) == 0
    assert detector.update(False, ticks_add(t, 500)) == CLICK
    for days in (1, 6, 7, 11):
        now = later(t, days * 86400000)
        assert detector.update(True, now) == 0
        assert detector.update(False, ticks_add(now, 100)) == 0
        assert detector.update(False, ticks_add(now, 500)) == CLICK, days
        t = now
    # Held for days: one LONG, then the release is heard.
    now = ticks_add(t, 1000)
    detector.update(True, now)
    assert detector.update(True, ticks_add(now, 800)) == LONG
    assert detector.update(False, later(now, 7 * 86400000)) == 0
    assert detector.update(True, later(now, 7 * 86400000 + 100)) == 0


def test_a_press_seen_after_the_window_closed_unpolled_is_a_new_press():
    # A slow pass (no poll between 350 and 420 ms after the release): the next press is not a
    # double press of the first; the first is a click, reported as the second goes down.
    detector = PressDetector(50, 700, 350)
    assert detector.update(True, 100) == 0
    assert detector.update(False, 170) == 0
    assert detector.update(True, 170 + 420) == CLICK
    assert detector.update(False, 170 + 490) == 0
    assert detector.update(False, 170 + 490 + 349) == 0
    assert detector.update(False, 170 + 490 + 350) == CLICK
    # Within the window it is still a double press.
    assert detector.update(True, 2000) == 0
    assert detector.update(False, 2070) == 0
    assert detector.update(True, 2070 + 340) == DOUBLE


def test_due_reports_what_time_alone_makes_due_without_reading_the_contact():
    detector = PressDetector(50, 700, 350)
    detector.update(True, 0)
    assert detector.due(699) == 0
    assert detector.due(700) == LONG
    detector.update(False, 900)
    assert detector.due(2000) == 0              # a long press makes no click after it
    detector.update(True, 3000)
    detector.update(False, 3070)
    assert detector.due(3070 + 349) == 0
    assert detector.due(3070 + 350) == CLICK
    assert detector.due(3070 + 351) == 0
