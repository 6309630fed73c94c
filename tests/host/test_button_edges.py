"""The button's edges stamped where they came (hardware/presses.py: Edges), taken by the loop's
pass (firmware/loop.py): a press made while a pass was busy goes to the mode on its own time,
in order with the turns around it. The sim twins under CPython, the pass held off as a busy
pass holds it (no tick while the pins move)."""

import pytest

from hardware.presses import EDGES, Edges
from hardware.quadrature import QuadratureDecoder
from hardware.sim import SimButton

from firmware_harness import Device


@pytest.fixture(autouse=True)
def _back_where_it_was(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)       # the device runs in its flash folder: cwd put back after


def busy(device, steps):
    """The pins move while no pass runs (a mode's start, a write to flash): `steps` are
    ("turn", detents), ("press", ms held) or ("wait", ms), on the virtual clock; then passes."""
    clock, button = device.clock, device.button
    for what, value in steps:
        if what == "turn":
            device.encoder.turn(value)
        elif what == "press":
            button.set(True, clock.ticks_ms())
            clock.advance(value)
            button.set(False, clock.ticks_ms())
        else:
            clock.advance(value)
    device.wait(500)


def wired(tmp_path):
    device = Device(tmp_path)
    device.button = SimButton(device.board["button"], device.encoder.decoder)
    device.hw.button = device.button
    device.loop.edges = device.button.edges
    return device


def test_presses_and_turns_in_a_busy_pass_come_in_their_order(tmp_path):
    device = wired(tmp_path)
    device.app.apply_setting("mode", "hand")
    device.wait(100)
    # click (a card on C), a turn, click (C#), two turns, a long press (nothing under D#:
    # the answers), all while no pass ran
    busy(device, [("press", 70), ("wait", 420), ("turn", 1), ("wait", 30), ("press", 70),
                  ("wait", 420), ("turn", 2), ("wait", 30), ("press", 900)])
    assert list(device.app.mode.counts) == [1, 1] + [0] * 10
    assert device.app.mode.cursor == 3
    assert device.line.startswith("hand: C C#/Db; 1/")       # the answers, the long press's


def test_a_double_press_and_a_long_press_are_judged_on_the_edges_times(tmp_path):
    device = wired(tmp_path)
    # explorer: a double press, its presses 70 ms apart, within one busy second, is a double
    # (at the pass's time it would be two presses seen as one or none)
    events = []
    real = device.app.event
    device.app.event = lambda press, steps=0: (events.append((press, steps)),
                                               real(press, steps))
    busy(device, [("press", 70), ("wait", 70), ("press", 70), ("wait", 600)])
    assert [press for press, _ in events] == [2]
    events.clear()
    busy(device, [("press", 300), ("wait", 600)])           # short: a click, not a long
    assert [press for press, _ in events] == [1]


def test_bounce_between_passes_makes_one_press(tmp_path):
    device = wired(tmp_path)
    events = []
    device.app.event = lambda press, steps=0: events.append(press)
    clock, button = device.clock, device.button
    for level in (True, False, True, False, True):           # 1 ms of chatter, then down
        button.set(level, clock.ticks_ms())
        clock.advance(1)
    clock.advance(100)
    for level in (False, True, False):
        button.set(level, clock.ticks_ms())
        clock.advance(1)
    device.wait(600)
    assert events == [1]
    events.clear()
    button.set(True, clock.ticks_ms())                       # a 1 ms glitch: nothing
    clock.advance(1)
    button.set(False, clock.ticks_ms())
    device.wait(600)
    assert events == []


def test_a_full_ring_keeps_the_latest_level():
    decoder = QuadratureDecoder()
    edges = Edges(decoder)
    for at in range(EDGES + 5):
        edges.put(at % 2 == 0, at)
    taken = []
    while edges.waiting():
        slot = edges.oldest()
        taken.append((edges.levels[slot], edges.times[slot]))
        edges.take()
    assert len(taken) == EDGES
    assert taken[:EDGES - 1] == [(1 - at % 2, at) for at in range(EDGES - 1)]
    assert taken[-1] == (1 - (EDGES + 4) % 2, EDGES + 4)     # the last edge, not the 16th
