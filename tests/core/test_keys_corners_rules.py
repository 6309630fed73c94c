"""Key's Corners: rulebook cases set up by hand in D major (the rulebook's example: D E F# G A B
C#), the rulebook's sentences quoted."""

from core.games import RuleError
from core.games import keys_corners as kc
from core.games import musicards as mc
from core.games.rng import Rng

from expect import raises

C, Db, D, Eb, E, F, Gb, G, Ab, A, Bb, B = range(12)
D_MAJOR = (D, E, Gb, G, A, B, Db)
N, EAST, S, W, NW, SW, NE, SE = range(8)


def rig(hands, piles, discard=(), players=None):
    """Seat k holds one card per pc in hands[k] (None: a wild); piles[p] lists pcs."""
    g = kc.Game(players or len(hands), 1, D_MAJOR)
    pool = list(range(mc.CARDS))

    def take(pc):
        card = [c for c in pool if (mc.is_wild(c) if pc is None else mc.pitch(c) == pc)][0]
        pool.remove(card)
        return card
    g.hands = [[take(pc) for pc in pcs] for pcs in hands]
    g.piles = [[(take(pc), pc) for pc in piles.get(p, ())] for p in range(8)]
    g.discard = [take(pc) for pc in discard]
    g.stock = pool
    g.books = [[] for _ in g.hands]
    g.turn = 0
    g.played = 0
    g.check_cards()
    return g


def card(g, pc, seat=0):
    return [c for c in g.hands[seat] if (mc.is_wild(c) if pc is None else mc.pitch(c) == pc)][0]


def test_setup():
    # "Deal five cards to each player ... Flip four cards face-up from the stock pile ... to
    # start four foundation piles."
    g = kc.Game(3, 7, D_MAJOR)
    assert [len(h) for h in g.hands] == [5, 5, 5]
    assert [len(g.piles[f]) for f in range(8)] == [1, 1, 1, 1, 0, 0, 0, 0]
    assert g.turn == (g.dealer + 1) % 3
    g.check_cards()
    raises(RuleError, kc.Game, 6, 1, D_MAJOR)


def test_corners_start_with_the_keynote_and_a_complete_scale_is_a_book():
    # "if the scale is D major, (spelled D-E-F#-G-A-B-C#) a D may be played in any of the 4
    # corners. Continue playing the notes in order up the scale. Whoever completes the scale by
    # playing the final note (in this example, a C#) takes the entire scale as a set (book)"
    g = rig([[D, E, Db], [C]], {N: [C], EAST: [F], S: [Bb], W: [Eb]})
    moves = g.legal_moves()
    assert ("play", card(g, D), NW, D) in moves
    assert not [m for m in moves if m[0] == "play" and m[1] == card(g, E)]
    g = rig([[Db, C], [C]], {N: [C], EAST: [F], S: [Bb], W: [Eb],
                             NE: [D, E, Gb, G, A, B]})
    g.apply(("play", card(g, Db), NE, Db))
    g.check_cards()
    assert g.piles[NE] == [] and [k for k, _ in g.books[0]] == ["scale"]
    assert g.scores()[0] == 10


def test_foundations_sequence_and_stacks_of_four():
    # "If a foundation pile is part of the scale sequence, you may play on the pile, continuing
    # up the scale up to the last note ... "Ab" is not in the D Major scale, so you can stack up
    # to four Ab's. Whoever completes a stack by playing the fourth non-scale note, takes the
    # entire stack as a set (book)"
    g = rig([[Gb, Ab, D], [C]], {N: [E], EAST: [Ab, Ab, Ab], S: [Db], W: [C]})
    moves = g.legal_moves()
    assert ("play", card(g, Gb), N, Gb) in moves
    assert not [m for m in moves if m[0] == "play" and m[2] == S]     # C# is the last note
    g.apply(("play", card(g, Ab), EAST, Ab))
    assert g.piles[EAST] == [] and g.books[0][0][0] == "stack" and g.scores()[0] == 5


def test_empty_foundations_are_filled_first():
    # "Empty foundation pile spaces MUST be filled first, from any cards in the current
    # player's hand. Then next, (if no more cards in their hand) from the discard pile (top
    # first)."
    g = rig([[D, F], [C]], {N: [E], EAST: [C], S: [Bb]}, discard=[G, B])
    moves = g.legal_moves()
    assert moves and all(m[0] == "fill" and m[2] == W for m in moves)
    g.apply(("fill", card(g, F), W, F))
    assert ("play", card(g, D), NW, D) in g.legal_moves()
    g = rig([[], [C]], {N: [E], EAST: [C], S: [Bb]}, discard=[G, B])
    assert g.legal_moves() == [("fill", "discard", W, B)]
    # "If the current player runs out of cards ... and the discard pile is used up, the next
    # player must fill the spaces": nothing to fill with, the turn passes.
    g = rig([[], [C]], {N: [E], EAST: [C], S: [Bb]})
    assert g.legal_moves() == [("done",)]


def test_a_play_showing_on_the_board_must_be_made():
    # "A player may move cards from a foundation pile onto the corner pile as long as the
    # correct sequence of notes is maintained ... If there is a possible play showing on the
    # board during your turn, you must play it."
    g = rig([[Bb, C], [C]], {N: [E, Gb], EAST: [C], S: [Bb], W: [F], SW: [D]})
    assert g.legal_moves() == [("move", N, SW)]
    g.apply(("move", N, SW))
    g.check_cards()
    assert [pc for _, pc in g.piles[SW]] == [D, E, Gb] and g.piles[N] == []
    assert all(m[0] == "fill" for m in g.legal_moves())           # N is empty now
    # Stacks of one note join while they make at most four.
    g = rig([[C], [C]], {N: [Ab, Ab], EAST: [Ab], S: [Bb], W: [F]})
    assert set(g.legal_moves()) == {("move", N, EAST), ("move", EAST, N)}


def test_discard_only_what_fits_nowhere_and_only_alone():
    # "you may choose to play one card onto the discard pile ... that must be the only card
    # you play for that turn ... The discard must not be a possible play anywhere else"
    g = rig([[F, Gb, None], [C]], {N: [E], EAST: [C], S: [Bb], W: [Eb]})
    moves = g.legal_moves()
    assert ("discard", card(g, F)) in moves
    assert ("discard", card(g, Gb)) not in moves and ("discard", card(g, None)) not in moves
    assert ("done",) not in moves                  # "You must play at least one card"
    g.apply(("play", card(g, Gb), N, Gb))
    assert ("discard", card(g, F)) not in g.legal_moves() and ("done",) in g.legal_moves()
    g.apply(("done",))
    assert g.turn == 1
    # A wild stands for the note its pile needs ("player must say what note").
    g = rig([[None, C], [C]], {N: [E], EAST: [C], S: [Bb], W: [Eb]})
    assert ("play", card(g, None), N, Gb) in g.legal_moves()
    raises(RuleError, g.apply, ("play", card(g, None), N, G))


def test_draw_up_to_five_first_and_the_end():
    # "Always first, draw until you have 5 cards." ... "When the stock pile runs out, play
    # continues as before (except for needing 5 cards) until every player has run out"
    g = rig([[F], [C]], {N: [E], EAST: [C], S: [Bb], W: [Eb]})
    g.apply(("discard", card(g, F)))
    assert g.turn == 1 and len(g.hands[1]) == 5
    g = rig([[F], []], {N: [E], EAST: [C], S: [Bb], W: [Eb]})
    g.discard.extend(g.stock)
    g.stock = []
    g.apply(("discard", card(g, F)))
    assert g.over
    g.check_cards()
    assert kc.score(2, 3) == (35, [("completed scales x 2", 20), ("stacks of four x 3", 15)])


def test_random_games_end_with_every_card_accounted_for():
    for seed, players in ((1, 2), (2, 5)):
        g = kc.Game(players, seed, D_MAJOR)
        rng = Rng(seed)
        while not g.over:
            g.apply(kc.random_move(g, rng))
            g.check_cards()
        assert g.winners()


def test_the_top_part_of_a_foundation_moves_onto_a_corner():
    # "A player may move cards from a foundation pile onto the corner pile as long as the
    # correct sequence of notes is maintained."  The corner D E takes F#: F# G move from
    # N (E F# G), and the E stays.
    g = rig([[Bb, C], [C]], {N: [E, Gb, G], EAST: [C], S: [Bb], W: [F], SW: [D, E]})
    assert g.legal_moves() == [("move", N, SW)]
    g.apply(("move", N, SW))
    g.check_cards()
    assert [pc for _, pc in g.piles[SW]] == [D, E, Gb, G] and [pc for _, pc in g.piles[N]] == [E]


def test_a_foundation_moves_whole_onto_another_foundation():
    # "You may move cards from one foundation pile onto another pile as long as the correct
    # sequence of notes is maintained."  G A moves onto E F# (whole); a part never does.
    g = rig([[Bb, C], [C]], {N: [E, Gb], EAST: [G, A], S: [Bb], W: [F]})
    assert g.legal_moves() == [("move", EAST, N)]
    g.apply(("move", EAST, N))
    assert [pc for _, pc in g.piles[N]] == [E, Gb, G, A] and g.piles[EAST] == []
    g = rig([[Bb, C], [C]], {N: [E, Gb], EAST: [Gb, G, A], S: [Bb], W: [F]})
    assert [m for m in g.legal_moves() if m[0] == "move"] == []     # G A is not a whole pile


def test_a_wild_turned_over_at_setup_is_the_keynote():
    # "A wild card can always be used as a substitute for a needed card": a wild flipped to
    # start a foundation stands for the keynote, so the scale goes on from it.
    for seed in range(200):
        g = kc.Game(2, seed, D_MAJOR)
        wild = [f for f in range(4) if mc.is_wild(g.piles[f][0][0])]
        if wild:
            assert g.piles[wild[0]][0][1] == D and g.takes(wild[0]) == E
            return
    raise AssertionError("no seed turned a wild over")
