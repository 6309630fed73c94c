"""The hand search's answers for dealt hands, a line of JSON a hand: what the search's loops
must give alike as plain Python on CPython, as plain Python on MicroPython and as machine code
on the rp2 port. Run here by CPython, and by MicroPython beside the core it is given (the unix
port; the rp2 port, compiled onto the emulated Pico's drive): it uses nothing else."""

import json

from core.hand import HandSearch, counts_of


def dealt(count, sizes, held_every, held_step):
    """`count` hands dealt from shuffled 96-card NOTE decks (seeds 0..), of `sizes` cards in
    turn; every `held_every`-th holds five MELD cards (held_step apart), the others any."""
    from core.games.rng import Rng
    hands = []
    for seed in range(count):
        deck = [pc for pc in range(12) for _ in range(8)]
        Rng(seed).shuffle(deck)
        held = None
        if seed % held_every == held_every - 1:
            held = [(seed * 7 + held_step * k) % 60 for k in range(5)]
        hands.append((deck[:sizes[seed % len(sizes)]], held))
    return hands


def answer(search, pcs, held):
    """A hand's listing (packed plays) and each type's best turn: points, then each play's
    meld, root and cards."""
    counts = counts_of(pcs)
    return [list(search.listed(search.expand(counts, held))),
            [[points, [[p.index, p.root, list(p.pcs)] for p in plays]]
             for points, plays in search.best_turns(counts, held)]]


def answers(meldset, hands):
    search = HandSearch(meldset)
    return [answer(search, pcs, held) for pcs, held in hands]


def main(set_path, hands):
    """Print whether the loops are machine code, then a line a hand (one line of them all is
    a block a small board's heap may not hold)."""
    from core import hand_loops, meldset
    search = HandSearch(meldset.load(set_path))
    print(json.dumps(hand_loops.NATIVE))
    for pcs, held in hands:
        print(json.dumps(answer(search, pcs, held)))


def read(said, hands):
    """(machine code?, the answers) from what main() printed."""
    lines = said.strip().splitlines()[-1 - len(hands):]
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
