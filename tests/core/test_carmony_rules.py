"""Carmony, the original: rulebook cases set up by hand (the rulebook's sentence quoted)."""

from core.games.carmony import Game, Round, RuleError, note_pc
from core.games.rng import Rng
from core.melds import find

from expect import default_set, raises


def fresh(players=2, seed=1):
    """A new round in which seat 0 plays first (the dealer sits on its right)."""
    return Round(default_set(), players, players - 1, Rng(seed))


def zones(r):
    lists = [r.note_deck, r.discard] + r.hands + [played for p in r.table for _, _, played in p]
    return lists


def give_notes(r, player, pcs):
    """Put NOTE cards of these pitch classes into the player's hand (from wherever they are);
    the hand holds exactly these afterwards, the rest go back to the deck."""
    r.note_deck.extend(r.hands[player])
    r.hands[player] = []
    for pc in pcs:
        for zone in zones(r):
            found = [c for c in zone if note_pc(c) == pc and zone is not r.hands[player]]
            if found:
                zone.remove(found[0])
                r.hands[player].append(found[0])
                break
    r.check_cards()


def meld_card(r, ident):
    index = find(r.meldset, ident)
    for zone in [r.meld_deck] + r.meld_hands:
        for card in zone:
            if r.meld_of[card] == index:
                return card, zone
    raise AssertionError("no free MELD card %s" % ident)


def only_melds(r, player, *idents):
    """The player's MELD hand holds exactly these cards (the dealt ones go back to the deck)."""
    r.meld_deck.extend(r.meld_hands[player])
    r.meld_hands[player] = []
    for ident in idents:
        give_meld(r, player, ident)
    r.check_cards()


def give_meld(r, player, ident):
    card, zone = meld_card(r, ident)
    zone.remove(card)
    r.meld_hands[player].append(card)
    return card


def place(r, player, ident, root, pcs):
    """A meld already on the table (from an earlier turn)."""
    card = give_meld(r, player, ident)
    r.meld_hands[player].remove(card)
    notes = []
    for pc in pcs:
        for zone in zones(r):
            found = [c for c in zone if note_pc(c) == pc]
            if found:
                zone.remove(found[0])
                notes.append(found[0])
                break
    r.table[player].append([card, root, notes])
    r.check_cards()
    return card


def to_main(r):
    r.apply(("draw",))
    return r


def test_deal_by_player_count():
    # "5 MELD cards + 10 NOTE cards (4 players), 12 (3 players), 14 (2 players)"
    for players, notes in ((2, 14), (3, 12), (4, 10)):
        r = fresh(players)
        assert [len(h) for h in r.hands] == [notes] * players
        assert [len(h) for h in r.meld_hands] == [5] * players
        assert len(r.discard) == 1 and len(r.note_deck) == 96 - players * notes - 1
        assert r.turn == 0           # the player to the dealer's left starts
        r.check_cards()
    raises(RuleError, fresh, 5)


def test_a_turn_starts_by_drawing_two_or_taking_the_whole_pile():
    r = fresh()
    assert r.legal_moves() == [("draw",), ("take",)]
    before = len(r.hands[0])
    r.apply(("draw",))
    assert len(r.hands[0]) == before + 2 and r.phase == "main"
    r = fresh()
    r.discard.extend([r.note_deck.pop(), r.note_deck.pop()])
    before = len(r.hands[0])
    r.apply(("take",))
    assert len(r.hands[0]) == before + 3 and r.discard == []


def test_the_single_card_taken_cannot_be_discarded():
    # "If you took the only card that was in the discard pile, you can't discard that same note."
    r = fresh()
    taken = note_pc(r.discard[0])
    r.apply(("take",))
    r.apply(("end",))
    discards = [m[1] for m in r.legal_moves()]
    assert discards and not [c for c in discards if note_pc(c) == taken]


def test_only_one_kind_of_meld_a_turn():
    r = fresh()
    give_notes(r, 0, [0, 4, 7, 2, 5, 9, 11, 6])
    only_melds(r, 0, "maj", "min", "m3")
    to_main(r)
    plays = [m for m in r.legal_moves() if m[0] == "play"]
    kinds = set(r.melds[r.meld_of[m[1]]].kind for m in plays)
    assert kinds == set(["chord", "interval"])
    chord = [m for m in plays if r.melds[r.meld_of[m[1]]].id == "maj" and m[2] == 7][0]
    r.apply(chord)                                # G major triad: G B D
    kinds = set(r.melds[r.meld_of[m[1]]].kind for m in r.legal_moves() if m[0] == "play")
    assert kinds <= set(["chord"])
    assert not [m for m in r.legal_moves() if m[0] == "eat"]   # played, so no eating


def test_eating_needs_a_stronger_meld_card():
    r = fresh()
    place(r, 1, "m3", 0, [0, 3])
    place(r, 1, "major", 0, [0, 2, 4, 5, 7, 9, 11])
    only_melds(r, 0, "M2", "maj", "dorian", "chromatic")
    to_main(r)
    eats = [(r.melds[r.meld_of[m[1]]].id, r.melds[r.meld_of[r.table[1][m[3]][0]]].id)
            for m in r.legal_moves() if m[0] == "eat"]
    assert ("M2", "m3") not in eats                 # intervals cannot eat
    assert ("maj", "m3") in eats                    # chords eat intervals
    assert ("dorian", "m3") in eats and ("dorian", "major") not in eats
    assert ("chromatic", "major") in eats           # only the chromatic scale eats it
    assert ("maj", "major") not in eats


def test_eating_takes_the_notes_and_returns_both_meld_cards():
    r = fresh()
    target = place(r, 1, "m3", 0, [0, 3])
    only_melds(r, 0, "maj")
    to_main(r)
    move = [m for m in r.legal_moves() if m[0] == "eat"][0]
    hand = len(r.hands[0])
    r.apply(move)
    assert len(r.hands[0]) == hand + 2 and r.table[1] == []
    assert r.meld_deck[:2] == [target, move[1]] or r.meld_deck[:2] == [move[1], target]
    assert len(r.meld_hands[0]) == 1                 # drew a new MELD card for the one used
    assert not [m for m in r.legal_moves() if m[0] in ("eat", "play")]   # one eat, no play
    r.check_cards()


def test_a_c_root_replenishes_the_hand():
    # "If you play a meld with the note C in position 1 ... replenish your hand with the same
    # number of NOTE cards used"
    r = fresh()
    give_notes(r, 0, [0, 4, 7, 1])
    only_melds(r, 0, "maj")
    to_main(r)
    before = len(r.hands[0])
    c_major = [m for m in r.legal_moves() if m[0] == "play" and m[2] == 0
               and r.melds[r.meld_of[m[1]]].id == "maj"][0]
    r.apply(c_major)
    assert len(r.hands[0]) == before        # 3 played, 3 drawn


def test_going_out_needs_a_scale_or_three_chords():
    r = fresh()
    give_notes(r, 0, [5])
    r.note_deck.extend(r.hands[0][1:])
    r.apply(("draw",))
    r.note_deck.extend(r.hands[0][1:])      # back to one card: F
    r.hands[0] = r.hands[0][:1]
    r.check_cards()
    r.apply(("end",))                       # no scale, no 3 chords: F may not be discarded
    assert r.turn == 1 and len(r.hands[0]) == 1 and not r.over
    r = fresh()
    place(r, 0, "major", 2, [2, 4, 6, 7, 9, 11, 1])
    give_notes(r, 0, [5])
    r.apply(("draw",))
    r.note_deck.extend(r.hands[0][1:])
    r.hands[0] = r.hands[0][:1]
    r.check_cards()
    r.apply(("end",))
    r.apply(("discard", r.hands[0][0]))
    assert r.over and r.went_out == 0
    assert r.scores()[0] == 350 + 200       # a major scale, and going out


def test_the_round_ends_when_the_turn_that_emptied_the_note_deck_ends():
    # "If the NOTE deck runs out before anyone goes out, the round ends but no one earns points
    # for going out."  The drawer of the last cards still plays the turn out: melds, discard.
    r = fresh()
    give_notes(r, 0, [0, 4, 7, 2, 9])
    only_melds(r, 0, "maj")
    r.discard.extend(r.note_deck[1:])
    del r.note_deck[1:]
    r.check_cards()
    r.apply(("draw",))                      # one card left: the deck runs out
    assert not r.over and r.phase == "main" and r.deck_out
    play = [m for m in r.legal_moves() if m[0] == "play" and m[2] == 0][0]
    r.apply(play)                           # C major: a C root, but nothing left to refill
    r.apply(("end",))
    r.apply(("discard", r.hands[0][0]))
    assert r.over and r.went_out is None and r.turn == 0
    assert r.scores() == [40 - 10 * len(r.hands[0]), -10 * len(r.hands[1])]


def test_an_illegal_move_changes_nothing():
    r = fresh()
    hand = list(r.hands[0])
    err = raises(RuleError, r.apply, ("discard", hand[0]))
    assert "not allowed now (start phase of player 0)" in str(err)
    assert r.hands[0] == hand and r.phase == "start"


def test_the_next_dealer_is_right_of_the_winner():
    # "the dealer is the player to the right of the previous round's winner"
    game = Game(default_set(), 3, 5)
    first_dealer = game.dealer
    winner = (first_dealer + 2) % 3
    place(game.round, winner, "maj", 0, [0, 4, 7])        # the only points of the round
    game.round.over = True
    game.finish_round()
    assert game.dealer == (winner - 1) % 3
    assert game.round.turn == winner        # the dealer's left: the winner plays first
    # A tie (everyone -10 a card, same hands) goes to the first player after the dealer.
    dealer = game.dealer
    game.round.over = True
    game.finish_round()
    assert game.dealer == ((dealer + 1) - 1) % 3


def test_going_out_by_playing_the_last_cards():
    # "runs out of NOTE cards by either discarding or playing the last one in a meld"
    r = fresh()
    place(r, 0, "major", 2, [2, 4, 6, 7, 9, 11, 1])
    to_main(r)
    give_notes(r, 0, [5, 9, 0])
    only_melds(r, 0, "maj")
    play = [m for m in r.legal_moves() if m[0] == "play" and m[2] == 5][0]     # F A C
    r.apply(play)
    assert r.over and r.went_out == 0 and r.scores()[0] == 350 + 40 + 200


def test_a_c_root_meld_never_goes_out_while_the_deck_can_refill():
    # "If you play a meld with the note C in position 1 ... you must replenish your hand"
    r = fresh()
    to_main(r)
    give_notes(r, 0, [0, 4, 7])
    only_melds(r, 0, "maj")
    play = [m for m in r.legal_moves() if m[0] == "play" and m[2] == 0][0]
    r.apply(play)                           # no scale and no 3 chords, yet allowed:
    assert not r.over and len(r.hands[0]) == 3       # the hand is refilled, nobody went out
    # With an empty deck nothing refills: the same play would go out, so it needs the
    # condition.
    r = fresh()
    to_main(r)
    give_notes(r, 0, [0, 4, 7])
    only_melds(r, 0, "maj")
    r.discard.extend(r.note_deck)
    del r.note_deck[:]
    r.check_cards()
    assert [m for m in r.legal_moves() if m[0] == "play"] == []


def test_a_new_meld_card_after_playing_a_meld():
    # "Then draw a new MELD card from the deck so that you always have 5 in your hand."
    r = fresh()
    to_main(r)
    give_notes(r, 0, [0, 4, 7, 2])
    assert len(r.meld_hands[0]) == 5
    give_meld(r, 0, "maj")
    r.meld_deck.append(r.meld_hands[0].pop(0))      # still 5, one of them the major triad
    r.check_cards()
    play = [m for m in r.legal_moves() if m[0] == "play"
            and r.melds[r.meld_of[m[1]]].id == "maj"][0]
    r.apply(play)
    assert len(r.meld_hands[0]) == 5


def test_the_chromatic_scale_cannot_be_eaten():
    # "The CHROMATIC SCALE can eat any meld and cannot be eaten." "The MAJOR SCALE can eat any
    # meld except the Chromatic Scale."
    r = fresh()
    place(r, 1, "chromatic", 0, list(range(12)))
    only_melds(r, 0, "major", "blues")
    to_main(r)
    assert [m for m in r.legal_moves() if m[0] == "eat"] == []
    place(r, 1, "dorian", 2, [2, 4, 5, 7, 9, 11, 0])
    eats = [m for m in r.legal_moves() if m[0] == "eat"]
    assert [(r.melds[r.meld_of[m[1]]].id, m[3]) for m in eats] == [("major", 1)]


def test_a_tie_goes_to_who_went_out():
    # The round's winner (whose right-hand neighbour deals next): equal round scores go to the
    # player who went out.
    game = Game(default_set(), 3, 5)
    r = game.round
    place(r, 0, "blues", 0, [0, 3, 5, 6, 7, 10])       # 150
    place(r, 0, "maj7", 2, [2, 6, 9, 1])               # 70
    place(r, 0, "m2", 4, [4, 5])                       # 20
    place(r, 1, "min", 9, [9, 0, 4])                   # 40, and going out: 200
    for p in range(3):
        r.note_deck.extend(r.hands[p])
        r.hands[p] = []
    r.hands[2] = [r.note_deck.pop()]
    r.went_out = 1
    r.over = True
    r.check_cards()
    assert r.scores() == [240, 240, -10]
    game.finish_round()
    assert game.dealer == 0                            # right of player 1, the winner
