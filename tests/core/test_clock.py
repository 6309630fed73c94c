"""ticks_add and ticks_diff as every port has them: a delta of half a period or more either
way is refused (extmod/modtime.c), so ticks_diff(ticks_add(T, d), T) == d always holds."""

from hardware.clock import PERIOD, ticks_add, ticks_diff

from expect import raises

HALF = PERIOD // 2


def test_the_largest_deltas_either_way_round_trip():
    for t in (0, 5, PERIOD - 1):
        for delta in (HALF - 1, -(HALF - 1), 1, -1):
            later = ticks_add(t, delta)
            assert ticks_diff(later, t) == delta and ticks_diff(t, later) == -delta


def test_half_a_period_is_refused_either_way():
    raises(OverflowError, ticks_add, 0, HALF)
    raises(OverflowError, ticks_add, 0, -HALF)
