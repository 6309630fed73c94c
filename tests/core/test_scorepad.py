"""The score pad (core/scorepad.py): each rulebook's items, rounds and next dealer; undo; the
stored text. Runs under pytest and the MicroPython unix port."""

from core.check import check
from core.games import carmony_table
from core.melds import find
from core.parse import pc_of
from core.scorepad import ITEMS, WENT_OUT_ITEM, ScorePad, ScorePadError, from_text

from expect import default_set, raises


def item(pad, label):
    for k in range(len(pad.items)):
        if pad.items[k][0] == label:
            return k
    raise AssertionError(label)


def meld_points(meld_id, notes):
    ms = default_set()
    return check(ms.meld(find(ms, meld_id)), [pc_of(n) for n in notes.split()]).points


def test_the_originals_items_are_the_scoring_table():
    assert [points for _, points in ITEMS[0]] == [20, 40, 70, 100, 100, 150, 200, 350, 500,
                                                   200, -10]
    assert ITEMS[0][WENT_OUT_ITEM][0] == "went out"


def test_a_round_of_the_original_agrees_with_the_scoring_table():
    # 3 players, P1 (seat 0) deals: P2 plays first.
    pad = ScorePad("original", 3, dealer=0)
    assert pad.current == 1
    pad.credit(meld_points("min", "C Eb G"))          # P2: 40
    pad.credit(meld_points("5", "D A"))               # P2: 100
    pad.next_player()
    pad.credit(meld_points("major", "G A B C D E F#"))  # P3: 350
    pad.next_player()
    pad.add(item(pad, "4-card meld"))                 # P1: 70
    pad.next_player()
    pad.credit(meld_points("7", "F A C Eb"))          # P2: 70
    pad.add(WENT_OUT_ITEM)                            # P2 goes out: 200
    pad.next_player()
    for _ in range(3):
        pad.add(item(pad, "card left in hand"))       # P3: 3 cards left
    pad.next_player()
    pad.add(item(pad, "card left in hand"))           # P1: 1 card left
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
    pad.credit(100)
    pad.next_player()               # seat 1
    pad.credit(100)
    # Tied at 100: the first of them after the dealer (seat 2), clockwise, is seat 0; the
    # player to its right, seat 3, deals next.
    assert pad.next_dealer() == 3
    pad.add(WENT_OUT_ITEM)          # seat 1 goes out: 300, the winner
    assert pad.next_dealer() == 0
    # A tie goes to who went out.
    pad2 = ScorePad("original", 3, dealer=0)
    pad2.credit(200)                # seat 1
    pad2.next_player()
    pad2.next_player()
    pad2.add(WENT_OUT_ITEM)         # seat 0 went out: 200, tied with seat 1
    assert pad2.next_dealer() == 2  # right of seat 0


def test_three_rounds_then_the_game_is_over():
    pad = ScorePad("original", 2)
    for r in range(3):
        pad.credit(20 * (r + 1))
        nxt = pad.end_round()
    assert nxt is None and pad.over and pad.round == 2
    assert raises(ScorePadError, pad.credit, 20).args[0].startswith("the game is over")
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
    pad.credit(40)
    pad.next_player()
    pad.end_round()
    assert pad.round == 1
    pad.undo()
    assert pad.round == 0 and pad.current == 0
    pad.undo()
    assert pad.current == 1
    pad.undo()
    assert pad.totals() == [0, 0]


def test_stored_text_round_trips_and_bad_text_is_named():
    pad = ScorePad("looking-glass", 3, dealer=2)
    pad.add(2)
    pad.next_player()
    pad.credit(8)
    pad.end_round()
    copy = from_text(pad.to_text())
    assert copy.to_text() == pad.to_text()
    assert copy.frame() == pad.frame() and copy.lines() == pad.lines()
    assert "entry 2" in raises(ScorePadError, from_text, "original 2 0 0,0 n x").args[0]
    assert raises(ScorePadError, from_text, "poker 2 0 0,0").args[0].startswith(
        "stored score pad: no game 'poker'")
    assert "5 players" in raises(ScorePadError, ScorePad, "original", 5).args[0]


def test_lines_show_rounds_totals_turn_and_next_dealer():
    pad = ScorePad("original", 2, dealer=0)
    pad.credit(70)
    lines = pad.lines()
    assert lines[0] == "The Original, round 1 of 3"
    assert lines[1] == "P1      0  (0) dealer"
    assert lines[2] == "P2 >   70  (70) leads"
    assert lines[3] == "next dealer if the round ends now: P1"
