"""The score mode on the table log (firmware/modes/score.py, firmware/scorebook.py), driven
with events on CPython: the seat and first dealer asked at a new game, a chords-or-scales row
and the cards left asked, the pad's refusals said; the pad of the firmware before the table log
read once into a log."""

from core.scorepad import RANK_SCALE

from firmware import scorebook
from firmware.modes import load_mode
from mode_events import MemoryRecords, boot, play


def test_a_new_game_asks_the_seat_and_the_first_dealer():
    records = MemoryRecords()
    ctx = boot(records)
    mode = load_mode("score", ctx)
    lines = play(mode, "cw 14; click; click")       # new game: The Original, 2 players
    assert lines[-1].endswith("this wheel's seat: none, shared by the table (turn, click) "
                              "(new game)")
    lines = play(mode, "cw 1; click; cw 1; click")    # P1; P2 deals
    assert lines[-1].endswith("(P2 deals, P1 plays first, this wheel P1); next dealer if the "
                              "round ends now: P2")
    assert ctx.settings["seat"] == 1
    pad = scorebook.load(ctx)
    assert (pad.dealer, pad.current, pad.seat, len(pad.log)) == (1, 0, 0, 1)
    # A long press (the menu) leaves the asks: the seat kept, P1 dealing.
    mode = load_mode("score", ctx)
    play(mode, "cw 15; click; click; long")           # The Original, 3 players
    pad = scorebook.load(ctx)
    assert (pad.players, pad.dealer, pad.seat) == (3, 0, 0)


def test_a_chord_or_a_scale_and_the_cards_left_are_asked():
    ctx = boot(MemoryRecords())
    mode = load_mode("score", ctx)
    lines = play(mode, "cw 3; click")
    assert "; 5-card meld: a chord? (turn, click; long: back)" in lines[-1]
    play(mode, "cw 1; click")                         # a scale: the right to go out
    pad = scorebook.load(ctx)
    assert pad.melds[0][5] == RANK_SCALE and pad.totals() == [0, 100]
    lines = play(mode, "cw 6; click; cw 1; click; cw 2; click")    # went out; 3 cards left
    assert "(P2 went out +200)" in lines[0 + 1]
    assert lines[-1].endswith("(refused: P2 went out: no cards left in hand); next dealer if "
                              "the round ends now: P1")
    lines = play(mode, "double; click; cw 2; click")  # P1: 3 cards left, one entry
    assert "(P1 3 x card left in hand -30)" in lines[-1]
    assert scorebook.load(ctx).totals() == [-30, 300]


def test_the_pad_before_the_table_log_is_read_once_into_one():
    records = MemoryRecords()
    # P2: a meld of 40 credited (meld check), the 5-card meld item, a turn passed; P1: two
    # cards left; then "went out" for P1, which today's rules refuse (no scale, no chords).
    records.records["score.txt"] = b"original 2 0 0,0 a40:-1 a100:3 n a-10:10 a-10:10 a200:9"
    ctx = boot(records)
    pad = scorebook.load(ctx)
    assert pad.totals() == [-20, 140] and pad.current == 0
    assert [m[5] for m in pad.melds] == [1, 1]        # chords
    records.records["score.txt"] = b"original x"
    assert scorebook.load(boot(records)).totals() == [0, 0]
