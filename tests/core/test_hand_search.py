"""Hand search (core/hand.py) against a brute force over the meld set and against check(), on
seeded hands dealt from a real NOTE deck (8 cards of each note), as at the table: 10, 12 or 14
cards. Runs under pytest and the MicroPython unix port (tests/run_core_micropython.py)."""

from core.check import check
from core.games.rng import Rng
from core.hand import HandSearch, counts_of
from core.melds import find
from core.parse import pc_of

from expect import default_set

HANDS = 200
_search = None


def searcher():
    global _search
    if _search is None:
        _search = HandSearch(default_set())
    return _search


def deal(seed):
    """A hand dealt from a shuffled 96-card NOTE deck: 14, 12 or 10 cards (2, 3, 4 players)."""
    deck = []
    for pc in range(12):
        deck += [pc] * 8
    rng = Rng(seed)
    rng.shuffle(deck)
    return deck[:(14, 12, 10)[seed % 3]]


def brute_variants(ms, counts, kind=None):
    """Every (meld, root, cards) the hand can play: each subset of each meld's positions that
    keeps its required ones, at each root, whose cards the hand holds (yielded: a list of them
    all is a large block for the unix port's heap after the other core cases). `kind`: only
    that type's melds. Each position's semitones are read once a meld, not once a subset: the
    reading was most of the core cases' time on both interpreters."""
    from core import degrees
    for i in range(ms.count):
        if kind is not None and ms.kind(i) != kind:
            continue
        codes = ms.meld(i).codes
        offsets = [degrees.semitones(c) for c in codes]
        optional = [k for k in range(len(codes)) if codes[k] & 0x80]
        required = [k for k in range(len(codes)) if not codes[k] & 0x80]
        for root in range(12):
            for subset in range(1 << len(optional)):
                positions = required + [optional[b] for b in range(len(optional))
                                        if subset >> b & 1]
                need = bytearray(12)
                for k in positions:
                    need[(root + offsets[k]) % 12] += 1
                if _holds(counts, need):
                    yield i, root, sorted((root + offsets[k]) % 12 for k in positions)


def _holds(counts, need):
    for pc in range(12):
        if need[pc] > counts[pc]:
            return False
    return True


def brute_melds(ms, counts):
    """The richest variant of each (meld, root): every optional card held is played."""
    richest = {}
    for i, root, pcs in brute_variants(ms, counts):
        if (i, root) not in richest or len(pcs) > len(richest[(i, root)]):
            richest[(i, root)] = pcs
    return richest


def brute_best(ms, counts, kind, held=None):
    """The most points (then cards) from melds of one kind on disjoint cards, each on a MELD
    card of its own (those held, else the deck's: intervals 3 times, others once), by trying
    every family of plays."""
    plays = {}
    for i, root, pcs in brute_variants(ms, counts, kind):
        if held is not None and i not in held:
            continue
        points = check(ms.meld(i), pcs, ms.meld(i).root_name(root)).points
        plays[(tuple(pcs), i)] = points
    items = [(counts_of(pcs), i, points * 64 + len(pcs))
             for (pcs, i), points in sorted(plays.items())]
    melds = []
    for _, i, _ in items:
        if i not in melds:
            melds.append(i)
    items = [(need, melds.index(i), score) for need, i, score in items]
    copies = _copies(ms, melds, held)
    left = bytearray(counts)
    found = [0]

    def walk(start, score):
        # Every family of plays, each as a run of items in the list's order (no memo, no
        # ordering trick, no bound).
        if score > found[0]:
            found[0] = score
        for j in range(start, len(items)):
            need, k, gain = items[j]
            if not copies[k] or not _holds(left, need):
                continue
            for pc in range(12):
                left[pc] -= need[pc]
            copies[k] -= 1
            walk(j, score + gain)
            copies[k] += 1
            for pc in range(12):
                left[pc] += need[pc]

    walk(0, 0)
    return found[0]


def _copies(ms, melds, held):
    """How many MELD cards of each meld there are: those held, else the deck's (intervals
    3 times, others once)."""
    copies = bytearray(len(melds))
    for k in range(len(melds)):
        if held is None:
            copies[k] = 3 if ms.kind(melds[k]) == 0 else 1
        else:
            copies[k] = held.count(melds[k])
    return copies


def test_lists_exactly_the_melds_a_brute_force_finds_each_agreeing_with_check():
    ms = default_set()
    search = searcher()
    for seed in range(HANDS):
        counts = counts_of(deal(seed))
        plays = search.melds(counts)
        expected = brute_melds(ms, counts)
        got = {}
        for play in plays:
            assert (play.index, play.root) not in got, (seed, play)
            got[(play.index, play.root)] = sorted(play.pcs)
            meld = ms.meld(play.index)
            result = check(meld, play.pcs, meld.root_name(play.root))
            assert result.valid, (seed, meld.id, play.root, result.reason)
            assert result.points == play.points, (seed, meld.id, play.root)
            assert play.c_root == (play.root == 0)
            assert play.kind == ms.kind(play.index)
        assert got == expected, seed
        for a, b in zip(plays, plays[1:]):
            assert a.points >= b.points, seed


def test_best_turn_of_each_type_matches_a_brute_force():
    ms = default_set()
    search = searcher()
    for seed in range(HANDS):
        hand = deal(seed)
        hand = hand[:4 + seed % 5]   # 4-8 cards: the brute force is slow and its memo large
        counts = counts_of(hand)
        for kind in range(3):
            points, plays = search.best(counts, kind)
            used = bytearray(12)
            total = 0
            cards = 0
            for play in plays:
                assert play.kind == kind
                meld = ms.meld(play.index)
                result = check(meld, play.pcs, meld.root_name(play.root))
                assert result.valid and result.points == play.points, (seed, meld.id)
                for pc in play.pcs:
                    used[pc] += 1
                total += play.points
                cards += len(play.pcs)
            assert all(used[pc] <= counts[pc] for pc in range(12)), (seed, kind)
            assert total == points, (seed, kind)
            assert total * 64 + cards == brute_best(ms, counts, kind), (seed, kind)
            if seed % 10 == 0:
                held = [(seed * 7 + 3 * k) % ms.count for k in range(5)]
                points, plays = search.best(counts, kind, held)
                assert all(held.count(p.index) >= [q.index for q in plays].count(p.index)
                           for p in plays), (seed, kind)
                cards = sum(len(p.pcs) for p in plays)
                assert points * 64 + cards == brute_best(ms, counts, kind, held), (seed, kind)


def test_best_turn_of_9_and_10_card_hands_matches_a_brute_force():
    # Larger hands than above, dealt from other seeds: the branch and bound's pruning has more
    # to cut here, and the brute force (no bound, no order) still finishes in seconds.
    ms = default_set()
    search = searcher()
    for seed in range(HANDS, HANDS + 16):
        counts = counts_of(deal(seed)[:9 + seed % 2])
        for kind in range(3):
            points, plays = search.best(counts, kind)
            cards = sum(len(p.pcs) for p in plays)
            assert points * 64 + cards == brute_best(ms, counts, kind), (seed, kind)


def test_best_turns_of_full_hands_are_played_from_the_hand():
    # 10 to 14 cards: disjoint valid melds of one type, at least the richest single meld.
    ms = default_set()
    search = searcher()
    for seed in range(0, HANDS, 4):
        counts = counts_of(deal(seed))
        listed = search.melds(counts)
        for kind in range(3):
            points, plays = search.best(counts, kind)
            used = bytearray(12)
            for play in plays:
                meld = ms.meld(play.index)
                assert check(meld, play.pcs, meld.root_name(play.root)).valid
                for pc in play.pcs:
                    used[pc] += 1
            assert all(used[pc] <= counts[pc] for pc in range(12)), (seed, kind)
            assert points == sum(p.points for p in plays)
            single = [p.points for p in listed if p.kind == kind]
            assert points >= (max(single) if single else 0), (seed, kind)


def named(ms, text):
    return [pc_of(n) for n in text.split()]


def test_worked_hand_c_e_g_bb_d():
    # C E G Bb D: C9 (all five, 100), Gm6 (G Bb D E: 70), C7 (70), G5 (power chord, 100)...
    ms = default_set()
    search = searcher()
    counts = counts_of(named(ms, "C E G Bb D"))
    plays = search.melds(counts)
    top = plays[0]
    assert top.points == 100
    readings = [(ms.meld_id(p.index), p.root, p.points) for p in plays]
    assert ("9", 0, 100) in readings and ("7", 0, 70) in readings
    assert ("5", 7, 100) in readings and ("min7b5", 4, 70) in readings
    # C7 is played with its optional G when held: 4 cards, 70.
    c7 = [p for p in plays if ms.meld_id(p.index) == "7" and p.root == 0][0]
    assert sorted(c7.pcs) == [0, 4, 7, 10] and c7.c_root
    # Best chords: the G power chord (100) + C E Bb as C7 without its fifth (40) beats C9;
    # the C power chord cannot join it (the deck has one power chord card).
    points, best = search.best(counts, 1)
    assert points == 140
    assert sorted((ms.meld_id(p.index), p.root) for p in best) == [("5", 7), ("7", 0)]
    # Best intervals: two intervals from five cards.
    assert search.best(counts, 0)[0] == 40
    assert search.best(counts, 2) == (0, [])


def test_octave_needs_two_cards_and_a_scale_turn():
    ms = default_set()
    search = searcher()
    counts = counts_of(named(ms, "C C D E F G A B"))
    ids = [(ms.meld_id(p.index), p.root) for p in search.melds(counts)]
    assert ("P8", 0) in ids and ("P8", 2) not in ids
    points, best = search.best(counts, 2)
    assert points == 350 and ms.meld_id(best[0].index) == "major" and best[0].c_root


def test_meld_cards_held_each_play_once():
    ms = default_set()
    search = searcher()
    p5 = find(ms, "P5")
    counts = counts_of(named(ms, "C G D A E B"))
    # Three fifths are there (C-G, D-A, E-B) but one P5 card plays one meld.
    points, best = search.best(counts, 0, [p5])
    assert points == 20 and len(best) == 1
    points, best = search.best(counts, 0, [p5, p5])
    assert points == 40 and len(best) == 2
    assert all(p.index == p5 for p in best)
    # Without the restriction: three intervals (the deck has 3 of each interval card).
    assert search.best(counts, 0)[0] == 60
    counts = counts_of(named(ms, "C G D A E B F# C#"))
    points, best = search.best(counts, 0)
    assert points == 80
    # Four fifths in the hand, and only 3 P5 cards in the deck: the fourth pair is another
    # interval.
    assert [ms.meld_id(p.index) for p in best].count("P5") <= 3
    # One power chord card: C-G and D-A are not two power chords.
    points, best = search.best(counts_of(named(ms, "C G D A")), 1)
    assert points == 100 and len(best) == 1
    listed = search.melds(counts, [p5])
    assert listed and all(p.index == p5 for p in listed)


def test_jobs_step_by_step_give_the_one_shot_answers_and_a_valid_turn_at_every_step():
    # A device searches a few steps a pass (its knob stays live): each best-so-far is a turn
    # played from the hand, never falling, and the last is best()'s; the listing is melds().
    ms = default_set()
    search = HandSearch(ms)
    for seed in range(1, 40, 3):
        counts = counts_of(deal(seed))
        listing = search.listing(counts)
        steps = 0
        while not listing.step():
            steps += 1
        # The first listing reads the set's table a meld a step; the next ones list at once.
        assert steps == (ms.count if seed == 1 else 0)
        plays = [search.play(code) for code in listing.found]
        assert [(p.index, p.root, p.pcs) for p in plays] == [
            (p.index, p.root, p.pcs) for p in search.melds(counts)]
        for kind in range(3):
            job = search.turn(counts, kind)
            last = -1
            while True:
                done = job.step(3)
                points, plays = job.result()
                used = bytearray(12)
                for play in plays:
                    for pc in play.pcs:
                        used[pc] += 1
                assert all(used[pc] <= counts[pc] for pc in range(12)), (seed, kind)
                assert points == sum(p.points for p in plays) and points >= last
                last = points
                if done:
                    break
            final = search.best(counts, kind)
            assert (points, [(p.index, p.root) for p in plays]) == (
                final[0], [(p.index, p.root) for p in final[1]]), (seed, kind)


def test_an_odd_hand_s_best_intervals_are_proven_without_trying_every_set():
    # 13 cards: six intervals (12 cards, 120) are the best turn. A bound by the cards left
    # allowed 13 cards' worth (130) and tried every set of intervals first: 211,338 steps, some
    # 10 s on a Pico, while a device's knob waited on the search. Every interval takes two
    # cards, so a turn plays at most 12 of 13.
    points, steps = stepped(counts_of([2, 3, 4, 4, 4, 4, 5, 6, 6, 8, 9, 9, 10]), 0)
    assert points == 120
    assert steps < 200, steps


def test_a_hand_s_best_chords_are_proven_without_entering_levels_no_play_size_could_fill():
    # make bench's slowest deal of 100 (328 ms on the emulated Pico, bound 250): 370 points
    # from a power chord, a 7-card and a 4-card chord. After a power chord and a 7-card chord
    # 5 cards are left and only a 5-card chord would beat it; a rate per card allowed 5/4 of
    # a 4-card chord and went on with every one that fitted: 2,392 steps. A knapsack over the
    # plays' sizes sees that 4 of 5 cards give one chord.
    points, steps = stepped(counts_of([0, 0, 1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 10, 11]), 1)
    assert points == 370
    assert steps < 1200, steps


def stepped(counts, kind):
    """A turn job worked a step at a time: (its best turn's points, the steps it took)."""
    job = searcher().turn(counts, kind)
    steps = 0
    while not job.step(1):
        steps += 1
    return job.result()[0], steps


def test_a_search_the_heap_cannot_hold_ends_with_the_best_turn_found_not_proven():
    # A board's heap may have no room to grow the search's candidate stack for a hand far past
    # a deal's size: the job ends with the best turn found so far, marked not proven.
    from core import hand as hand_module
    from core import hand_loops

    counts = counts_of(deal(1))
    proven = searcher().best(counts, 1)
    # The search of the module patched below: under make test another test may have imported
    # core.hand again, and the HandSearch this file imported reads its own module's _grown.
    job = hand_module.HandSearch(default_set()).turn(counts, 1)
    while job.arrays is None:                     # the set read, the ways listed, the
        job.step(1)                               # stack made
    state = job.arrays[0]
    grown = hand_module._grown

    def no_room(old, n):
        raise MemoryError("no room")

    hand_module._grown = no_room
    try:
        state[hand_loops.S_STACK_CAP] = 4         # a stack too short at once
        while not job.step(50):
            pass
    finally:
        hand_module._grown = grown
    points, plays = job.result()
    assert job.done and not job.proven
    assert points <= proven[0] and points == sum(p.points for p in plays)
