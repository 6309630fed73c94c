"""The decoder against synthetic A/B streams: clean, bouncy, reversing mid-detent, missing
edges. States are (A << 1) | B; clockwise (A leading B) from rest 11 is 11 01 00 10 11."""

from hardware.quadrature import QuadratureDecoder

CW = (1, 0, 2, 3)          # one detent clockwise from 11
CCW = (2, 0, 1, 3)         # one detent anticlockwise from 11


def feed(decoder, states):
    for s in states:
        decoder.feed(s)
    return decoder.take()


def bouncy(states, start=3):
    """Every edge chatters: new, old, new, old, new."""
    out = []
    previous = start
    for s in states:
        out += [s, previous, s, previous, s]
        previous = s
    return out


def test_clean_detents_both_ways():
    d = QuadratureDecoder(4)
    assert feed(d, CW * 5) == 5
    assert feed(d, CCW * 3) == -3
    assert feed(d, CW + CCW) == 0


def test_reverse_flag():
    d = QuadratureDecoder(4, reverse=True)
    assert feed(d, CW * 2) == -2


def test_bounce_never_drifts():
    d = QuadratureDecoder(4)
    assert feed(d, bouncy(CW * 7)) == 7
    assert feed(d, bouncy(CCW * 7)) == -7
    # Chatter on the rest state alone is no movement at all.
    assert feed(d, [1, 3, 1, 3, 2, 3, 2, 3]) == 0


def test_reversal_in_the_middle_of_a_detent_counts_nothing():
    d = QuadratureDecoder(4)
    assert feed(d, [1, 0, 1, 3]) == 0            # half way, then back
    assert feed(d, [1, 0, 2, 0, 1, 3]) == 0      # three quarters, then back
    assert feed(d, [1, 3, 1, 0, 2, 3]) == 1      # a false start, then a full detent
    assert feed(d, [1, 0, 2, 3, 2, 0, 1, 3]) == 0  # forward one, back one


def test_missed_edge_resynchronises_at_rest():
    d = QuadratureDecoder(4)
    assert feed(d, [1, 0, 3]) == 1               # 00 -> 11 skips 10: still one detent
    assert feed(d, CW * 2) == 2                  # and the next ones are counted cleanly


def test_two_pulses_per_detent():
    d = QuadratureDecoder(2)
    # Rest states are 11 and 00: 11 -> 01 -> 00 is one detent, 00 -> 10 -> 11 the next.
    assert feed(d, [1, 0]) == 1
    assert feed(d, [2, 3]) == 1
    assert feed(d, bouncy([1, 0, 2, 3])) == 2
    assert feed(d, [2, 0]) == -1                 # 11 -> 10 -> 00: one anticlockwise
    assert feed(d, [1, 3]) == -1                 # 00 -> 01 -> 11: one more
    d = QuadratureDecoder(2)
    assert feed(d, [1, 3]) == 0                  # out and back within a detent


def test_one_pulse_per_detent_and_bad_setting():
    d = QuadratureDecoder(1)
    assert feed(d, CW) == 4
    try:
        QuadratureDecoder(3)
    except ValueError:
        return
    raise AssertionError("3 pulses per detent accepted")


def test_edges_are_counted_for_diagnostics():
    d = QuadratureDecoder(4)
    feed(d, CW)
    assert d.edges == 4
