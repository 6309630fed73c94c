"""A seeded random source that gives the same sequence on CPython and MicroPython (their
`random` modules differ), so a seed replays the same deal everywhere. xorshift32."""

_MASK = 0xFFFFFFFF


class Rng:
    def __init__(self, seed):
        self.state = ((seed * 2654435761) ^ 0x9E3779B9) & _MASK or 1

    def next(self):
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def below(self, n):
        """0 <= value < n."""
        return self.next() % n

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items):
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
