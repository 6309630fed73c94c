"""Musicards: the deck, Half step / Whole step and the Musical Alphabet, rulebook cases set up
by hand (the rulebooks' sentences quoted)."""

from core.games import RuleError
from core.games import half_whole_step as hw
from core.games import musical_alphabet as ma
from core.games import musicards as mc
from core.games.rng import Rng

from expect import raises

C, Db, D, Eb, E, F, Gb, G, Ab, A, Bb, B = range(12)
L_C, L_D, L_E, L_F, L_G, L_A, L_B = range(7)
HALF, WHOLE = hw.HALF, hw.WHOLE


def rig(game, hands, top_card, top):
    """Seat k holds one card per pc in hands[k] (None: a wild); everything else is stock."""
    pool = list(range(mc.CARDS))
    game.hands = []
    for pcs in hands:
        hand = []
        for pc in pcs:
            card = [c for c in pool if (mc.is_wild(c) if pc is None else mc.pitch(c) == pc)][0]
            pool.remove(card)
            hand.append(card)
        game.hands.append(hand)
    pool.remove(top_card)
    game.discard = [top_card]
    game.stock = pool
    game.top = top
    game.turn = 0
    game.phase = "play"
    game.draws = 0
    game.check_cards()
    return game


def card(game, seat, pc):
    return [c for c in game.hands[seat] if (mc.is_wild(c) if pc is None else mc.pitch(c) == pc)]


def test_the_deck():
    # "all 54 cards of the Musicards deck, including the four "?"s and two "Chromatic Scale"
    # cards which function as wilds"
    assert mc.CARDS == 54 and len(mc.WILDS) == 6
    assert [mc.pitch(c) for c in range(48)] == [pc for pc in range(12) for _ in range(4)]
    assert mc.label(4 * Ab) == "G#/Ab" and mc.label(4 * E) == "E"
    assert mc.label(48) == "?" and mc.label(53) == "Chromatic Scale"
    assert mc.letters(4 * Ab) == [L_G, L_A]
    assert mc.number(4 * C) == 12 and mc.number(4 * Db) == 1 and mc.number(4 * B) == 11
    game = hw.Game(4, 1)
    assert [len(h) for h in game.hands] == [7, 7, 7, 7] and len(game.discard) == 1
    assert len(game.stock) == 54 - 28 - 1 and game.turn == (game.dealer + 1) % 4
    raises(RuleError, hw.Game, 6, 1)


def test_whole_step_ends_the_turn():
    # "If the top card is an F, you may play Whole Step to G and end your turn."
    g = rig(hw.Game(2, 1), [[G, A, B], [C, D]], 4 * F, F)
    g.apply(("play", (card(g, 0, G)[0],), (G, WHOLE)))
    g.check_cards()
    assert g.top == G and g.turn == 1 and g.phase == "play"


def test_half_steps_go_on():
    # "You may play consecutive Half Steps: F# - G - G# - A - A# - B etc."
    g = rig(hw.Game(2, 1), [[Gb, G, Ab, A, C], [C, D]], 4 * F, F)
    for pc in (Gb, G, Ab):
        g.apply(("play", (card(g, 0, pc)[0],), (pc, HALF)))
        assert g.phase == "chain" and g.turn == 0
    # In the chain only another half step: a whole step is not a move.
    raises(RuleError, g.apply, ("play", (card(g, 0, C)[0],), (C, WHOLE)))
    assert all(m[2][1] == HALF for m in g.legal_moves() if m[0] == "play")
    g.apply(("end",))
    assert g.turn == 1 and g.top == Ab


def test_same_pitch_together_and_no_mixtures():
    # "You may choose to put down more than one card, but they must be the same pitch"
    g = rig(hw.Game(2, 1), [[G, G, A, C], [C]], 4 * F, F)
    g.apply(("play", tuple(card(g, 0, G)), (G, WHOLE)))
    assert sorted(mc.pitch(c) for c in g.hands[0]) == [C, A]
    g = rig(hw.Game(2, 1), [[G, A, C], [C]], 4 * F, F)
    raises(RuleError, g.apply, ("play", (card(g, 0, G)[0], card(g, 0, A)[0]), (G, WHOLE)))


def test_wrong_card_or_wrong_word_costs_two_cards():
    # "If you put down the wrong card OR say the wrong interval, you must take your card(s)
    # back into your hand AND draw two (2) penalty cards from the stock. Play then goes to the
    # next person."
    g = rig(hw.Game(2, 1), [[G, A, C], [C]], 4 * F, F)
    g.apply(("play", (card(g, 0, A)[0],), (A, WHOLE)))            # A is no step above F
    g.check_cards()
    assert len(g.hands[0]) == 5 and g.turn == 1 and g.top == F and g.penalties == 1
    g = rig(hw.Game(2, 1), [[G, A, C], [C]], 4 * F, F)
    g.apply(("play", (card(g, 0, G)[0],), (G, HALF)))             # G is a whole step
    assert len(g.hands[0]) == 5 and g.turn == 1


def test_wilds_are_named_with_pitch_and_interval():
    # "When a wild card is used you must say what pitch it represents AND what interval it is."
    g = rig(hw.Game(2, 1), [[None, C, C], [C]], 4 * F, F)
    wild = card(g, 0, None)[0]
    assert ("play", (wild,), (Gb, HALF)) in g.legal_moves()
    g.apply(("play", (wild,), (G, WHOLE)))
    assert g.top == G and g.turn == 1
    g = rig(hw.Game(2, 1), [[None, C, C], [C]], 4 * F, F)
    g.apply(("play", (card(g, 0, None)[0],), (G, HALF)))          # G named a half step
    assert len(g.hands[0]) == 5
    # "Wilds may be played as part of a group of cards, too."
    g = rig(hw.Game(2, 1), [[None, G, C], [C]], 4 * F, F)
    g.apply(("play", (card(g, 0, G)[0], card(g, 0, None)[0]), (G, WHOLE)))
    assert [mc.pitch(c) for c in g.hands[0]] == [C]


def test_a_wild_turned_over_takes_any_card():
    # "If the card is a wild, the first player may choose any card to play on top of it."
    g = rig(hw.Game(2, 1), [[B, C, C], [C]], 52, None)
    assert set(m[2][1] for m in g.legal_moves() if m[0] == "play") == {hw.ANY}
    g.apply(("play", (card(g, 0, B)[0],), (B, hw.ANY)))
    assert g.top == B and g.turn == 1


def test_drawing_up_to_three_then_passing():
    # "If you don't have the card you need, you must draw from the stock ... You must draw at
    # least 3 cards in order to be allowed to pass (but you may not draw more than 3 cards).
    # If you pass, the next player puts down the pitch you were supposed to play"
    g = rig(hw.Game(2, 1), [[C, C], [C]], 4 * F, F)
    bs = [c for c in g.stock if mc.pitch(c) == B][:3]
    g.stock = [c for c in g.stock if c not in bs] + bs       # the stock's top is its end
    moves = g.legal_moves()
    assert ("draw",) in moves and ("pass",) not in moves
    for _ in range(3):
        g.apply(("draw",))
    assert sorted(mc.pitch(c) for c in g.hands[0]) == [C, C, B, B, B]
    assert ("draw",) not in g.legal_moves() and ("pass",) in g.legal_moves()
    g.apply(("pass",))
    assert g.turn == 1 and g.top == F      # the next player plays on the same card
    # With a right play in hand there is no drawing ("If you don't have the card you need, you
    # must draw"): a player who has it must play, right or wrong, and may not pass either.
    g = rig(hw.Game(2, 1), [[G, C], [C]], 4 * F, F)
    assert ("draw",) not in g.legal_moves() and ("pass",) not in g.legal_moves()
    assert set(m[0] for m in g.legal_moves()) == {"play"}
    raises(RuleError, g.apply, ("draw",))
    # "If you draw a card that works, you may play it": or draw on, and pass after 3.
    g = rig(hw.Game(2, 1), [[C, C], [C]], 4 * F, F)
    g.stock.remove(4 * G)
    g.stock.append(4 * G)
    g.apply(("draw",))
    moves = g.legal_moves()
    assert ("play", (4 * G,), (G, WHOLE)) in moves and ("draw",) in moves
    assert ("pass",) not in moves


def test_the_last_card_call():
    # "When you get down to the last card in your hand, you must say, "Musicards!" ... If
    # another player says "Musicards" before you, you must draw two penalty cards ... (But you
    # don't have to take back the card you played.)"
    g = rig(hw.Game(3, 1), [[G, C], [C], [C]], 4 * F, F)
    g.apply(("play", (card(g, 0, G)[0],), (G, WHOLE)))
    assert g.phase == "call" and g.legal_moves() == [("musicards", s) for s in range(3)]
    raises(RuleError, g.apply, ("play", (card(g, 0, C)[0],), (C, HALF)))
    g.apply(("musicards", 2))
    assert len(g.hands[0]) == 3 and g.top == G and g.turn == 1
    g = rig(hw.Game(3, 1), [[Gb, G, C], [C], [C]], 4 * F, F)
    g.apply(("play", (card(g, 0, Gb)[0],), (Gb, HALF)))
    g.apply(("play", (card(g, 0, G)[0],), (G, HALF)))
    g.apply(("musicards", 0))                # said it first: the half steps may go on
    assert g.phase == "chain" and len(g.hands[0]) == 1
    g.apply(("end",))
    assert g.turn == 1
    # "The first player to run out of all their cards WINS!"
    g = rig(hw.Game(2, 1), [[G], [C]], 4 * F, F)
    g.apply(("play", (card(g, 0, G)[0],), (G, WHOLE)))
    assert g.over and g.winner == 0


def test_the_stock_is_the_reshuffled_discard_pile():
    # "If the stock runs out, shuffle and turn over the discard pile (except for the top card)
    # and use it as the stock."
    g = rig(hw.Game(2, 1), [[C, C], [C]], 4 * F, F)
    top = g.discard[-1]
    g.discard = g.stock[1:] + [top]
    g.stock = g.stock[:1]
    g.apply(("play", (card(g, 0, C)[0],), (C, WHOLE)))            # wrong: 2 penalty cards
    g.check_cards()
    assert len(g.hands[0]) == 4 and g.reshuffles == 1 and g.discard == [top]


def test_random_games_end_with_every_card_accounted_for():
    for seed, players in ((1, 2), (2, 5)):
        for game in (hw.Game(players, seed), ma.Game(players, seed, 3)):
            rng = Rng(seed)
            while not game.over:
                game.apply(mc.random_move(game, rng))
                game.check_cards()
            assert game.winner is not None and not game.hands[game.winner]


# ---- the Musical Alphabet ------------------------------------------------------------------

def test_next_letter_counts_both_ends():
    # "From any F to any G is a Second. F-G. (1-2) ... From any F to any A is a Third ...
    # From any A up to any D is a Fourth."
    assert ma.next_letter(L_F, 2) == L_G
    assert ma.next_letter(L_F, 3) == L_A
    assert ma.next_letter(L_A, 4) == L_D
    assert ma.next_letter(L_B, 2) == L_C           # "Then it starts over again."
    raises(RuleError, ma.Game, 2, 1, 8)


def test_seconds_after_an_f_any_g():
    # "If you're going up by Seconds and the last card played is an "F" (an F or F#), the next
    # player must play a "G". It may be a Gb, G, or G# (but not a mixture of these)."
    for pc in (Gb, G, Ab):
        g = rig(ma.Game(2, 1, 2), [[pc, C, C], [C]], 4 * F, (L_F,))
        g.apply(("play", (card(g, 0, pc)[0],), L_G))
        assert g.top == (L_G,) and g.turn == 1 and len(g.hands[0]) == 2
    g = rig(ma.Game(2, 1, 2), [[Gb, G, C], [C]], 4 * F, (L_F,))
    raises(RuleError, g.apply, ("play", (card(g, 0, Gb)[0], card(g, 0, G)[0]), L_G))


def test_wrong_card_or_letter():
    # "If you put down the wrong card OR say the wrong letter, you must take your card(s) back
    # into your hand AND draw two (2) penalty cards"
    g = rig(ma.Game(2, 1, 2), [[A, C], [C]], 4 * F, (L_F,))
    g.apply(("play", (card(g, 0, A)[0],), L_G))           # an A card called G
    assert len(g.hands[0]) == 4 and g.turn == 1
    g = rig(ma.Game(2, 1, 2), [[G, C], [C]], 4 * F, (L_F,))
    g.apply(("play", (card(g, 0, G)[0],), L_A))           # a G card called A
    assert len(g.hands[0]) == 4 and g.top == (L_F,)


def test_a_two_letter_start_card_and_wilds():
    # "If the flipped card has two letters on it, (for example G#/Ab), the first player can
    # choose which of the two letters it is and play up from that."  By Thirds: B or C.
    g = ma.Game(2, 1, 3)
    g = rig(g, [[B, C, E], [C]], 4 * Ab, g.start_top(4 * Ab))
    assert g.top == (L_G, L_A)
    right = set((mc.pitch(m[1][0]), m[2]) for m in g.right_plays())
    assert right == {(B, L_B), (C, L_C)}
    g.apply(("play", (card(g, 0, C)[0],), L_C))
    assert g.top == (L_C,)
    # A wild is the letter said.
    g = rig(ma.Game(2, 1, 5), [[None, C, C], [C]], 4 * D, (L_D,))
    g.apply(("play", (card(g, 0, None)[0],), L_A))        # D up a Fifth: A
    assert g.top == (L_A,) and g.turn == 1


def test_the_chromatic_scale_cards_may_be_taken_out():
    # "You may also take the Chromatic Scale cards out and use them for references."
    for game in (hw.Game(3, 5, True), ma.Game(3, 5, 3, True)):
        assert len(game.cards) == 52 and not [c for c in game.cards
                                              if c in mc.CHROMATIC_SCALE_CARDS]
        rng = Rng(5)
        while not game.over:
            game.apply(mc.random_move(game, rng))
            game.check_cards()
        assert not [c for c in game.stock + game.discard if c in mc.CHROMATIC_SCALE_CARDS]
    assert len(hw.Game(3, 5).cards) == 54
