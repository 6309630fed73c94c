"""The defects met at the table (issue: the wheel at the table), each from its exact input."""

import pytest

from host_tools.cli.main import main
from host_tools.sim.simulator import run_script

pytestmark = pytest.mark.usefixtures("simulator")


def test_meld_check_lights_an_entered_optional_note_as_entered():
    # C E G Bb (C7 with its optional fifth, 70) and C E Bb (C7 without it, 40): G is full in
    # the first, dim in the second.
    settings = {"mode": "meld check"}
    with_g, _ = run_script("click; cw 4; click; cw 3; click; cw 3; click", settings=settings)
    without_g, _ = run_script("click; cw 4; click; cw 6; click", settings=settings)
    assert "70 points" in with_g[-1]["console"] and "40 points" in without_g[-1]["console"]
    g_entered = with_g[-1]["wheel"][7]
    g_missing = without_g[-1]["wheel"][7]
    assert max(g_entered) == max(with_g[-1]["wheel"][4])        # as bright as E
    assert max(g_missing) * 2 < max(g_entered)


def test_an_unknown_mode_in_settings_is_an_error_naming_it(capsys):
    assert main(["sim", "--settings", '{"mode": "bogus"}', "--script", "click"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --settings: mode 'bogus': no such mode (modes: explorer, ")
    assert "hand, score)" in err


def test_the_display_gives_music_signs_to_notes_joined_by_a_dash():
    from firmware.screen import music_text
    from hardware.font import FLAT, SHARP
    assert music_text("(F-Gb) F#/Gb") == "(F-G%s) F%s/G%s" % (FLAT, SHARP, FLAT)
    assert music_text("-10 C-root") == "-10 C-root"
