"""Chord Poker: rulebook cases set up by hand (the rulebook's sentence quoted)."""

from core.games import chord_poker as cp
from core.games.rng import Rng
from core.melds import find

from expect import default_set, raises


def fresh(chord="7", players=2, seed=1):
    """A round of this chord in which seat 0 plays first."""
    ms = default_set()
    return cp.Round(ms, find(ms, chord), players, players - 1, Rng(seed))


def take_note(r, pc):
    for zone in [r.note_deck, r.discard] + r.hands:
        for card in zone:
            if cp.note_pc(card) == pc:
                zone.remove(card)
                return card
    raise AssertionError("no card of pc %d" % pc)


def setup(r, root, wheel_pcs, hand_pcs, pile_pcs=None):
    """Root and Wheel, seat 0's hand (and the pile) hold exactly these notes."""
    for pc in range(12):
        if r.wheel[pc] is not None:
            r.note_deck.append(r.wheel[pc])
            r.wheel[pc] = None
    r.note_deck.extend(r.hands[0])
    r.hands[0] = []
    if pile_pcs is not None:
        r.note_deck.extend(r.discard)
        r.discard = [take_note(r, pc) for pc in pile_pcs]
    r.root = root
    for pc in [root] + list(wheel_pcs):
        r.wheel[pc] = take_note(r, pc)
    r.hands[0] = [take_note(r, pc) for pc in hand_pcs]
    r.check_cards()
    return r


def wheel_discards(r):
    return sorted(set(cp.note_pc(m[1]) for m in r.legal_moves() if m[2] == "wheel"))


def pile_discards(r):
    return sorted(set(cp.note_pc(m[1]) for m in r.legal_moves() if m[2] == "pile"))


def test_setup():
    # "deals 7 NOTE cards to each player ... turns over the top card of the NOTE deck and places
    # it on its matching sector ... this note becomes the ROOT ... the next card ... starts the
    # discard pile"
    r = fresh(players=3)
    assert [len(h) for h in r.hands] == [7, 7, 7]
    assert r.wheel[r.root] is not None and sum(1 for c in r.wheel if c is not None) == 1
    assert len(r.discard) == 1 and r.turn == 0
    r.check_cards()
    raises(cp.RuleError, fresh, "7", 5)


def test_discard_rules():
    # C7: C E (G) Bb. Hand: E (required, free), G (optional, free), Bb (required, occupied),
    # D (not in the chord).
    r = setup(fresh(), 0, [10], [4, 7, 10, 2])
    r.apply(("draw",))
    drawn = cp.note_pc(r.hands[0][-1])
    wheel = wheel_discards(r)
    pile = pile_discards(r)
    assert 4 in wheel and 4 not in pile        # required, free: to the Wheel
    assert 7 in wheel and 7 in pile            # optional, free: the player chooses
    assert 10 in pile and 10 not in wheel      # its sector is taken: to the pile
    assert 2 in pile and 2 not in wheel        # not in the chord: to the pile
    assert drawn in wheel or drawn in pile


def test_the_single_card_taken_cannot_be_discarded():
    r = setup(fresh(), 0, [], [4, 2], pile_pcs=[9])
    r.apply(("take",))
    assert 9 not in pile_discards(r) + wheel_discards(r)


def test_completing_the_chord_scores_5_and_ends_the_round():
    # "The player who places the last required note on the Wheel COMPLETES the chord"
    r = setup(fresh(), 0, [10], [4, 4, 2])      # C and Bb placed; E completes C7 (G optional)
    r.apply(("draw",))
    r.apply([m for m in r.legal_moves() if m[2] == "wheel" and cp.note_pc(m[1]) == 4][0])
    assert r.over and r.completed_by == 0
    hand = [cp.note_pc(c) for c in r.hands[0]]
    assert r.scores()[0] == cp.score(hand, True)[0] == cp.score(hand, False)[0] + 5
    assert r.scores()[1] == cp.score([cp.note_pc(c) for c in r.hands[1]], False)[0]


def test_changing_the_root():
    # "Place a card from your hand on its matching sector of the Wheel if it's free, and rotate
    # the CHORD card ... The cards already on the Wheel that belong to the new chord stay; the
    # rest go back to your hand. In this case only, you don't draw ... or discard"
    r = setup(fresh(), 0, [4, 10], [2, 5])      # C7 with C E Bb placed; D and F in hand
    deck = len(r.note_deck)
    r.apply([m for m in r.legal_moves() if m[0] == "root" and cp.note_pc(m[1]) == 2][0])
    # D7 is D F# (A) C: C stays, E and Bb go back to the hand.
    assert r.root == 2 and r.wheel[0] is not None and r.wheel[4] is None and r.wheel[10] is None
    assert sorted(cp.note_pc(c) for c in r.hands[0]) == [4, 5, 10]
    assert len(r.note_deck) == deck and r.turn == 1
    r.check_cards()


def test_a_root_change_can_complete_the_chord():
    r = setup(fresh("maj"), 0, [4], [9])         # C E placed; A in hand
    r.apply([m for m in r.legal_moves() if m[0] == "root"][0])   # A major: A C# E
    assert not r.over                           # C# is still missing (and C went back)
    # "The cards already on the Wheel that belong to the new chord stay": C sus2 has C and G
    # placed; F as the new root makes F sus2 = F G C, every required sector filled.
    r = setup(fresh("sus2"), 0, [7], [5, 1])
    r.apply([m for m in r.legal_moves() if m[0] == "root" and cp.note_pc(m[1]) == 5][0])
    assert r.over and r.completed_by == 0 and r.root == 5
    assert r.scores()[0] == cp.score([1], True)[0] == -1 + 5


def test_the_deck_running_out_ends_the_round_after_that_turn():
    # "If the NOTE deck runs out first, the round still ends, but no one earns Chord Points."
    # The drawer of the last card still discards: to the pile, the round ends with no points.
    r = setup(fresh(), 0, [10], [4, 2])          # C and Bb placed; E completes C7
    r.discard.extend(r.note_deck[1:])
    del r.note_deck[1:]
    r.apply(("draw",))
    assert not r.over and r.phase == "discard"
    r.apply([m for m in r.legal_moves() if m[2] == "pile" and cp.note_pc(m[1]) == 2][0])
    assert r.over and r.completed_by is None
    r.check_cards()
    # ... or the completing note to the Wheel: the chord is complete before the round ends.
    r = setup(fresh(), 0, [10], [4, 2])
    r.discard.extend(r.note_deck[1:])
    del r.note_deck[1:]
    r.apply(("draw",))
    r.apply([m for m in r.legal_moves() if m[2] == "wheel" and cp.note_pc(m[1]) == 4][0])
    assert r.over and r.completed_by == 0


def test_four_rounds_four_different_chords():
    game = cp.Game(default_set(), 3, 4)
    chords = [game.round.chord]
    dealers = [game.dealer]
    while len(game.rounds) < 3:
        game.round.over = True
        game.finish_round()
        chords.append(game.round.chord)
        dealers.append(game.dealer)
    assert len(set(chords)) == 4                                 # no chord used twice
    assert [(d - dealers[0]) % 3 for d in dealers] == [0, 1, 2, 0]   # rotates clockwise


def mask(*pcs):
    bits = 0
    for pc in pcs:
        bits |= 1 << pc
    return bits


def test_the_wheel_rules_the_table_mode_shares():
    # C7 is 1 3 (5) b7: at C, C E Bb required and G optional; at A, A C# G and E optional.
    from core.games.chord_poker_table import chord_sectors, going_back, is_complete
    codes = default_set().meld_codes(find(default_set(), "7"))
    assert chord_sectors(codes, 0) == (mask(0, 4, 10), mask(7))
    assert chord_sectors(codes, 9) == (mask(9, 1, 7), mask(4))
    assert not is_complete(mask(0, 4, 10), mask(0, 4, 7))
    assert is_complete(mask(0, 4, 10), mask(0, 4, 7, 10))
    # "Changing the root ... the others go to the hand": C E G on the Wheel, the root to A:
    # E and G are notes of A7, C goes back.
    required, optional = chord_sectors(codes, 9)
    assert going_back(mask(0, 4, 7, 9), required, optional) == mask(0)
