"""Sets of pitch classes as 12-bit masks (bit pc set), Tonal.js's "chroma".

Rotation to a new root, containment and identification become a few integer operations.
"""

FULL = 0xFFF


def mask_of(pcs):
    mask = 0
    for pc in pcs:
        mask |= 1 << (pc % 12)
    return mask


def pcs_of(mask):
    return [pc for pc in range(12) if mask >> pc & 1]


def rotate(mask, steps):
    """Transpose up by `steps` semitones: a 12-bit rotate left."""
    steps %= 12
    return ((mask << steps) | (mask >> (12 - steps))) & FULL


def popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


