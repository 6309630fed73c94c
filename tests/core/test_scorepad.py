"""The score pad (core/scorepad.py): each rulebook's items, rounds and next dealer; undo; the
stored log; the rules it keeps (melds only in The Original, going out, eating). Runs under
pytest and the MicroPython unix port."""

from core.check import check
from core.games import carmony_table
from core.games.carmony_table import set_rank
from core.melds import find
from core.notes import note_pc
from core.parse import pc_of
from core.scorepad import (
    CARDS_LEFT_ITEM,
    ITEMS,
    RANK_CHORD,
    RANK_SCALE,
    WENT_OUT_ITEM,
    ScorePad,
    ScorePadError,
    from_bytes,
)

from expect import default_set, raises


def item(pad, label):
    for k in range(len(pad.items)):
        if pad.items[k][0] == label:
            return k
    raise AssertionError(label)


def play(pad, meld_id, notes, who=None):
    """The meld played on the pad as the wheel writes it (MELD card, root, rank, cards,
    points); its points."""
    ms = default_set()
    index = find(ms, meld_id)
    pcs = [pc_of(n) for n in notes.split()]
    result = check(ms.meld(index), pcs)
    pad.meld(meld_id, note_pc(result.root), set_rank(ms, index), pcs, result.points, who)
    return result.points


def test_the_originals_items_are_the_scoring_table():
    assert [points for _, points in ITEMS[0]] == [20, 40, 70, 100, 100, 150, 200, 350, 500,
                                                   200, -10]
    assert ITEMS[0][WENT_OUT_ITEM][0] == "went out"


def test_a_round_of_the_original_agrees_with_the_scoring_table():
    # 3 players, P1 (seat 0) deals: P2 plays first.
    pad = ScorePad("original", 3, dealer=0)
    assert pad.current == 1
    play(pad, "min", "C Eb G")                        # P2: 40
    play(pad, "5", "D A")                             # P2: 100
    pad.next_player()
    play(pad, "major", "G A B C D E F#")              # P3: 350
    pad.next_player()
    pad.add(item(pad, "4-card meld"))                 # P1: 70
    pad.next_player()
    play(pad, "7", "F A C Eb")                        # P2: 70, a third chord
    pad.add(WENT_OUT_ITEM)                            # P2 goes out: 200
    pad.next_player()
    pad.add(item(pad, "card left in hand"), 3)        # P3: 3 cards left
    pad.next_player()
    pad.add(CARDS_LEFT_ITEM, 1)                       # P1: 1 card left
    assert pad.totals() == [
        carmony_table.round_points([70], 1, False),
        carmony_table.round_points([40, 100, 70], 0, True),
        carmony_table.round_points([350], 3, False)]
    assert pad.totals() == [60, 410, 320]
    assert pad.leaders() == [1]
    # The round's winner is P2 (seat 1): the player to their right (seat 0) deals next.
    assert pad.next_dealer() == 0
    assert pad.end_round() == 0
    assert pad.round == 1 and pad.current == 1
    assert pad.frame() == {"game": "original", "players": 3, "round": 2,
                           "totals": [60, 410, 320], "current": 1}


def test_right_of_the_winner_and_ties_go_to_who_went_out():
    pad = ScorePad("original", 4, dealer=2)
    assert pad.current == 3
    pad.next_player()               # seat 0
    pad.add(item(pad, "5-card meld"), rank=RANK_SCALE)
    pad.next_player()               # seat 1
    pad.add(item(pad, "5-card meld"), rank=RANK_SCALE)
    # Tied at 100: the first of them after the dealer (seat 2), clockwise, is seat 0; the
    # player to its right, seat 3, deals next.
    assert pad.next_dealer() == 3
    pad.add(WENT_OUT_ITEM)          # seat 1 goes out: 300, the winner
    assert pad.next_dealer() == 0
    # A tie goes to who went out.
    pad2 = ScorePad("original", 3, dealer=0)
    pad2.add(item(pad2, "7-card meld"), rank=RANK_CHORD)    # seat 1: 200
    pad2.next_player()
    pad2.next_player()
    play(pad2, "major", "C D E F G A B")                   # seat 0: 350
    pad2.add(CARDS_LEFT_ITEM, 15, who=1)                    # seat 1: 50
    pad2.add(WENT_OUT_ITEM)         # seat 0 went out: 550
    pad2.add(item(pad2, "6-card meld"), rank=RANK_SCALE, who=1)
    pad2.add(item(pad2, "major scale"), who=1)             # seat 1: 550, tied
    assert pad2.totals()[:2] == [550, 550]
    assert pad2.next_dealer() == 2  # right of seat 0


def test_three_rounds_then_the_game_is_over():
    pad = ScorePad("original", 2)
    for r in range(3):
        pad.add(r)
        nxt = pad.end_round()
    assert nxt is None and pad.over and pad.round == 2
    assert raises(ScorePadError, pad.add, 0).args[0].startswith("the game is over")
    assert pad.undo() and not pad.over


def test_chord_poker_dealer_rotates_clockwise_over_4_rounds():
    pad = ScorePad("chord-poker", 3, dealer=1)
    dealers = []
    for _ in range(3):
        pad.add(item(pad, "pair"))
        dealers.append(pad.end_round())
    assert dealers == [2, 0, 1]
    assert pad.round == 3 and not pad.over
    pad.add(item(pad, "chord completed"))
    assert pad.end_round() is None and pad.over


def test_looking_glass_two_rounds_right_of_the_winner():
    pad = ScorePad("looking-glass", 2, dealer=0)
    assert pad.current == 1
    pad.add(item(pad, "octave"))
    pad.add(item(pad, "Alice"))
    assert pad.totals() == [0, 12]
    assert pad.end_round() == 0     # seat 1 won: to its right, seat 0
    pad.add(item(pad, "rabbit's run"))
    assert pad.end_round() is None and pad.over


def test_bluff_counts_cards_and_the_fewest_leads():
    pad = ScorePad("bluff", 4, dealer=0)
    assert pad.totals() == [24, 24, 24, 24]
    pad.add(item(pad, "card placed"))
    pad.next_player()
    pad.add(item(pad, "took 3 cards"))
    assert pad.totals() == [24, 23, 27, 24] and pad.leaders() == [1]
    assert ScorePad("bluff", 3).totals() == [32, 32, 32]


def test_undo_takes_back_the_last_action_of_any_kind():
    pad = ScorePad("original", 2)
    assert not pad.undo()
    pad.add(1)
    pad.next_player()
    pad.end_round()
    assert pad.round == 1
    pad.undo()
    assert pad.round == 0 and pad.current == 0
    pad.undo()
    assert pad.current == 1
    pad.undo()
    assert pad.totals() == [0, 0]


def test_the_stored_log_round_trips_and_bad_bytes_are_named():
    pad = ScorePad("looking-glass", 3, dealer=2)
    pad.add(2)
    pad.next_player()
    pad.add(0)
    pad.end_round()
    copy = from_bytes(pad.to_bytes())
    assert copy.to_bytes() == pad.to_bytes()
    assert copy.frame() == pad.frame() and copy.by_round == pad.by_round
    assert copy.log.digest() == pad.log.digest()
    damaged = pad.to_bytes()[:-1]
    assert raises(ScorePadError, from_bytes, damaged).args[0] == (
        "stored table log: table log entry 5: an entry runs past the end")
    assert raises(ScorePadError, from_bytes, b"\x07").args[0] == (
        "stored table log: table log format 7: this firmware reads 1 and 2")
    assert "5 players" in raises(ScorePadError, ScorePad, "original", 5).args[0]


def test_a_log_of_the_firmware_before_round_ends_goes_on():
    # VERSION 1 (before ROUND said which round it ends): its ROUND had no body. A pad kept
    # that way reads, replays the same and is written again in today's form.
    from core import table
    pad = ScorePad("looking-glass", 3, dealer=2)
    pad.add(2)
    pad.end_round()
    pad.add(0)
    old = bytearray((1,))
    for origin in range(table.ORIGINS):
        table._varint(old, pad.log.base[origin])
    for k in range(len(pad.log)):
        body = table.encode(pad.log.entry(k))
        if pad.log.entry(k)[4] == table.ROUND:
            body = body[:-1]
        old.extend(body)
    copy = from_bytes(bytes(old))
    assert copy.round == pad.round == 1 and copy.by_round == pad.by_round
    assert copy.to_bytes()[0] == 2
    assert from_bytes(copy.to_bytes()).by_round == pad.by_round


def test_a_carmony_meld_is_refused_in_another_games_pad():
    for game in ("chord-poker", "looking-glass", "bluff"):
        pad = ScorePad(game, 2)
        err = raises(ScorePadError, play, pad, "7", "C E G Bb")
        assert err.args[0].startswith("the score pad is on ")
        assert pad.totals() == ScorePad(game, 2).totals() and len(pad.log) == 1


def test_going_out_needs_the_right_and_happens_once_a_round():
    pad = ScorePad("original", 2)                   # P2 plays first
    play(pad, "P5", "C G")
    err = raises(ScorePadError, pad.add, WENT_OUT_ITEM)
    assert err.args[0] == ("P2 cannot go out: going out needs at least 1 scale or 3 chords "
                           "played")
    play(pad, "maj", "C E G")
    play(pad, "min", "D F A")
    assert raises(ScorePadError, pad.add, WENT_OUT_ITEM)
    play(pad, "7", "G B D F")                        # three chords: the right to go out
    pad.add(WENT_OUT_ITEM)
    assert raises(ScorePadError, pad.add, WENT_OUT_ITEM).args[0] == (
        "P2 went out already this round: once a round")
    assert raises(ScorePadError, pad.add, CARDS_LEFT_ITEM, 2).args[0] == (
        "P2 went out: no cards left in hand")
    pad.add(CARDS_LEFT_ITEM, 4, who=0)
    assert raises(ScorePadError, pad.add, WENT_OUT_ITEM, 1, None, 0)
    assert pad.totals() == [-40, 20 + 40 + 40 + 70 + 200]
    pad.end_round()                                  # a new round: going out again
    play(pad, "major", "C D E F G A B")
    pad.add(WENT_OUT_ITEM)
    # An eaten meld no longer gives the right: the scale eaten, the right is gone.
    pad2 = ScorePad("original", 2)
    play(pad2, "dorian", "D E F G A B C")
    scale = pad2.melds[0]
    pad2.eat((scale[0], scale[1]), "major", 3, who=0)
    assert raises(ScorePadError, pad2.add, WENT_OUT_ITEM)


def test_eating_by_the_power_order_takes_the_meld_and_its_points():
    pad = ScorePad("original", 3, dealer=2)         # P1 plays first
    play(pad, "P5", "C G")                           # P1: an interval, 20
    play(pad, "maj", "D F# A")                       # P1: a chord, 40
    play(pad, "major", "C D E F G A B", who=1)       # P2: the major scale, 350
    play(pad, "chromatic", "C C# D D# E F F# G G# A A# B", who=2)
    interval, chord, major, chromatic = [(m[0], m[1]) for m in pad.melds]
    # An interval eats nothing, a chord eats an interval only, a scale a chord, the major
    # scale any but the chromatic, which nothing eats. Nor one's own meld.
    assert raises(ScorePadError, pad.eat, interval, "m3", 0, 1).args[0] == (
        "an interval cannot eat an interval: it takes a stronger MELD card (chromatic > major "
        "scale > scales > chords > intervals)")
    for target, rank, ok in ((interval, 0, False), (chord, 1, False), (interval, 1, True),
                             (chord, 2, True), (major, 2, False), (major, 3, False),
                             (major, 4, True), (chromatic, 4, False)):
        copy = from_bytes(pad.to_bytes())
        if ok:
            copy.eat(target, "card", rank, who=0 if target == major else 1)
            assert copy.meld_at(*target) < 0
        else:
            raises(ScorePadError, copy.eat, target, "card", rank, 0 if target == major else 1)
    assert raises(ScorePadError, pad.eat, chord, "blues", 2, 0).args[0] == (
        "P1's own meld: eating takes another player's")
    pad.eat(chord, "blues", 2, who=1)
    assert pad.totals() == [20, 350, 500]            # the eaten chord no longer counts
    assert raises(ScorePadError, pad.eat, chord, "lydian", 2, 1).args[0] == (
        "that meld is not on the table")
    pad.undo()
    assert pad.totals() == [60, 350, 500] and pad.meld_at(*chord) >= 0


def test_the_pile_and_the_seat():
    pad = ScorePad("original", 2, dealer=0, seat=0)  # this wheel is P1; P2 plays first
    pad.start_pile(4)
    assert pad.actor() == 0 and pad.current == 1
    pad.discard(7, who=1)                            # P2 discards G: P1 to play
    assert list(pad.pile) == [4, 7] and pad.current == 0
    pad.take_pile()
    assert list(pad.pile) == [] and raises(ScorePadError, pad.take_pile).args[0] == (
        "the discard pile is empty")
    play(pad, "maj", "C E G")                         # credited to the seat: P1
    assert pad.totals() == [40, 0]
    entry = pad.log.entry(len(pad.log) - 1)
    assert entry[1:4] == (0, 5, 0)                    # origin P1, its 5th entry, about P1
    shared = ScorePad("original", 2, dealer=0)        # no seat: the player to play
    play(shared, "maj", "C E G")
    assert shared.totals() == [0, 40] and shared.log.entry(1)[1] == 1
    assert ScorePad("original", 2, seat=3).seat is None     # no P4 at a 2-player table


def test_an_entry_refused_at_its_place_is_kept_with_no_effect_on_every_wheel():
    # Two wheels, P1's and P2's, hear each other late. P2 plays a scale; then, at the same
    # clock, P2 writes "went out" on its strength and P1 eats it. In the replay order
    # (clock, origin) P1's eat comes first: P2's going out is refused at its place, kept in
    # both logs with no effect, the same on both wheels.
    one = ScorePad("original", 2, dealer=0, seat=0)
    two = from_bytes(one.to_bytes(), 1)
    scale = two.meld("dorian", 2, RANK_SCALE, b"\x02\x04\x05\x07\x09\x0b\x00", 200)
    assert one.take(scale) == 1 and one.take(scale) == -1        # a duplicate: no change
    went = two.add(WENT_OUT_ITEM)
    eat = one.eat((scale[1], scale[2]), "major", 3)
    assert eat[0] == went[0] and two.totals() == [0, 400]
    one.take(went)
    two.take(eat)
    assert one.log.digest() == two.log.digest() and len(one.log) == len(two.log) == 4
    assert one.refused == two.refused == [(went[1], went[2])]
    assert one.totals() == two.totals() == [0, 0] and one.went_out is None
    # Undone, the eat no longer stands in the way: the going out counts on both wheels.
    undo = one.log.made(0, 0, 9, (eat[1], eat[2]))
    one.take(undo)
    two.take(undo)
    assert one.totals() == two.totals() == [0, 400] and two.went_out == 1
