"""The table kept per mode (firmware/modes/kept.py: KeepsTable): every mode that holds a
table writes it to the board's record store at each press and finds it again when it is
loaded after a mode switch or a reboot; a record that is garbage, of an older format, of
another set or of another mode leaves the mode as it starts, without a traceback."""

import sys

import pytest

from firmware.modes import load_mode, mode_names
from firmware.modes.kept import kept_file
from firmware.nvm_records import NvmRecords
from firmware.records import RECORD_KEYS
from host_tools.set_files import load_set
from host_tools.sim.simulator import run_script
from mode_events import MemoryRecords, boot, play

# Each mode that keeps its table, and a few events that leave a table a player would hate to
# lose (a press last: a turn alone is kept with the next press).
PLAYS = {
    "meld check": "cw 4; click; cw 3; click; cw 3; click",             # E G Bb: E dim
    # D D G, P4 marked held, back to entering
    "hand": "cw 2; click; click; cw 5; click; cw 3; long; ccw 1; click; cw 2; click; long; double",
    "chord poker": "cw 9; click; click; cw 4; click",                  # C7, E placed
    "looking glass": "cw 3; click; click; cw 4; click; cw 6; click; ccw 8; double",
    "bluff": "cw 10; click; cw 2; click; click; click",                # D locrian, 2 placed
    "steps": "cw 5; click; double",
    "alphabet": "cw 7; click; click",
    "key speller": "cw 3; double; click; click",
}
KEPT = sorted(PLAYS)


def seen(mode):
    """What a player sees of the mode: the console line and the ring."""
    frame = bytearray(36)
    mode.render(frame)
    return mode.describe(), bytes(frame)


def fresh(name):
    return seen(load_mode(name, boot(MemoryRecords())))


def keeps_table(mode):
    """KeepsTable of the kept module loaded now (a mode switch drops it and imports it again;
    a mode that keeps no table may not have it loaded)."""
    kept = sys.modules.get("firmware.modes.kept")
    return kept is not None and isinstance(mode, kept.KeepsTable)


def test_the_modes_that_keep_a_table():
    # Listen's notes are the keyboard's; the explorer's meld and root are settings; the score
    # keeps its own record (firmware/scorebook.py) and its entry selected as a setting.
    kept = [name for name in mode_names() if keeps_table(load_mode(name, boot(MemoryRecords())))]
    assert kept == [name for name in mode_names() if name in PLAYS]


@pytest.mark.parametrize("name", KEPT)
def test_a_mode_switch_and_a_reboot_keep_the_table(name):
    records = MemoryRecords()
    ctx = boot(records)
    mode = load_mode(name, ctx)
    play(mode, PLAYS[name])
    table = seen(mode)
    assert table != fresh(name)
    # To another mode and back (load_mode is what the menu's mode item calls).
    load_mode("explorer", ctx)
    again = load_mode(name, ctx)
    assert seen(again) == table
    # A reboot: new settings, a new context, the same store.
    assert seen(load_mode(name, boot(records))) == table
    assert list(records.records) == [load_mode(name, boot(MemoryRecords())).state_path()]


@pytest.mark.parametrize("name", [name for name in KEPT if name != "meld check"])
def test_a_turn_is_kept_with_the_long_press_that_opens_the_menu(name):
    records = MemoryRecords()
    mode = load_mode(name, boot(records))
    play(mode, PLAYS[name])
    writes = records.writes
    mode.on_turn(1)
    mode.render(bytearray(36))
    assert records.writes == writes                 # not at each detent, never per frame
    table = seen(mode)
    mode.on_long()                                  # the menu: a mode switch may follow
    assert records.writes == writes + 1
    assert seen(load_mode(name, boot(records))) == table
    mode.on_long()
    assert records.writes == writes + 1             # nothing changed: nothing written


def test_meld_check_keeps_a_turn_with_the_next_card():
    # Its long press acts on the cards (the menu opens only without them).
    records = MemoryRecords()
    mode = load_mode("meld check", boot(records))
    play(mode, "cw 4; click")
    writes = records.writes
    mode.on_turn(3)
    assert records.writes == writes
    mode.on_click()
    assert records.writes == writes + 1
    assert seen(load_mode("meld check", boot(records))) == seen(mode)


@pytest.mark.parametrize("name", KEPT)
@pytest.mark.parametrize("garbage", [
    b"", b"\x00", b"\xff" * 40, b"meld check 1 default\n", "\u00e9\n".encode(),
    b"%(name)s 1 %(set)s\n", b"%(name)s 1 %(set)s\n\xff\xff\xff\xff\xff\xff\xff\xff",
    b"%(name)s 1 %(set)s\n" + b"\x0c" * 14,
    b"%(name)s 1 %(set)s\n\x0b\x0c\x0d", b"%(name)s 99 %(set)s\n\x00\x00\x00\x00",
    b"%(name)s 1 jazz\n\x00\x00\x00\x00\x00",
])
def test_a_garbage_record_leaves_the_mode_as_it_starts(name, garbage):
    records = MemoryRecords()
    ctx = boot(records)
    kept_for = "default" if load_mode(name, ctx).kept_per_set else "*"
    path = load_mode(name, ctx).state_path()
    records.records[path] = garbage.replace(b"%(name)s", name.encode()).replace(
        b"%(set)s", kept_for.encode())
    mode = load_mode(name, boot(records))
    assert seen(mode) == fresh(name)
    play(mode, PLAYS[name])                         # and it plays on, and keeps the table
    assert seen(load_mode(name, boot(records))) == seen(mode)


def test_chord_poker_ignores_the_poker_record_of_the_firmware_before_the_header():
    # poker.txt held the 8 bytes alone: read as another format, the table starts afresh.
    records = MemoryRecords()
    records.records["poker.txt"] = bytes((2, 0, 3, 0, 4, 0, 0, 17))
    assert seen(load_mode("chord poker", boot(records))) == fresh("chord poker")


def test_a_record_of_another_set_is_not_read_into_this_one():
    # Bluff on the default set, then the same flash with the jazz set: its scales are others.
    records = MemoryRecords()
    play(load_mode("bluff", boot(records)), PLAYS["bluff"])
    jazz = load_mode("bluff", boot(records, "jazz"))
    assert seen(jazz) == seen(load_mode("bluff", boot(MemoryRecords(), "jazz")))
    # Steps' top card is no set's: kept across sets.
    play(load_mode("steps", boot(records)), PLAYS["steps"])
    assert load_mode("steps", boot(records, "jazz")).top == 8


def test_a_meld_set_switch_starts_the_table_afresh_and_keeps_that():
    records = MemoryRecords()
    ctx = boot(records)
    mode = load_mode("chord poker", ctx)
    play(mode, PLAYS["chord poker"])
    ctx.meldset, ctx.meldset_name = load_set("jazz"), "jazz"
    mode.set_changed()
    assert records.records["poker.txt"].startswith(b"chord poker 1 jazz\n")
    ctx.meldset, ctx.meldset_name = load_set("default"), "default"
    assert seen(load_mode("chord poker", boot(records))) == fresh("chord poker")


def test_a_restore_that_raises_starts_the_mode_afresh(monkeypatch):
    records = MemoryRecords()
    play(load_mode("steps", boot(records)), PLAYS["steps"])
    steps = sys.modules["firmware.modes.steps"]     # the module that load imported

    def broken(self, raw):
        self.top = 5
        raise IndexError("a bug in restore")
    monkeypatch.setattr(steps.Mode, "restore", broken)
    # the steps module kept as it is (a switch drops the modes' code and imports it again)
    monkeypatch.setattr("firmware.unload", lambda names: None)
    mode = load_mode("steps", boot(records))
    assert mode.top == 0
    mode.on_click()                                 # and kept again at the next change
    assert records.records["steps.txt"] == b"steps 1 *\n\x01"


def test_a_store_that_refuses_a_write_does_not_stop_the_game():
    records = MemoryRecords()
    mode = load_mode("bluff", boot(records))
    records.refuse = True
    play(mode, PLAYS["bluff"])                      # no OSError reaches the app
    assert "bluff.txt" not in records.records
    records.refuse = False
    mode.on_click()                                 # tried again at the next change
    assert seen(load_mode("bluff", boot(records))) == seen(mode)


def test_every_kept_record_has_a_key_in_circuitpythons_nvm():
    # CircuitPython keeps the records in microcontroller.nvm, by key: a name without one
    # could not be written there.
    names = [load_mode(name, boot(MemoryRecords())).state_path() for name in KEPT]
    assert all(name in RECORD_KEYS for name in names)
    assert len(set(RECORD_KEYS.values())) == len(RECORD_KEYS)
    nvm = NvmRecords(bytearray(b"\xff" * 4096), RECORD_KEYS)
    for name in KEPT:
        play(load_mode(name, boot(nvm)), PLAYS[name])
    for name in KEPT:
        assert seen(load_mode(name, boot(nvm))) != fresh(name)


def test_a_load_reads_one_record_and_a_press_writes_at_most_one():
    records = MemoryRecords()
    mode = load_mode("looking glass", boot(records))
    assert records.writes == 0                      # loading writes nothing
    mode.on_click()
    mode.on_click()
    assert records.writes == 2
    assert kept_file("looking glass") == "looking_glass.txt"


# ---- through the firmware: the simulator's flash, a menu switch, a reboot -------------------

@pytest.mark.usefixtures("simulator")
def test_bluff_keeps_the_scale_across_a_mode_switch_and_a_reboot(tmp_path):
    flash = str(tmp_path)
    _, console = run_script("cw 10; click; cw 3; click; click; click", flash=flash,
                            settings={"mode": "bluff"})
    table = "bluff: D locrian (locrian): D Eb F G Ab Bb C; degree b3 (3 of 7) is F"
    assert console[-1] == table
    # To the mode before it in the menu's list (looking glass) and back.
    _, console = run_script("long; click; ccw 1; click; long; long; click; cw 1; click; long",
                            flash=flash)
    assert console[-1] == table
    _, console = run_script("click", flash=flash)              # a reboot; the next degree
    assert console[-1].startswith("bluff: D locrian (locrian): D Eb F G Ab Bb C; degree 4 ")


@pytest.mark.usefixtures("simulator")
def test_meld_check_keeps_the_cards_across_a_reboot(tmp_path):
    flash = str(tmp_path)
    _, console = run_script("cw 4; click; cw 3; click; cw 4; click", flash=flash,
                            settings={"mode": "meld check"})
    assert console[-1].startswith("meld check: cursor B; cards E G B: E minor triad")
    # A reboot: the cards are there; turned to B, a long press takes it back; and again.
    _, console = run_script("ccw 1; cw 1; long", flash=flash)
    assert [line for line in console if line.startswith("meld check")][0].startswith(
        "meld check: cursor B; cards E G B: E minor triad")
    assert console[-1].startswith("meld check: cursor B (took back B); cards E G: E minor "
                                  "third (m3) 20 points | G major sixth (M6) 20 points")
    _, console = run_script("wait 100", flash=flash)
    assert console[-1].startswith("meld check: cursor B; cards E G: E minor third (m3)")


def test_the_bluff_click_after_a_complete_scale_waits_for_the_card_drawn():
    # The deck is shuffled: the next SCALE card is chosen with the knob, not the next in the
    # set's list.
    mode = load_mode("bluff", boot(MemoryRecords()))
    play(mode, "click; click" + "; click" * 6)
    assert mode.describe() == ("bluff: SCALE card major pentatonic (major-pentatonic) (click "
                               "to keep) (turn to the SCALE card drawn)")
    mode.on_turn(4)
    assert mode.describe() == "bluff: SCALE card major scale (major) (click to keep)"


def test_the_looking_glass_click_after_a_pick_up_waits_for_the_card_drawn():
    mode = load_mode("looking glass", boot(MemoryRecords()))
    play(mode, PLAYS["looking glass"] + "; click")
    assert mode.describe().startswith("looking glass: INTERVAL card major third (M3), at C: "
                                      "C E (click to keep) (turn to the INTERVAL card drawn)")
    play(mode, "cw 1; click")                         # the perfect fourth drawn
    assert mode.describe().startswith("looking glass: perfect fourth (P4); cards on the "
                                      "Wheel: C E A#/Bb")
