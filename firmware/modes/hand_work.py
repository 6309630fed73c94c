"""The hand mode's answers (firmware/modes/hand.py), worked a small piece at a time between
passes (modes.Works), so the knob stays live: for the hand as it stands, every meld it builds
and the best turn of each type (core/hand.py); then what the table adds (core/hand_round.py):
the best turn with the discard pile taken, and after each eat the MELD cards held allow. Each
answer is there as soon as found, marked "searching" until proven.

A question is (what, counts, MELD cards, eat): TURN the hand's own, PILE the hand with the pile,
EAT the hand with an eaten meld's cards, from the cards held less the one that eats (`eat`:
(table meld index, held card index)). Its answer: the best turn of each type, (points, plays)."""

from core.hand import HandSearch
from core.hand_loops import STEPS_A_PIECE
from core.hand_round import Distinct

TURN, PILE, EAT = range(3)
# Listed plays looked at for a symmetric meld's repeats in a piece of work: a few ms at most on
# the emulated Pico (about 60 us a play, 0.5 ms more for a symmetric meld's).
DISTINCT_A_PIECE = 24


def prepare(ctx):
    """What the hand mode starts from, made before its code loads (load_mode: PREPARED): the
    answers, the set's table read (its 4 KB array first, the largest block the mode needs),
    and the table's view (the score pad's code, some 13 KB, in and out of the heap)."""
    from firmware import scorebook
    answers = Answers(ctx.meldset, True)
    return scorebook.view(ctx), answers


class Answers:

    def __init__(self, meldset, read=False):
        # The set's table read now (`read`: HandSearch) or a meld a piece of work as the first
        # listing goes; the search's arrays made as a hand needs them.
        self.search = HandSearch(meldset, read)
        self.questions = []
        self.results = []
        self.listing = None
        self.distinct = None          # the listing's plays being looked through
        self.found = []               # the listing's plays, each meld's same cards once
        self.done = True

    def start(self, questions):
        """Work these questions out, the first one's listing first (questions[0] is TURN)."""
        self.questions = questions
        self.results = [[None, None, None] for _ in questions]
        self.listing = None
        self.distinct = None
        self.at = 0                       # the question in work
        self.cut = []                     # (question, kind) cut short by a small heap
        self.short = False                # the heap ran out: the rest not worked out
        self.kind = 0
        self.job = None
        self.done = not sum(questions[0][1])

    def step(self):
        """One bounded piece of the work: True when an answer changed. A hand whose search a
        small board's heap cannot hold ends its work with what it found (`short`: said)."""
        try:
            return self._step()
        except MemoryError:
            self.job = None
            self.short = True
            self.done = True
            if self.listing is not None and not self.listing.done:
                self.listing.done = True          # no listing: the best turns found stand
            if self.distinct is not None:         # the plays looked through so far
                self.found = self.distinct.found
                self.distinct = None
            return True

    def _step(self):
        question = self.questions[self.at]
        if self.listing is None:
            self.listing = self.search.listing(question[1], question[2])
            return False
        if not self.listing.done:
            if self.listing.step():
                # A symmetric meld's roots that build the same cards: listed once.
                self.distinct = Distinct(self.search, self.listing.found)
            return False
        if self.distinct is not None:
            if not self.distinct.step(DISTINCT_A_PIECE):
                return False
            self.found = self.distinct.found
            self.distinct = None
            return True
        if self.job is None:
            self.job = self.search.turn(question[1], self.kind, question[2])
            return False
        job = self.job
        before = job.result()[0]
        finished = job.step(STEPS_A_PIECE)
        result = job.result()
        changed = result[0] != before or finished
        self.results[self.at][self.kind] = result
        if finished:
            if not job.proven:
                self.cut.append((self.at, self.kind))
            self.job = None
            self.kind += 1
            if self.kind == 3:
                self.kind = 0
                self.at += 1
                self.done = self.at == len(self.questions)
        return changed

    def proven(self, q, kind):
        """Is question q's best turn of this kind final (False while it is searched)?"""
        return q < self.at or (q == self.at and kind < self.kind) or self.done

    def answered(self, q):
        """Are question q's best turns of every type final?"""
        return q < self.at or self.done

    def best(self, q):
        """Question q's best turn of all types found so far: (points, plays, kind), or None."""
        turns = self.turns(q)
        return turns[0] if turns else None

    def turns(self, q):
        """Question q's best turn of each type that has one, most points first, then most
        cards played, then intervals, chords, scales (a port's sort need not be stable: the
        order says it all): [(points, plays, kind)]."""
        out = []
        for kind in range(3):
            result = self.results[q][kind]
            if result is not None and result[1]:
                out.append((result[0], result[1], kind))
        out.sort(key=turn_order)
        return out


def turn_order(turn):
    """The answers' order of best turns (points, plays, kind): most points, then most cards,
    then by kind."""
    cards = 0
    for play in turn[1]:
        cards += len(play.pcs)
    return (-turn[0], -cards, turn[2])
