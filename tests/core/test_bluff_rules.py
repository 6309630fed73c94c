"""Bluff the Scale: rulebook cases set up by hand (the rulebook's sentence quoted)."""

from core.games import RuleError, bluff
from core.games.rng import Rng
from core.melds import find

from expect import default_set, raises

C, Db, D, Eb, E, F, Gb, G, Ab, A, Bb, B = range(12)
# Names as (letter, alter): letters C D E F G A B are 0..6.
N_C, N_D, N_E, N_F, N_G, N_A, N_B = [(k, 0) for k in range(7)]
N_Db, N_Eb, N_Gb, N_Ab, N_Bb = (1, -1), (2, -1), (4, -1), (5, -1), (6, -1)
N_Cs, N_Fs = (0, 1), (3, 1)


def rigged(scale, hands, players=None, advanced=False, first=0):
    """A game on this SCALE card where seat k holds exactly one card per pc in hands[k];
    the other cards wait on the discard pile (scales completed before)."""
    ms = default_set()
    players = players or len(hands)
    g = bluff.Game(ms, players, 5, advanced=advanced, half_deck=False)
    pool = []
    for hand in g.hands:
        pool.extend(hand)
    g.hands = [[] for _ in range(players)]
    for seat in range(len(hands)):
        for pc in hands[seat]:
            card = [c for c in pool if c // 8 == pc][0]
            pool.remove(card)
            g.hands[seat].append(card)
    g.discard = pool
    g.scales.append(g.scale)
    g.scale = find(ms, scale)
    g.scales.remove(g.scale)
    g.codes = ms.meld_codes(g.scale)
    g.turn = first
    g.check_cards()
    return g


def card_of(g, seat, pc):
    return [c for c in g.hands[seat] if c // 8 == pc][0]


def place(g, pc, name, seat=None):
    seat = g.turn if seat is None else seat
    g.apply(("place", card_of(g, seat, pc), name))
    g.check_cards()


def test_setup_deals_every_card():
    # "Deal ALL the NOTE cards to the players ... With fewer than 4 players, it's recommended to
    # play with half the deck."
    ms = default_set()
    g = bluff.Game(ms, 4, 1)
    assert [len(h) for h in g.hands] == [24, 24, 24, 24] and not g.box
    g = bluff.Game(ms, 3, 1)
    assert [len(h) for h in g.hands] == [16, 16, 16] and len(g.box) == 48
    for pc in range(12):      # half the deck still holds every note, 4 times
        assert sum(1 for h in g.hands for c in h if c // 8 == pc) == 4
    g = bluff.Game(ms, 5, 1)
    assert sorted(len(h) for h in g.hands) == [19, 19, 19, 19, 20]
    assert len(g.hands[g.turn]) == 20          # dealing starts with the first player
    g = bluff.Game(ms, 2, 1, half_deck=False)
    assert [len(h) for h in g.hands] == [48, 48]
    assert g.phase == "root" and g.legal_moves() == [("root", pc) for pc in range(12)]
    g.check_cards()
    raises(RuleError, bluff.Game, ms, 1, 1)
    raises(RuleError, bluff.Game, ms, 9, 1)


def test_degree_one_then_next_degrees_clockwise():
    # "defines degree 1 by rotating the SCALE card ... place a NOTE card face down on position
    # 1 ... Each player places a NOTE card face down on the Wheel, on the sector of the next
    # degree of the scale, naming the note out loud."
    g = rigged("major", [[C, A], [D, B], [E]])
    g.apply(("root", C))
    assert g.phase == "place" and g.turn == 0
    place(g, C, N_C)
    assert g.phase == "calls" and g.placer == 0
    g.apply(("pass",))
    assert g.turn == 1 and g.sector(g.degree) == D
    # A name of another pitch is not a move; a card not in the hand neither.
    raises(RuleError, g.apply, ("place", card_of(g, 1, D), N_E))
    raises(RuleError, g.apply, ("place", card_of(g, 2, E), N_D))
    place(g, D, N_D)
    g.apply(("pass",))
    assert g.turn == 2 and g.sector(g.degree) == E


def test_both_names_are_fine_in_the_basic_game():
    # "In the basic version of the game, both F# and Gb are acceptable as names"
    g = rigged("locrian", [[C, Db, Eb, F, Gb, A], [B]])
    g.apply(("root", C))
    for pc, name in ((C, N_C), (Db, N_Db), (Eb, N_Eb), (F, N_F)):
        place(g, pc, name, seat=0)
        g.apply(("pass",))
        g.turn = 0
    names = set(m[2] for m in g.legal_moves())
    assert N_Fs in names and N_Gb in names
    place(g, Gb, N_Fs)
    assert ("correct", 1) not in g.legal_moves()


def test_caught_bluffer_takes_the_wheel_and_caller_restarts():
    # "If they WERE bluffing -> the bluffer takes all the NOTE cards on the Wheel into their
    # hand. The player who called the bluff chooses degree 1 to restart the scale."
    g = rigged("major", [[C, A, G], [D, B], [E, F]])
    g.apply(("root", C))
    place(g, C, N_C)
    g.apply(("pass",))
    place(g, D, N_D)
    g.apply(("pass",))
    place(g, F, N_E)          # seat 2 bluffs: an F named E
    assert g.was_bluff()
    g.apply(("bluff", 0))
    g.check_cards()
    assert sorted(c // 8 for c in g.hands[2]) == [C, D, E, F]
    assert g.placed == [] and g.phase == "root" and g.turn == 0
    assert g.scale == find(default_set(), "major")      # the same SCALE card restarts


def test_wrong_call_costs_the_caller():
    # "If they were NOT bluffing -> the player who called the bluff takes the cards, and the
    # accused player chooses degree 1 to restart the scale."
    g = rigged("major", [[C, A], [D, B], [E]])
    g.apply(("root", C))
    place(g, C, N_C)
    g.apply(("pass",))
    place(g, D, N_D)
    raises(RuleError, g.apply, ("bluff", 1))             # not at your own card
    g.apply(("bluff", 2))
    assert sorted(c // 8 for c in g.hands[2]) == [C, D, E]
    assert g.phase == "root" and g.turn == 1


def test_shouts_together_go_to_the_left_of_the_player():
    # "If two or more players shout "BLUFF!" at the same time, priority goes to the player
    # closest to the left of the one who just played."  Seats are clockwise: the left is +1.
    assert bluff.first_call(5, 2, [0, 4], []) == ("bluff", 4)
    assert bluff.first_call(5, 2, [1, 0], []) == ("bluff", 0)
    assert bluff.first_call(5, 2, [3, 1], []) == ("bluff", 3)
    assert bluff.first_call(5, 2, [], []) == ("pass",)
    # "If CALL THE BLUFF and CORRECT THE ENHARMONIC SPELLING happen at the same time, CALL THE
    # BLUFF takes priority."
    assert bluff.first_call(4, 0, [3], [1]) == ("bluff", 3)
    assert bluff.first_call(4, 0, [], [3, 2]) == ("correct", 2)


def test_completed_scale_is_discarded_and_the_next_player_starts_a_new_one():
    # "When the scale is completed ... without anyone shouting "BLUFF!", all the cards on the
    # Wheel are discarded. A new SCALE card is placed and the turn passes to the next player,
    # who chooses degree 1 of the new scale."
    g = rigged("major-pentatonic", [[C, E, A, B], [D, G, B]])
    g.apply(("root", C))
    for pc, name in ((C, N_C), (D, N_D), (E, N_E), (G, N_G), (A, N_A)):
        place(g, pc, name)
        g.apply(("pass",))
    g.check_cards()
    assert g.scales_done == 1 and g.placed == []
    assert g.scale != find(default_set(), "major-pentatonic")
    assert g.phase == "root" and g.turn == 1       # seat 0 placed degree 5 (the A)
    assert not g.over


def test_first_out_of_cards_wins():
    # "The first player to run out of NOTE cards wins."
    g = rigged("major", [[C], [D, E]])
    g.apply(("root", C))
    place(g, C, N_C)
    assert not g.over                   # the call window is still open
    g.apply(("pass",))
    assert g.over and g.ended_by == "out" and g.winners == [0]
    # A last card called wrongly still empties the hand: the caller takes the Wheel.
    g = rigged("major", [[C], [D, E]])
    g.apply(("root", C))
    place(g, C, N_C)
    g.apply(("bluff", 1))
    assert g.over and g.winners == [0] and len(g.hands[1]) == 3
    # A caught bluff on the last card does not win.
    g = rigged("major", [[D], [E, F]])
    g.apply(("root", C))
    place(g, D, N_C)
    g.apply(("bluff", 1))
    assert not g.over and len(g.hands[0]) == 1 and g.turn == 1


def test_all_scales_completed_fewest_cards_win():
    # "If all the scales are completed and no one has run out, the player with the fewest cards
    # in hand wins."
    g = rigged("major-pentatonic", [[C, E, A, B, B], [D, G, B, B]])
    g.scales_done += len(g.scales)      # this is the last SCALE card
    g.scales = []
    g.apply(("root", C))
    for pc, name in ((C, N_C), (D, N_D), (E, N_E), (G, N_G), (A, N_A)):
        place(g, pc, name)
        g.apply(("pass",))
    assert g.over and g.ended_by == "scales" and g.winners == [0, 1]
    g.check_cards()
    assert g.placed == [] and len(g.discard) == 96 - 4      # all but the four B cards


def test_advanced_variant_corrects_the_spelling():
    # "if degree 4 is F and degree b5 points to the next note, it's named Gb, not F# ... The
    # player who made the mistake must pick up their card, return it to their hand, and place
    # ANOTHER one, naming it correctly. As always, they can bluff when placing it."
    g = rigged("locrian", [[C, Eb, Gb, Gb, A], [Db, F, B]], advanced=True)
    g.apply(("root", C))
    for pc, name in ((C, N_C), (Db, N_Db), (Eb, N_Eb), (F, N_F)):
        place(g, pc, name)
        g.apply(("pass",))
    assert g.turn == 0 and g.spelled(g.degree) == N_Gb
    first = card_of(g, 0, Gb)
    g.apply(("place", first, N_Fs))
    assert ("correct", 1) in g.legal_moves()
    g.apply(("correct", 1))
    g.check_cards()
    assert first in g.hands[0] and g.turn == 0 and g.phase == "place"
    moves = g.legal_moves()
    assert all(m[1] != first and m[2] == N_Gb for m in moves)    # ANOTHER card, named right
    assert ("place", card_of(g, 0, A), N_Gb) in moves            # a bluff is still allowed
    g.apply(("place", [c for c in g.hands[0] if c // 8 == Gb and c != first][0], N_Gb))
    assert ("correct", 1) not in g.legal_moves()                 # spelled right: nothing to fix


def test_advanced_degree_one_takes_either_name_and_fixes_the_letters():
    g = rigged("major", [[Gb, Ab], [Ab, Bb]], advanced=True)
    g.apply(("root", Gb))
    assert sorted(set(m[2] for m in g.legal_moves())) == [N_Fs, N_Gb]
    place(g, Gb, N_Fs)
    assert ("correct", 1) not in g.legal_moves()   # degree 1's name is the player's choice
    g.apply(("pass",))
    assert g.spelled(1) == (4, 1)                  # F# major: G#, not Ab
    place(g, Ab, N_Ab)
    assert ("correct", 0) in g.legal_moves()
    # Bluff over correction: the card is turned over and the spelling no longer matters.
    g.apply(bluff.first_call(2, 1, [0], [0]))
    assert g.phase == "root" and g.turn == 1 and len(g.hands[0]) == 3


def test_random_games_end_with_every_card_accounted_for():
    ms = default_set()
    for seed, players, advanced in ((1, 2, False), (2, 5, True), (3, 8, True)):
        g = bluff.Game(ms, players, seed, advanced=advanced)
        rng = Rng(seed)
        moves = 0
        while not g.over:
            g.apply(bluff.random_move(g, rng))
            g.check_cards()
            moves += 1
        assert g.winners and moves > 10
