"""A hand through a round (core/hand_round.py): the eat answers of seeded table states against a
brute force from the rulebook's power order (chromatic scale > major scale > other scales >
chords > intervals, strictly; found here from each meld's kind and its sectors, not its degree
text), with the best turn the hand then has against test_hand_search's brute force; the MELD
cards the deck may still hold; the card the hand misses least. Runs under pytest and the
MicroPython unix port."""

from test_hand_search import brute_best

from core.games.rng import Rng
from core.hand import HandSearch, counts_of
from core.hand_round import (
    Distinct,
    deck_cards,
    discard_choice,
    distinct,
    eats,
    joined,
    symmetric_meld,
    without,
)

from expect import default_set

STATES = 200
MAJOR_SECTORS = 0b101010110101            # C D E F G A B, as a 12-bit mask from the root
_search = None


def searcher():
    global _search
    if _search is None:
        _search = HandSearch(default_set())
    return _search


def power(ms, i):
    """The rulebook's order, found afresh: a meld's kind, and for a scale its sectors."""
    kind = ms.kind(i)
    if kind < 2:
        return kind
    sectors = ms.required_mask(i) | ms.optional_mask(i)
    if sectors == 0xFFF:
        return 4
    return 3 if sectors == MAJOR_SECTORS else 2


def table_state(seed):
    """A seeded table: this player (seat 0) holding a dealt hand and 5 MELD cards, and 1 to 6
    melds on the table by any of 3 seats, each a meld of the set at a root with all its
    sectors as its cards."""
    ms = default_set()
    rng = Rng(seed)
    deck = [pc for pc in range(12) for _ in range(8)]
    rng.shuffle(deck)
    hand = deck[:(14, 12, 10)[seed % 3]]
    held = [rng.below(ms.count) for _ in range(5)]
    table = []
    for _ in range(1 + rng.below(6)):
        i = rng.below(ms.count)
        root = rng.below(12)
        pcs = [(root + pc) % 12 for pc in range(12) if (ms.required_mask(i) |
                                                         ms.optional_mask(i)) >> pc & 1]
        table.append((rng.below(3), power(ms, i), pcs))
    return hand, held, table


def brute_eats(ms, held, table, seat):
    """Every (table meld, card held) the power order allows, by trying each pair."""
    found = []
    for t in range(len(table)):
        for k in range(len(held)):
            owner, rank, _ = table[t]
            if owner != seat and power(ms, held[k]) > rank:
                found.append((t, k))
    return found


def test_the_eat_answers_of_200_table_states_equal_a_brute_force():
    ms = default_set()
    search = searcher()
    checked = 0
    for seed in range(STATES):
        hand, held, table = table_state(seed)
        pairs = eats(ms, held, table, 0)
        assert pairs == brute_eats(ms, held, table, 0), seed
        counts = counts_of(hand)
        for t, k in pairs[:1] if seed % 10 else pairs:
            then = joined(counts, table[t][2])
            assert sum(then) == sum(counts) + len(table[t][2])
            kind = seed % 3
            points, _ = search.best(then, kind, without(held, k))
            assert points == brute_best(ms, then, kind, without(held, k)) // 64, seed
            checked += 1
    assert checked > 100


def test_the_chromatic_scale_is_never_eaten_and_eats_everything_else():
    ms = default_set()
    chromatic = [i for i in range(ms.count) if power(ms, i) == 4][0]
    major = [i for i in range(ms.count) if power(ms, i) == 3][0]
    table = [(1, 4, list(range(12))), (1, 3, [0, 2, 4, 5, 7, 9, 11]), (1, 0, [0, 7])]
    assert eats(ms, [chromatic, major], table, 0) == [(1, 0), (2, 0), (2, 1)]
    assert eats(ms, [chromatic, major], table, 1) == []        # one's own melds: none


def test_any_offers_a_card_no_more_often_than_the_deck_holds_it():
    ms = default_set()
    deck = deck_cards(ms, [])
    assert len(deck) == 84
    power_chord = [i for i in range(ms.count) if ms.meld_id(i) == "5"][0]
    p5 = [i for i in range(ms.count) if ms.meld_id(i) == "P5"][0]
    played = deck_cards(ms, ["5", "P5", "P5"])
    assert power_chord not in played and played.count(p5) == 1 and len(played) == 81


def test_the_discard_the_hand_misses_least():
    search = searcher()
    counts = counts_of([0, 4, 7])                        # C E G
    plays = search.melds(counts)
    # By hand: C is in C maj 40, C 5 100, C-E (M3, E-C m6) and C-G (P5, G-C P4) 20 each: 220;
    # G the same; E in C maj 40 and four intervals: 120. E goes; barred, C (the lowest).
    assert discard_choice(plays, counts) == 4
    assert discard_choice(plays, counts, barred=4) == 0
    assert discard_choice([], counts_of([5, 5, 2])) == 5      # none used: the most held
    assert discard_choice([], counts_of([5]), barred=5) is None


def test_a_listing_s_symmetric_repeats_dropped_a_few_plays_a_step():
    # A device looks through a listing a few plays a pass (a 14-card hand's 400 at once held
    # the emulated Pico's hand mode 30 ms, a detent meanwhile lost): the same plays as at
    # once, each step looking at no more than it is told. The whole-tone hand's augmented
    # triads and tritones build the same cards at several roots: listed once.
    search = searcher()
    for pcs in ([0, 2, 4, 6, 8, 10, 0, 4, 5], [0, 0, 1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 10, 11]):
        codes = search.listed(search.expand(counts_of(pcs), None))
        job = Distinct(search, codes)
        steps = 0
        while not job.step(5):
            steps += 1
            assert job.at == 5 * steps
        assert job.found == distinct(search, codes) and len(job.found) < len(codes)
        assert steps == (len(codes) - 1) // 5


def test_a_meld_is_symmetric_from_the_set_s_masks_as_its_shapes_say():
    # The device reads symmetry from the compiled set's masks; Meld.distinct_roots() from the
    # meld's degrees: the same for every meld of the default set (aug, dim7, the tritone, the
    # whole-tone and chromatic scales among them).
    ms = default_set()
    found = [i for i in range(ms.count) if symmetric_meld(ms, i)]
    assert found == [i for i in range(ms.count) if ms.meld(i).distinct_roots() < 12]
    assert len(found) >= 5
