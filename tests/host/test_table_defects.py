"""The defects met at the table (issue: the wheel at the table), each from its exact input."""

import pytest

from host_tools.cli.main import main
from host_tools.sim.simulator import run_script

FLAT = "\u266d"                 # the display frames' flat sign

pytestmark = pytest.mark.usefixtures("simulator")


def test_meld_check_lights_an_entered_optional_note_as_entered():
    # C E G Bb (C7 with its optional fifth, 70) and C E Bb (C7 without it, 40): G is full in
    # the first, dim in the second.
    settings = {"mode": "meld check"}
    with_g, _ = run_script("click; cw 4; click; cw 3; click; cw 3; click", settings=settings)
    without_g, _ = run_script("click; cw 4; click; cw 6; click", settings=settings)
    # The frames of the last click (a blink's frame after it says nothing on the console).
    with_g = [f for f in with_g if f["console"]]
    without_g = [f for f in without_g if f["console"]]
    assert "70 points" in with_g[-1]["console"] and "40 points" in without_g[-1]["console"]
    g_entered = with_g[-1]["wheel"][7]
    g_missing = without_g[-1]["wheel"][7]
    assert max(g_entered) == max(with_g[-1]["wheel"][4])        # as bright as E
    assert max(g_missing) * 2 < max(g_entered)


def test_an_unknown_mode_in_settings_is_an_error_naming_it(capsys):
    assert main(["sim", "--settings", '{"mode": "bogus"}', "--script", "click"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --settings: mode 'bogus': no such mode (modes: explorer, ")
    assert "hand, score, " in err and err.endswith(", listen)\n")


def test_the_display_gives_music_signs_to_notes_joined_by_a_dash():
    from hardware.font import FLAT, SHARP

    from firmware.screen import music_text
    assert music_text("(F-Gb) F#/Gb") == "(F-G%s) F%s/G%s" % (FLAT, SHARP, FLAT)
    assert music_text("-10 C-root") == "-10 C-root"


def test_meld_check_two_quick_clicks_add_two_cards_each_at_once():
    # Defect 4: the quick second click was a double press and took the A back; in card
    # entry each click now acts on release, so the quick pair adds A twice (after the
    # script's first click: three A cards).
    settings = {"mode": "meld check"}
    script = "cw 9; click; press; wait 80; release; wait 120; press; wait 80; release"
    frames, console = run_script(script, settings=settings)
    assert console[-1] == "meld check: cursor A; cards A A A: no meld"
    assert [f.get("console") for f in frames if f.get("console")][-3:] == [
        "meld check: cursor A; cards A: no meld", "meld check: cursor A; cards A A: A octave "
        "(P8) 20 points", "meld check: cursor A; cards A A A: no meld"]
    # At once: the card is there in the frame of the release, no 350 ms wait.
    _, first = run_script("cw 9; press; wait 80; release", settings=settings)
    assert first[-1].startswith("meld check: cursor A; cards A")
    # Another mode keeps its double press (chord poker: the root change preview).
    _, poker = run_script("cw 9; click; click; cw 4; click; cw 3; click; cw 2; double",
                          settings={"mode": "chord poker"})
    assert "root change preview to A" in poker[-1]


def test_meld_check_a_long_press_on_a_card_takes_it_back():
    _, console = run_script("cw 9; click; press; wait 80; release; wait 100; ccw 1; cw 1; "
                            "long", settings={"mode": "meld check"})
    assert console[-1] == "meld check: cursor A (took back A); cards A: no meld"
    # On an empty sector, the long press plays the meld: A octave.
    _, console = run_script("cw 9; click; click; cw 1; long", settings={"mode": "meld check"})
    assert console[-1].startswith("meld check: cursor A#/Bb (played, credited 20 to P2")


def test_the_press_detector_reports_clicks_at_once_when_asked():
    from hardware.presses import CLICK, DOUBLE, PressDetector
    events = []
    for at_once in (False, True):
        detector = PressDetector(50, 700, 350)
        detector.at_once = at_once
        got = []
        for now in range(0, 1500, 5):
            pressed = 100 <= now < 180 or 300 <= now < 380      # two quick clicks
            event = detector.update(pressed, now)
            if event:
                got.append((now, event))
        events.append(got)
    assert events[0] == [(300, DOUBLE)]
    assert events[1] == [(180, CLICK), (380, CLICK)]


def test_meld_check_steps_through_the_readings_and_the_display_cuts_none():
    # Defect 2: C Eb F G Bb ended at `C min11: 100 p..`; the pentatonic readings and the
    # C-root warning were never shown. A long press steps into the readings (six here, all
    # 100 points: five cards), the knob steps, the display shows one whole with `k/6`.
    cards = "click; cw 3; click; cw 2; click; cw 2; click; cw 3; click"
    frames, console = run_script(cards + "; cw 1; long; cw 3; wait 100; cw 1; wait 100; cw 1",
                                 settings={"mode": "meld check"})
    shown = [f["display"] for f in frames if f["console"]]
    assert "1/6 E%s 6/9 100" % FLAT in shown[-6]
    assert shown[-3] == ["cards C E%s F G" % FLAT, "B%s" % FLAT, "4/6 C min11 100",
                         "(C root: refill)", "(turn: the next)"]
    assert shown[-2][2:4] == ["5/6 E%s" % FLAT, "major-pentatonic"]
    assert shown[-1][2:5] == ["6/6 C", "minor-pentatonic", "100"]
    assert shown[-1][5] == "(C root: refill)"
    assert not [d for d in shown if d and d[-1].endswith("..")]
    assert console[-1].startswith("meld check: reading 6/6 C minor pentatonic "
                                  "(minor-pentatonic) 100 points (C root: refill) (click plays")
    # The ring shows the reading selected: C minor pentatonic, C Eb F G Bb, root C (and the
    # cursor, on B).
    assert [pc for pc in range(11) if any(frames[-1]["wheel"][pc])] == [0, 3, 5, 7, 10]
    # A click plays the reading shown onto the score pad; one reading alone plays at once.
    _, console = run_script(cards + "; cw 1; long; cw 3; click", settings={"mode": "meld check"})
    assert console[-1].startswith("meld check: cursor B (played, credited 100 to P2")


def test_chord_poker_keeps_the_table_across_a_mode_switch_and_a_reboot(tmp_path):
    # Defect 7: the Chord Poker wheel was lost on a mode switch; a click after "complete"
    # jumped to the next card in list order; no undo.
    flash = str(tmp_path)
    poker = {"mode": "chord poker"}
    # The C major triad (turned to, kept), root C, E placed: G still missing.
    _, console = run_script("cw 1; click; click; cw 4; click", settings=poker, flash=flash)
    wheel = "chord poker: C major triad (maj): on the Wheel C E; missing G; cursor E"
    assert console[-1] == wheel
    # To the mode before it in the menu's list and back (the mode item is the menu's first).
    _, console = run_script("long; click; ccw 1; click; long; long; click; cw 1; click; long",
                            flash=flash)
    assert console[-1] == wheel
    # A reboot (a new run on the same flash) keeps it too; G completes the chord; the click
    # after "complete" stays on the card for the one drawn; a double press takes it back.
    _, console = run_script("cw 3; click; click; double", flash=flash)
    assert console[-3].endswith("complete: 5 points (click for the next chord)")
    assert console[-2].startswith("chord poker: CHORD card maj major triad (click to keep)")
    assert console[-1].startswith("chord poker: C major triad (maj): on the Wheel C E G; "
                                  "missing nothing; cursor G; complete: 5 points")
