"""Chromatic Solitaire: rulebook cases set up by hand."""

from core.games import NOTE_COPIES
from core.games import solitaire as sol
from core.games.rng import Rng

from expect import raises


def card(pc, copy=0):
    return pc * NOTE_COPIES + copy


def empty_game():
    """A game whose layout, deck and piles the test fills itself."""
    g = sol.Solitaire(1)
    g.columns = [[] for _ in range(sol.COLUMNS)]
    g.deck = []
    g.waste = []
    g.piles = []
    return g


def test_setup():
    # "Lay out 10 rows of 8 cards ... The first 9 rows face down and the last row face up.
    # The remaining 16 cards form the deck."
    g = sol.Solitaire(7)
    assert [len(c) for c in g.columns] == [10] * 8 and len(g.deck) == 16
    assert all(c[-1][1] and not any(up for _, up in c[:-1]) for c in g.columns)
    g.check_cards()


def test_descending_chromatic_moves_drag_the_block():
    # "E on F, Ab on A, D on D# ... When you move a card, you drag with it the entire block"
    g = empty_game()
    g.columns[0] = [[card(9), False], [card(5), True], [card(4, 1), True]]   # ? F E
    g.columns[1] = [[card(6), True]]                                          # F#
    moves = g.legal_moves()
    assert ("move", 0, 1, 1) in moves            # F (with E) onto F#
    assert ("move", 0, 2, 1) not in moves        # E is not a semitone below F#
    g.apply(("move", 0, 1, 1))
    assert [sol.note_pc(c) for c, _ in g.columns[1]] == [6, 5, 4]
    assert g.columns[0][-1][1]                   # the card uncovered is turned face up


def test_b_starts_only_an_empty_column():
    # "The B card ... is not placed on top of any other card. It can only start an empty column."
    g = empty_game()
    g.columns[0] = [[card(1), False], [card(11), True]]   # B
    g.columns[1] = [[card(0), True]]                       # C: B may not go on it
    moves = g.legal_moves()
    assert ("move", 0, 1, 1) not in moves
    assert ("move", 0, 1, 2) in moves                      # column 2 is empty
    g.columns[1] = []
    assert ("move", 0, 1, 1) in g.legal_moves()
    g.columns[2] = [[card(3), True]]
    g.columns[1] = []
    g.columns[0] = [[card(2), True]]                       # a D may not start a column
    assert ("move", 0, 0, 1) not in g.legal_moves()


def test_piles_rise_from_c():
    g = empty_game()
    g.columns[0] = [[card(1), True]]                       # C#
    g.columns[1] = [[card(0), True]]                       # C
    assert ("pile", 0) not in g.legal_moves()              # no pile starts with C#
    g.apply(("pile", 1))
    assert ("pile", 0) in g.legal_moves()
    g.apply(("pile", 0))
    assert [[sol.note_pc(c) for c in p] for p in g.piles] == [[0, 1]]


def test_the_deck_is_turned_one_card_at_a_time_and_reused():
    g = empty_game()
    g.deck = [card(3), card(7)]
    g.columns[0] = [[card(8), True]]
    g.apply(("turn",))
    assert g.waste == [card(7)] and ("waste", 0) in g.legal_moves()   # G onto G#
    g.apply(("turn",))
    g.apply(("turn",))                                     # an empty deck takes the waste back
    assert g.deck == [card(3), card(7)] and g.waste == []


def test_the_game_ends_when_nothing_is_left_to_do_and_can_be_won():
    g = empty_game()
    g.columns[0] = [[card(2), True]]
    assert g.over and not g.won                            # a lone D: no move at all
    raises(sol.RuleError, g.apply, ("turn",))
    g = empty_game()
    g.piles = [[card(pc, k) for pc in range(12)] for k in range(8)]
    assert g.won and g.over


def test_not_over_while_a_card_can_still_reach_a_pile():
    # "draw cards from the deck one at a time - you can go through it as many times as needed
    # ... The game ends when there are no more moves to make."  The C is deep in the deck and
    # only turning gets to it: the game goes on however long the turning takes.
    g = empty_game()
    g.columns[0] = [[card(5), False], [card(2), True]]     # a face-down card under a D
    g.deck = [card(0)] + [card(9, k) for k in range(6)]
    for _ in range(40):
        assert not g.over
        g.apply(("turn",))
    assert not g.over and g.way_forward() == ("turn",)
    # A shift that gets nowhere itself can lead somewhere: the A onto the A# empties a column
    # for the B, and moving the B uncovers the card under it.
    g = empty_game()
    g.columns = [[[card(3, k), True]] for k in range(8)]            # D#s fit nowhere
    g.columns[0] = [[card(5), False], [card(11), True]]              # ? B
    g.columns[3] = [[card(9), True]]                                  # A
    g.columns[4] = [[card(10), True]]                                 # A#
    assert [m for m in g.legal_moves() if g.progresses(m)] == []
    assert not g.over and g.way_forward() == ("move", 3, 0, 4)
    g.apply(("move", 3, 0, 4))
    assert g.way_forward() == ("move", 0, 1, 3)


def test_a_deck_turn_is_allowed_while_other_moves_remain():
    # "When you run out of moves, draw cards from the deck": shifting a block can always be
    # done again, so the deck may be turned at any time.
    g = empty_game()
    g.columns[0] = [[card(5), True]]
    g.columns[1] = [[card(6), True]]
    g.deck = [card(0), card(3)]                            # the C is not on top yet
    assert ("move", 0, 0, 1) in g.legal_moves() and ("turn",) in g.legal_moves()


def test_seed_7_moves_cards_to_the_piles():
    g = sol.Solitaire(7)
    rng = Rng(7)
    while not g.over:
        g.apply(sol.random_move(g, rng))
    assert sum(len(p) for p in g.piles) > 0
    assert g.way_forward() is None


def test_seeded_games_replay_identically():
    results = []
    for seed in (41, 42, 43):
        g = sol.Solitaire(seed)
        rng = Rng(seed)
        while not g.over:
            g.apply(sol.random_move(g, rng))
            g.check_cards()
        results.append((g.won, g.moves, sum(len(p) for p in g.piles)))
    assert results == RECORDED


RECORDED = [(True, 231, 96), (False, 107, 36), (False, 122, 41)]    # recorded once
