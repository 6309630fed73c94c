"""Scoring tables of Through the Looking Glass and Chord Poker, and Carmony's going-out
condition, against cases worked from the rulebook's tables."""

from core.games import ScoreError, carmony_table, chord_poker_table, looking_glass

from expect import raises


def test_looking_glass_interval_values():
    # Octave 8, tritone 6, fifth 5, fourth 4, thirds and sixths 3, seconds and sevenths 2.
    expected = {12: 8, 6: 6, 7: 5, 5: 4, 3: 3, 4: 3, 8: 3, 9: 3, 1: 2, 2: 2, 10: 2, 11: 2}
    for semitones in expected:
        assert looking_glass.score([semitones], 0, 0)[0] == expected[semitones], semitones


def test_looking_glass_set_bonuses_and_alices():
    assert looking_glass.score([12, 12, 12], 0, 0)[0] == 3 * 8 + 3      # all 3 octaves
    assert looking_glass.score([6, 6, 6], 0, 0)[0] == 3 * 6 + 3         # all 3 tritones
    assert looking_glass.score([7, 7], 0, 0)[0] == 10                   # two fifths: no bonus
    assert looking_glass.score([4, 4, 4], 0, 0)[0] == 9                 # thirds have no bonus
    assert looking_glass.score([], 7, 0)[0] == 28
    assert looking_glass.score([], 8, 0)[0] == 32 + 8                   # all 8 Alices
    assert looking_glass.score([], 0, 3)[0] == 15                       # rabbit's runs
    assert looking_glass.score([12, 12, 12, 6, 3], 8, 2)[0] == 27 + 6 + 3 + 40 + 10


def test_looking_glass_impossible_counts():
    raises(ScoreError, looking_glass.score, [12, 12, 12, 12], 0, 0)
    raises(ScoreError, looking_glass.score, [], 9, 0)
    raises(ScoreError, looking_glass.score, [], 0, -1)
    raises(ScoreError, looking_glass.score, [13], 0, 0)


def test_chord_poker_best_grouping():
    # count -> best points: 1 unmatched -1, pair 2, three 5, four 8, then combinations.
    expected = {0: 0, 1: -1, 2: 2, 3: 5, 4: 8, 5: 7, 6: 10, 7: 13, 8: 16}
    for count in expected:
        assert chord_poker_table.best_grouping(count)[0] == expected[count], count
    assert chord_poker_table.best_grouping(7)[1] == [4, 3]


def test_chord_poker_hand():
    hand = [0, 0, 0, 0, 2, 2, 2, 4, 5, 5, 7]        # C C C C D D D E F F G
    total, lines = chord_poker_table.score(hand, True)
    assert total == 8 + 5 - 1 + 2 - 1 + 5
    assert chord_poker_table.score(hand, False)[0] == total - 5
    assert chord_poker_table.score([], False)[0] == 0
    raises(ScoreError, chord_poker_table.score, [3] * 9, False)


def test_carmony_going_out_condition():
    assert carmony_table.can_go_out(["scale"])
    assert carmony_table.can_go_out(["chord", "chord", "chord"])
    assert not carmony_table.can_go_out(["chord", "chord", "interval", "interval"])
    assert not carmony_table.can_go_out([])
