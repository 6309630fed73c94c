"""Through the Looking Glass: rulebook cases set up by hand."""

from core.games import looking_glass as lg
from core.games.rng import Rng

from expect import default_set, raises


def fresh(players=2, seed=1):
    """A new round in which seat 0 plays first."""
    return lg.Round(players, players - 1, Rng(seed), lg.interval_semitones(default_set()))


def take_note(r, pc):
    """A NOTE card of this pitch class, taken from wherever it is."""
    zones = [r.note_deck] + r.hands + r.piles + r.wheel
    for zone in zones:
        for card in zone:
            if lg.note_pc(card) == pc:
                zone.remove(card)
                return card
    raise AssertionError("no card of pc %d left" % pc)


def setup(r, hand_pcs, wheel_pcs, interval):
    """Seat 0's hand and the Wheel hold exactly these; the INTERVAL card shows `interval`."""
    for zone in [r.hands[0]] + r.wheel:
        r.note_deck.extend(zone)
        del zone[:]
    r.hands[0].extend(take_note(r, pc) for pc in hand_pcs)
    for pc in wheel_pcs:
        r.wheel[pc].append(take_note(r, pc))
    r.interval_deck.append(r.interval)
    card = [c for c in r.interval_deck if r.semitones(c) == interval][0]
    r.interval_deck.remove(card)
    r.interval = card
    r.check_cards()
    return r


def test_setup():
    # "deals 3 NOTE cards to each player ... the top card of the INTERVAL deck is turned over
    # and placed on the Wheel, and 4 NOTE cards are turned over and placed on the Wheel"
    r = fresh(4)
    assert [len(h) for h in r.hands] == [3, 3, 3, 3]
    assert r.wheel_cards() == 4 and r.interval is not None and r.turn == 0
    assert len(r.interval_deck) == 35 and len(r.note_deck) == 96 - 12 - 4
    r.check_cards()
    raises(lg.RuleError, fresh, 5)


def test_pick_up_with_either_card_on_position_1():
    r = setup(fresh(), [0], [7, 5, 2], 7)               # C in hand; G, F, D on the Wheel; P5
    picks = sorted(m[2] for m in r.legal_moves() if m[0] == "pick")
    assert picks == [5, 7]                               # C-G, and F-C with F on 1
    r.apply([m for m in r.legal_moves() if m[0] == "pick" and m[2] == 5][0])
    assert [lg.note_pc(c) for c in r.piles[0]] == [0, 5]  # F (position 1) on top
    assert [r.semitones(c) for c in r.won[0]] == [7]
    assert r.rabbits[0] == 0                             # G and D are still on the Wheel
    assert r.interval is not None                        # the next player turns a new one over


def test_octave_needs_two_of_one_note_and_rabbits_run():
    r = setup(fresh(), [4, 9], [4], 12)
    picks = [m for m in r.legal_moves() if m[0] == "pick"]
    assert [lg.note_pc(m[1]) for m in picks] == [4]
    r.apply(picks[0])
    assert r.rabbits[0] == 1                             # the last card on the Wheel
    assert not [m for m in r.legal_moves() if m[0] == "pick"]   # an empty Wheel: no pick up


def test_steal_the_mirror():
    # "place it on top of theirs, and take their pile, placing it on top of yours"
    r = setup(fresh(), [7, 2], [], 3)
    r.piles[1].extend([take_note(r, 11), take_note(r, 7)])      # G on top of player 1's pile
    r.check_cards()
    steals = [m for m in r.legal_moves() if m[0] == "steal"]
    assert [lg.note_pc(m[1]) for m in steals] == [7] and steals[0][2] == 1
    r.apply(steals[0])
    assert r.piles[1] == [] and [lg.note_pc(c) for c in r.piles[0]] == [11, 7, 7]


def test_place_stacks_on_the_sector():
    r = setup(fresh(), [9], [9], 1)
    r.apply([m for m in r.legal_moves() if m[0] == "place"][0])
    assert len(r.wheel[9]) == 2


def test_round_ends_after_the_last_interval_once_hands_are_played_out():
    r = setup(fresh(), [0, 3], [7], 7)
    r.won[1].extend(r.interval_deck)                     # this is the last INTERVAL card
    r.interval_deck = []
    r.note_deck.extend(r.hands[1][1:])
    del r.hands[1][1:]
    r.check_cards()
    pick = [m for m in r.legal_moves() if m[0] == "pick"][0]
    r.apply(pick)
    assert r.interval is None and not r.over             # hands still hold cards
    while not r.over:
        moves = r.legal_moves()
        assert not [m for m in moves if m[0] == "pick"]  # only steal or place now
        r.apply(moves[-1])
    assert not any(r.hands)


def test_a_short_note_deck_is_dealt_as_far_as_it_goes():
    # "Once all 3 are used, another 3 are dealt to each player."  The deck can run short before
    # the last INTERVAL is picked up: the rest is dealt one at a time, a player with no cards
    # is passed over, and with every card played the round ends.
    r = fresh(players=3)
    for hand in r.hands:
        r.note_deck.extend(hand)
        del hand[:]
    r.hands[0].append(r.note_deck.pop())
    keep = r.note_deck[-4:]
    for card in r.note_deck[:-4]:
        r.wheel[lg.note_pc(card)].append(card)
    r.note_deck = keep
    r.check_cards()
    r.apply([m for m in r.legal_moves() if m[0] == "place"][0])
    assert [len(h) for h in r.hands] == [2, 1, 1] and r.turn == 1    # 4 cards: 2, 1, 1
    assert r.interval_deck and not r.note_deck
    while any(r.hands):
        assert r.hands[r.turn], "a player with no cards was given the turn"
        r.apply([m for m in r.legal_moves() if m[0] == "place"][0])
    assert r.over and r.interval_deck


def test_the_second_round_is_dealt_right_of_the_first_rounds_winner():
    # "In the second, the player to the right of the first round's winner deals."
    game = lg.Game(default_set(), 3, 4)
    dealer = game.dealer
    winner = (dealer + 2) % 3
    game.round.piles[winner].extend([take_note(game.round, 9)])     # an Alice: the only points
    game.round.over = True
    game.finish_round()
    assert game.dealer == (winner - 1) % 3 and game.round.turn == winner


def test_alices_and_scores():
    r = setup(fresh(), [9], [], 1)
    r.piles[0].extend([take_note(r, 9) for _ in range(7)])
    r.won[0].extend([c for c in r.interval_deck if r.semitones(c) == 12][:3])
    for c in r.won[0]:
        r.interval_deck.remove(c)
    r.check_cards()
    assert r.scores()[0] == 7 * 4 + 3 * 8 + 3           # 7 Alices, all 3 octaves


def test_which_wheel_cards_pick_up_the_interval():
    # The major third with C, E and Bb on the Wheel: a hand D with Bb (Bb-D), a hand E with C
    # (C-E), a hand G# with C (Ab-C) or E (E-G#); the octave with the same note only.
    from core.games.looking_glass_table import picks_up
    wheel = (1 << 0) | (1 << 4) | (1 << 10)
    assert picks_up(4, 2, wheel) == 1 << 10
    assert picks_up(4, 4, wheel) == 1 << 0
    assert picks_up(4, 8, wheel) == (1 << 0) | (1 << 4)
    assert picks_up(12, 4, wheel) == 1 << 4
    assert picks_up(12, 5, wheel) == 0
