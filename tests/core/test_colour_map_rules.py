"""The colour-map pairs game: rulebook cases set up by hand on the default deck (red, yellow,
blue 1-12, purple 1-8; notes cycle 1-4 with the number, shifted by colour), the text quoted."""

from core.games import RuleError
from core.games import colour_map as cm
from core.games.rng import Rng

from expect import raises

RED, YELLOW, BLUE, PURPLE = range(4)
_, _, DECK = cm.default_deck()


def c(colour, number):
    return [i for i in range(len(DECK)) if DECK[i][:2] == (colour, number)][0]


def rig(placed, hands, **options):
    """placed: {cell: (colour, number)}; hands: lists of (colour, number); the rest drawable."""
    g = cm.Game(len(hands), 1, **options)
    used = []
    g.map = {}
    for cell in placed:
        card = c(*placed[cell])
        g.map[cell] = (card, DECK[card][0])
        used.append(card)
    g.hands = [[c(*spec) for spec in hand] for hand in hands]
    for hand in g.hands:
        used.extend(hand)
    g.draw_pile = [i for i in range(len(DECK)) if i not in used]
    g.turn = 0
    g.phase = "place"
    g.check_cards()
    return g


def gifts(g):
    return sorted((m[1], DECK[m[2]][:2]) for m in g.legal_moves() if m[0] == "give")


def test_setup():
    # "Place 1 random card of each color in a 2x2 square ... Deal each player 8 cards"
    g = cm.Game(3, 4)
    assert sorted(g.map) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert sorted(colour for _, colour in g.map.values()) == [0, 1, 2, 3]
    assert [len(h) for h in g.hands] == [8, 8, 8] and len(g.draw_pile) == 44 - 4 - 24
    g.check_cards()
    raises(RuleError, cm.Game, 6, 1)            # 4 + 6 x 8 cards > 44


def test_placement_rules():
    # "The card must connect to the existing map. The card has to be in the same row
    # (horizontal, vertical or diagonal) as another card of the same color. The card can't be
    # adjacent to a card of the same color."
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)}, [[(RED, 6), (RED, 9)], [(BLUE, 1)]])
    red6 = c(RED, 6)
    assert g.placement_problem(red6, (2, 0), RED) is None
    assert g.placement_problem(red6, (4, 0), RED) == "the card must connect to the map"
    assert g.placement_problem(red6, (1, 1), RED) == \
        "a card may not be next to a card of its colour"
    assert g.placement_problem(red6, (2, 1), RED) == \
        "the card must be in a row with a card of its colour"
    assert g.placement_problem(red6, (1, 0), RED) == "that cell is taken"


def test_a_pair_and_what_may_be_given():
    # "Range: all numbers between its lowest number and its highest. (Example: a 2-6 Pair has
    # range 3, 4, and 5.) ... Its number is inside the number range and it's the same color.
    # Its number of music notes is equal to the note difference."
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)},
            [[(RED, 6), (BLUE, 9)], [(RED, 4), (YELLOW, 4), (RED, 7), (BLUE, 12)]])
    g.apply(("place", c(RED, 6), (2, 0), RED))
    assert len(g.pairs) == 1 and g.pairs[0].distance == 1
    # red 2 (2 notes) and red 6 (2 notes): range 3-5, difference 0: red 4 only.
    assert gifts(g) == [(1, (RED, 4))]
    g.apply(("give", 1, c(RED, 4)))
    g.apply(("stop",))
    assert sorted(DECK[x][:2] for x in g.hands[0]) == [(RED, 4), (BLUE, 9)]
    assert g.turn == 1 and g.phase == "place"


def test_every_pair_counts_and_notes_match():
    # "By doing so, you'll have created one or more Pairs ... All pairs created count."
    # "(Example: a 1-Note card and a 4-Note card have a difference of 3.)"
    g = rig({(0, 0): (RED, 1), (1, 0): (YELLOW, 5), (1, 1): (BLUE, 6), (0, 2): (RED, 12)},
            [[(RED, 8), (BLUE, 9)], [(BLUE, 2), (YELLOW, 7), (RED, 10), (YELLOW, 2)]])
    # red 8 at (2, 2): row with red 12 over blue 6? no: (2,2)-(1,1)-(0,0) diagonal, and
    # (2,2)-(1,2)?-(0,2): (1,2) is empty, so no row there.
    g.map[(1, 2)] = (c(YELLOW, 9), YELLOW)
    g.draw_pile.remove(c(YELLOW, 9))
    g.apply(("place", c(RED, 8), (2, 2), RED))
    ranges = sorted(tuple(sorted(DECK[x][1] for x in p.cards)) for p in g.pairs)
    assert ranges == [(1, 8), (8, 12)]
    # red 1 has 1 note, red 8 has 4: difference 3; red 12 has 4: difference 0.
    # Given: red 10 (range 9-11), and cards of 3 notes: blue 2? 4 notes; yellow 2: 3 notes.
    assert gifts(g) == [(1, (RED, 10)), (1, (YELLOW, 2))]


def test_out_of_cards_ends_the_game_and_notes_count_against():
    # "If you end your turn without any cards, the game ends (and you win)." "The number of
    # music notes left in your hand represent your negative points."
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)}, [[(RED, 6)], [(BLUE, 12), (RED, 9)]])
    g.apply(("place", c(RED, 6), (2, 0), RED))
    assert gifts(g) == []
    g.apply(("stop",))
    assert g.over and g.ended_by == "out" and g.winners() == [0]
    assert g.scores() == [0, -(2 + 1)]          # blue 12: 2 notes, red 9: 1 note
    # "The game ends when a player is out of cards": here the giver of the last card.
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)}, [[(RED, 6)], [(RED, 3)]])
    g.apply(("place", c(RED, 6), (2, 0), RED))
    g.apply(("give", 1, c(RED, 3)))
    g.apply(("stop",))
    assert g.over and g.scores() == [-3, 0] and g.winners() == [1]
    # Cards given to a player who still holds some keep the game going.
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)}, [[(RED, 6), (BLUE, 1)], [(RED, 3),
                                                                             (BLUE, 2)]])
    g.apply(("place", c(RED, 6), (2, 0), RED))
    g.apply(("give", 1, c(RED, 3)))
    g.apply(("stop",))
    assert not g.over and g.turn == 1


def test_no_placement_draws_then_passes_then_blocks():
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)}, [[(BLUE, 3)], [(BLUE, 4)]])
    assert g.legal_moves() == [("draw",)]
    g.draw_pile = []
    assert g.legal_moves() == [("pass",)]
    g.apply(("pass",))
    g.apply(("pass",))
    assert g.over and g.ended_by == "blocked"


def test_safesong_distance_silence_and_done_rows():
    # "Adjacency: you are allowed to play cards of the same color adjacent to each other now!"
    # "Silence: if you create a Pair with distance 0, players may throw any single hand card"
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)},
            [[(RED, 3), (BLUE, 1)], [(BLUE, 12), (YELLOW, 1)]], safesong=True)
    g.apply(("place", c(RED, 3), (0, 1), RED))
    assert [p.distance for p in g.pairs] == [0] and g.silence()
    assert gifts(g) == [(1, (YELLOW, 1)), (1, (BLUE, 12))]
    g.apply(("give", 1, c(BLUE, 12)))
    assert gifts(g) == []                         # a single card
    # "Safesong: if all Pairs you created have distance 3(+), you are safe! Nobody may throw
    # anything at you." ... "the affected rows are now done: they can't grow any longer."
    row = {(0, 0): (RED, 2), (1, 0): (YELLOW, 5), (2, 0): (BLUE, 6), (3, 0): (YELLOW, 7)}
    g = rig(row, [[(RED, 9), (RED, 11)], [(RED, 5)]], safesong=True)
    g.apply(("place", c(RED, 9), (4, 0), RED))
    assert [p.distance for p in g.pairs] == [3] and g.safe()
    assert gifts(g) == []                         # red 5 is in range 3-8, but safe
    g.apply(("stop",))
    assert g.placement_problem(c(RED, 11), (5, 0), RED) == "that row is done (a Safesong)"
    assert g.placement_problem(c(RED, 11), (-1, 0), RED) == "that row is done (a Safesong)"


def test_safesong_map_is_at_most_8_by_8():
    row = dict(((x, 0), (YELLOW if x % 2 else BLUE, x + 1)) for x in range(8))
    row[(0, 1)] = (RED, 1)
    g = rig(row, [[(RED, 8)], [(RED, 5)]], safesong=True)
    assert g.placement_problem(c(RED, 8), (8, 1), RED) is not None
    assert g.placement_problem(c(RED, 8), (-1, 1), RED) == "the map is at most 8 by 8"


def test_toned_down_and_dissonance():
    # "Toned Down: if you create (at least) one Pair with distance 3(+), you may choose what
    # people are allowed to throw at you. (That is, they may only give cards based on range OR
    # notes OR distance.)"
    row = {(0, 0): (RED, 2), (1, 0): (YELLOW, 5), (2, 0): (BLUE, 6), (3, 0): (YELLOW, 7),
           (4, 1): (YELLOW, 9), (4, 2): (RED, 12)}
    hands = [[(RED, 10), (BLUE, 1)], [(RED, 5), (BLUE, 3), (YELLOW, 3), (RED, 11)]]
    g = rig(row, hands, safesong=True, toned_down=True)
    g.apply(("place", c(RED, 10), (4, 0), RED))
    assert sorted(p.distance for p in g.pairs) == [1, 3] and g.phase == "tone"
    assert [m[0] for m in g.legal_moves()] == ["choose"] * 3
    g.apply(("choose", "range"))              # red 2-10 and red 10-12: red 3-9 and red 11
    assert gifts(g) == [(1, (RED, 5)), (1, (RED, 11))]
    g = rig(row, hands, safesong=True, toned_down=True)
    g.apply(("place", c(RED, 10), (4, 0), RED))
    g.apply(("choose", "distance"))           # a number or notes of 1 or 3
    # red 5 has 1 note, red 11 has 3, yellow 3 and blue 3 are number 3.
    assert gifts(g) == [(1, (RED, 5)), (1, (RED, 11)), (1, (YELLOW, 3)), (1, (BLUE, 3))]
    raises(RuleError, cm.Game, 2, 1, None, False, True)     # Toned Down needs Safesong
    # "Dissonance: people may also throw cards at you if their number or number of notes
    # matches the distance you created ... only if, otherwise, no possible throwable card
    # exists. (That is, the Range and Note Difference are both 0.)"  A deck where red 1 and
    # red 2 have the same notes.
    deck = ["red", "yellow", "blue", "purple"], None, [
        (0, 1, 2), (0, 2, 2), (1, 1, 1), (2, 1, 1), (3, 1, 1), (1, 2, 1), (2, 2, 3),
        (1, 3, 4), (2, 3, 2), (3, 2, 2)] + [(1, n, 1) for n in range(4, 20)]
    g = cm.Game(2, 1, deck, safesong=True, dissonance=True)
    g.map = {(0, 0): (0, 0), (1, 0): (2, 1), (0, 1): (3, 2)}
    g.hands = [[1, 5, 6], [7, 8, 4]]
    g.draw_pile = [i for i in range(len(deck[2])) if i not in (0, 2, 3, 1, 5, 6, 7, 8, 4)]
    g.turn = 0
    g.check_cards()
    g.apply(("place", 1, (2, 0), 0))           # red 2 two cards from red 1: distance 1
    assert [p.distance for p in g.pairs] == [1]
    # range 1-2 is empty, notes 2-2 differ by 0: cards with number or notes 1 may be given:
    # purple 1 (card 4), not yellow 3 (4 notes) or blue 3 (2 notes).
    assert sorted(m[2] for m in g.legal_moves() if m[0] == "give") == [4]


def test_purple_wildcard():
    # "If a wildcard number is inside the range somebody created, you can always throw it to
    # them. (Even if their Pair used a different color.) If someone creates a Pair using
    # wildcards, then you can throw any card at them that has a number within its range."
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)},
            [[(RED, 6), (BLUE, 9)], [(PURPLE, 4), (YELLOW, 4), (BLUE, 12)]], purple_wild=True)
    g.apply(("place", c(RED, 6), (2, 0), RED))
    assert gifts(g) == [(1, (PURPLE, 4))]
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)},
            [[(PURPLE, 7), (BLUE, 9)], [(BLUE, 3), (YELLOW, 4), (BLUE, 12)]], purple_wild=True)
    assert ("place", c(PURPLE, 7), (2, 0), RED) in g.legal_moves()     # played as red
    g.apply(("place", c(PURPLE, 7), (2, 0), RED))
    assert (1, (BLUE, 3)) in gifts(g) and (1, (YELLOW, 4)) in gifts(g)
    assert (1, (BLUE, 12)) not in gifts(g)


def test_cooperative_piles():
    # "Instead of throwing a card at another player, you may also decide to add it to such a
    # pile ... only if your number is higher than the current number at the top of the pile."
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)},
            [[(RED, 8), (BLUE, 9)], [(RED, 4), (RED, 3)]], cooperative=True)
    g.apply(("place", c(RED, 8), (2, 0), RED))
    g.apply(("pile", 1, c(RED, 4)))
    assert ("pile", 1, c(RED, 3)) not in g.legal_moves()       # 3 is not above 4
    assert ("give", 1, c(RED, 3)) in g.legal_moves()
    g.apply(("give", 1, c(RED, 3)))
    g.apply(("stop",))
    # "The game ends when all players have emptied their hand except one."
    assert g.over and g.ended_by == "hands" and not g.cooperative_won()


def test_deck_files_are_checked_with_places():
    names, wild, cards = cm.default_deck()
    assert names == ["red", "yellow", "blue", "purple"] and wild == 3 and len(cards) == 44
    err = raises(cm.DeckError, cm.load_deck, {"format": "x"}, "my.json")
    assert "my.json: not a colour-map deck" in str(err)
    bad = {"format": cm.DECK_FORMAT, "colours": [
        {"colour": "red", "cards": [[1, 1], [2, 0]]}, {"colour": "red", "cards": [[1, 1]]},
        {"colour": "blue", "cards": "many"}, {"colour": "green", "wild": "yes", "cards": [[1, 2]]}]}
    err = str(raises(cm.DeckError, cm.load_deck, bad, "my.json"))
    assert "my.json: colours[0].cards[1]: number 1-99 and notes 1-9, not [2, 0]" in err
    assert "my.json: colours[1].colour: a new colour name is needed, not 'red'" in err
    assert "my.json: colours[2].cards: a list of [number, notes] pairs is needed" in err
    assert "my.json: colours[3].wild: true or false" in err


def test_random_games_end_with_every_card_accounted_for():
    for seed, options in ((1, {}), (2, {"safesong": True, "toned_down": True}),
                          (3, {"purple_wild": True, "cooperative": True})):
        g = cm.Game(3, seed, **options)
        rng = Rng(seed)
        while not g.over:
            g.apply(cm.random_move(g, rng))
            g.check_cards()
        assert g.winners()


def test_a_row_may_have_gaps_and_distance_counts_cards():
    # "The card has to be in the same row (horizontal, vertical or diagonal) as another card of
    # the same color."  "Distance: how many other cards are in-between the two cards on the
    # map."  A row is the grid line: empty cells between do not break it, and only cards count.
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5), (2, 1): (BLUE, 6)},
            [[(RED, 6), (BLUE, 9)], [(RED, 4)]], safesong=True)
    g.apply(("place", c(RED, 6), (3, 0), RED))      # (2, 0) stays empty
    assert [(p.distance, p.row) for p in g.pairs] == [(1, ((1, 0), 0))]
    # With only empty cells between: distance 0, so Silence.
    g = rig({(0, 0): (RED, 2), (1, 1): (YELLOW, 5)}, [[(RED, 6)], [(BLUE, 12)]], safesong=True)
    g.apply(("place", c(RED, 6), (2, 0), RED))
    assert [p.distance for p in g.pairs] == [0] and g.silence()


def test_safesong_makes_only_the_pairs_rows_done():
    # "once somebody created a Safesong, the affected rows are now done: they can't grow any
    # longer."  The column through the new card holds a blue card but no pair: it stays open.
    row = {(0, 0): (RED, 2), (1, 0): (YELLOW, 5), (2, 0): (BLUE, 6), (3, 0): (YELLOW, 7),
           (4, 1): (BLUE, 3)}
    g = rig(row, [[(RED, 9), (RED, 11)], [(BLUE, 8), (YELLOW, 1)]], safesong=True)
    g.apply(("place", c(RED, 9), (4, 0), RED))
    assert g.safe() and g.done_rows == [((1, 0), 0)]
    g.apply(("stop",))
    assert g.placement_problem(c(BLUE, 8), (4, 2), BLUE) is None   # the column grows
    # The done row grows at neither end, and its gaps stay empty.
    assert g.placement_problem(c(RED, 11), (5, 0), RED) == "that row is done (a Safesong)"
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5), (2, 0): (BLUE, 6), (3, 0): (YELLOW, 7),
             (5, 1): (BLUE, 3)}, [[(RED, 9), (YELLOW, 1)], [(BLUE, 8)]], safesong=True)
    g.apply(("place", c(RED, 9), (5, 0), RED))      # (4, 0) is a gap; 3 cards between
    assert g.safe() and g.done_rows == [((1, 0), 0)]
    g.apply(("stop",))
    assert g.placement_problem(c(BLUE, 8), (4, 0), BLUE) == "that row is done (a Safesong)"


def test_purple_on_the_map_never_bans_a_neighbour():
    # "the Purple color becomes a wildcard! It is any color you want." Next to a purple card
    # the placing player wants it to be another colour: the base game's ban does not apply.
    # A purple card played as red is red where it goes: not next to a red card.
    g = rig({(0, 0): (RED, 2), (1, 0): (PURPLE, 5), (1, 1): (YELLOW, 5)},
            [[(RED, 6), (PURPLE, 7)], [(BLUE, 12)]], purple_wild=True)
    assert g.placement_problem(c(RED, 6), (2, 0), RED) is None     # next to the purple 5
    assert g.placement_problem(c(PURPLE, 7), (0, 1), RED) == \
        "a card may not be next to a card of its colour"
    assert g.placement_problem(c(PURPLE, 7), (2, 1), YELLOW) == \
        "a card may not be next to a card of its colour"
    # Without the variant a purple card is just purple.
    g = rig({(0, 0): (RED, 2), (1, 0): (PURPLE, 5), (1, 1): (YELLOW, 5)},
            [[(PURPLE, 7)], [(BLUE, 12)]])
    assert g.placement_problem(c(PURPLE, 7), (2, 0), PURPLE) == \
        "a card may not be next to a card of its colour"


def test_cooperative_game_won_with_ten_notes_on_every_pile():
    # "You win if every faceup pile (next to the board) contains exactly 10 music notes."
    g = rig({(0, 0): (RED, 2), (1, 0): (YELLOW, 5)}, [[(RED, 8)], [(RED, 4)]],
            cooperative=True)
    for colour, pile in enumerate(g.piles):
        numbers, notes = [], 0
        for card in sorted(g.draw_pile, key=lambda k: DECK[k][1]):
            if DECK[card][0] == colour and notes + DECK[card][2] <= 10:
                numbers.append(card)
                notes += DECK[card][2]
        assert notes == 10, colour
        pile.extend(numbers)
        for card in numbers:
            g.draw_pile.remove(card)
    g.check_cards()
    g.apply(("place", c(RED, 8), (2, 0), RED))
    g.apply(("stop",))              # player 0 is out; all but one have emptied their hand
    assert g.over and g.ended_by == "hands" and g.cooperative_won()


def test_silence_with_toned_down():
    # Silence: "if you create a Pair with distance 0, players may throw any single hand card at
    # you."  Toned Down chooses what people may throw; Silence's single card stays allowed.
    row = {(0, 0): (RED, 2), (1, 0): (YELLOW, 5), (2, 0): (BLUE, 6), (3, 0): (YELLOW, 7),
           (4, 1): (RED, 12)}
    g = rig(row, [[(RED, 10), (BLUE, 1)], [(BLUE, 12), (YELLOW, 1)]], safesong=True,
            toned_down=True)
    g.apply(("place", c(RED, 10), (4, 0), RED))
    assert sorted(p.distance for p in g.pairs) == [0, 3] and g.phase == "tone"
    g.apply(("choose", "range"))
    assert gifts(g) == [(1, (YELLOW, 1)), (1, (BLUE, 12))]       # any single card
    g.apply(("give", 1, c(YELLOW, 1)))
    assert gifts(g) == []
