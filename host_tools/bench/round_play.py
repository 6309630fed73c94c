"""`make bench`: a round of The Original, played by the rule engine (core/games/carmony.py), each
player playing its best turn, and replayed on one wheel per player at a linked table in the
simulator (host_tools/sim/table.py: the wheels' jacks on one bus, in one virtual time) with knob
and button only: what each wheel's player does to keep it in step and read its answers, counted
as the bench counts actions (detents + presses; two quick clicks are two presses).

The players' policy is the wheel's answers: at the start of a turn a player takes the discard
pile when the best turn with it beats the best turn without (the pile's what-if), else draws 2;
then plays the best turn from the MELD cards held (the most points; a tie to intervals, then
chords); with nothing to play, eats where a MELD card held can (the eat whose best turn after is
the best); then discards the card the hand misses least (core/hand_round.py: the wheel's cursor
is on it).

Each wheel has a seat and is told only what its own player does (the cards drawn, the turn
played, the MELD cards drawn to replace those used, an eat, the discard, the round's end): what
the other player does on the table (melds played, the pile taken, an eat, the discard, going
out) reaches it over the table link (issue 47), which also hands the turn back to it. The
table's script, both wheels' steps in the round's order, is made from the engine's round
(`Replay`) and judged by what the wheels say at the end: each hand equal to the engine's, each
pad's totals equal to `chromawheel score carmony` for each player."""

from core import degrees
from core.games import carmony, note_pc
from core.games.rng import Rng
from core.hand import HandSearch, counts_of
from core.hand_round import discard_choice, eats, joined, without

from firmware.modes import mode_names
from firmware.modes.hand_work import turn_order
from firmware.modes.meld_picker import groups_of, place
from host_tools.bench.table import actions as script_actions

SEED = 46
PLAYERS = 2
READ_MS = 300             # a moment before reading an answer (virtual time: the wheel's
                          # search is done before its clock moves on)
# Waited after a wheel's change before the other wheel acts: the entry on the bus (31,250 baud)
# and the other wheel's pass (its mode hears of it: on_table); virtual time, as every wait.
LINK_MS = 300
TURN_BOUND = 16           # actions a turn, on average, at most
DEAL_BOUND = 70           # the deal entered (14 NOTE + 5 MELD cards), at most
TAIL_HELD, TAIL_ROUND = 1, 3   # the answers' tail: the MELD cards held, a new round


def shortest(steps, size):
    """'cw n' or 'ccw n' for `steps` forward in a ring of `size`, the shorter way; '' for 0."""
    steps %= size
    if not steps:
        return ""
    return "cw %d" % steps if steps <= size - steps else "ccw %d" % (size - steps)


def actions(steps):
    """(detents, presses) of a list of script steps, as the bench counts them elsewhere."""
    return script_actions("; ".join(steps))


class Best:
    """The wheel's answers, worked out on the laptop with the same core: the best turn of all
    types ((points, plays, kind), a tie to the first kind), the answers list's order."""

    def __init__(self, meldset):
        self.meldset = meldset
        self.search = HandSearch(meldset)

    def turns(self, counts, held):
        out = []
        for kind in range(3):
            points, plays = self.search.best(counts, kind, held)
            if plays:
                out.append((points, plays, kind))
        out.sort(key=turn_order)
        return out

    def best(self, counts, held):
        turns = self.turns(counts, held)
        return turns[0] if turns else (0, [], None)

    def discard(self, counts, held, barred):
        search = self.search
        plays = [search.play(c) for c in search.listed(search.expand(counts, held))]
        return discard_choice(plays, counts, barred)


class Wheel:
    """One wheel's steps as its player enters the round (`K: step` in the table's script), and a
    model of what it shows (the face, the cursor, the MELD cards held in the wheel's order, the
    answers' order)."""

    def __init__(self, seat, meldset, steps):
        self.seat = seat
        self.meldset = meldset
        self.groups = groups_of(meldset)
        self.steps = steps            # the table's script, every wheel's steps in turn
        self.cursor = 0
        self.armed = False
        self.face = "hand"
        self.held = []                # meld indexes, in the wheel's order
        self.barred = None            # the single card taken from the pile this turn
        self.counted = {}             # what: actions

    def do(self, what, *steps):
        for step in steps:
            if step:
                self.steps.append("%d: %s" % (self.seat + 1, step))
                detents, presses = actions([step])
                self.counted[what] = self.counted.get(what, 0) + detents + presses

    def wait(self, ms=READ_MS):
        self.steps.append("wait %d" % ms)         # the table's time: every wheel's

    def cursor_to(self, what, pc):
        self.do(what, shortest(pc - self.cursor, 12))
        if pc != self.cursor:
            self.cursor = pc

    def add_cards(self, what, pcs):
        """Cards drawn into the hand face, the nearest first; two of a note a double."""
        left = sorted(pcs)
        while left:
            pc = min(left, key=lambda p: min((p - self.cursor) % 12, (self.cursor - p) % 12))
            self.cursor_to(what, pc)
            if left.count(pc) >= 2:
                self.do(what, "double")
                left.remove(pc)
            else:
                self.do(what, "click")
            left.remove(pc)
        self.armed = False

    def pick(self, what, i):
        """The picker by kind: the group, a click, the meld, a click."""
        group, at = place(self.groups, i)
        self.do(what, shortest(group, len(self.groups)), "click",
                shortest(at, len(self.groups[group][1])), "click")

    def to_answers(self, what, counts):
        """From the hand face to the answers: a long press, once the cursor is not on a card
        it was turned to (there a long press discards): then to the nearest empty sector."""
        if self.face == "answers":
            return
        if self.armed and counts[self.cursor]:
            empty = [pc for pc in range(12) if not counts[pc]]
            assert empty, "a hand of all 12 notes, the cursor turned onto a card"
            self.cursor_to(what, min(empty, key=lambda pc: min((pc - self.cursor) % 12,
                                                               (self.cursor - pc) % 12)))
        self.armed = False
        self.wait()
        self.do(what, "long")
        self.face = "answers"


class Replay:
    """The engine's round, and the table's script: each wheel's steps to keep it in step."""

    def __init__(self, meldset, seed=SEED):
        self.meldset = meldset
        self.best = Best(meldset)
        rng = Rng(seed)
        self.dealer = rng.below(PLAYERS)
        self.round = carmony.Round(meldset, PLAYERS, self.dealer, rng)
        self.steps = []
        self.wheels = [Wheel(seat, meldset, self.steps) for seat in range(PLAYERS)]
        self.table = []               # the pad's melds in order: [owner, meld, root, pcs]
        self.current = (self.dealer + 1) % PLAYERS
        self.turn_actions = []        # each turn: the actions of every wheel
        self.melds_played = 0

    # ---- the engine side: the policy ------------------------------------------------------

    def hand(self, p):
        return [note_pc(c) for c in self.round.hands[p]]

    def held(self, p):
        return [self.round.meld_of[c] for c in self.round.meld_hands[p]]

    def policy_start(self, p):
        counts = counts_of(self.hand(p))
        if not self.round.discard:
            return "draw"
        pile = [note_pc(c) for c in self.round.discard]
        now = self.best.best(counts, self.held(p))[0]
        then = self.best.best(joined(counts, pile), self.held(p))[0]
        return "take" if then > now else "draw"

    def eat_choice(self, p):
        """(eat pair index in the wheel's list, table index, held index) of the best eat, or
        None."""
        wheel = self.wheels[p]
        table = [(m[0], carmony.meld_rank(self.meldset.meld(m[1])), m[3]) for m in self.table]
        counts = counts_of(self.hand(p))
        found = None
        pairs = eats(self.meldset, wheel.held, table, p)
        for n, (t, k) in enumerate(pairs):
            points = self.best.best(joined(counts, table[t][2]), without(wheel.held, k))[0]
            if found is None or points > found[0]:
                found = (points, n, t, k)
        return None if found is None else found[1:]

    # ---- the whole round -------------------------------------------------------------------

    def script(self):
        """The table's script: the new game (on wheel 1, the link takes it to the others),
        each wheel to the hand mode, the deal (the dealer's wheel first: it enters the pile's
        first card), every turn, the round's end: '1: step; 2: step; wait ms' for
        host_tools.sim.table."""
        self.new_game()
        dealer = self.wheels[self.dealer]
        self.deal(dealer)
        dealer.wait(LINK_MS)
        for wheel in self.wheels:
            if wheel is not dealer:
                self.deal(wheel)
        while not self.round.over:
            self.turn()
        self.end()
        return "; ".join(self.steps)

    def new_game(self):
        """In wheel 1's score mode: The Original for 2 (two clicks), its seat kept (a click),
        the dealer; then each wheel to the hand mode."""
        modes = mode_names()
        first = 11 + 3                    # the Original's items, the actions: the new games
        self.wheels[0].do("setup", "cw %d" % first, "click", "click", "click",
                          shortest(self.dealer, PLAYERS), "click")
        self.wheels[0].wait(LINK_MS)
        for wheel in self.wheels:
            wheel.do("setup", "long", "click", shortest(modes.index("hand") -
                                                         modes.index("score"), len(modes)),
                     "click", "long")

    def deal(self, wheel):
        p = wheel.seat
        pcs = sorted(self.hand(p))
        at = 0
        k = 0
        while k < len(pcs):                # one sweep of the knob
            pc = pcs[k]
            same = pcs.count(pc)
            wheel.do("deal", "cw %d" % (pc - at) if pc != at else "")
            wheel.do("deal", *["double"] * (same // 2) + ["click"] * (same % 2))
            at = pc
            k += same
        wheel.cursor = at
        wheel.armed = False
        wheel.to_answers("deal", counts_of(pcs))
        wheel.do("deal", "ccw %d" % TAIL_HELD, "click")    # the MELD cards held: marked
        for i in self.held(p):
            wheel.pick("deal", i)
            wheel.held.append(i)
        if wheel.seat == self.dealer:      # the first to deal: the pile's first card asked
            wheel.cursor_to("pile", note_pc(self.round.discard[0]))
            wheel.do("pile", "click")
        wheel.face = "hand" if self.current == p else "table"
        wheel.armed = False

    def turn(self):
        """Player p's turn on p's wheel; then, as the link takes it to the other wheel (and
        with the turn passed, back to its hand face), the table's time goes on."""
        before = [w.counted.get("turn", 0) for w in self.wheels]
        p = self.round.turn
        self.wheels[p].barred = None
        self.start(p)
        self.main(p)
        if not self.round.over:
            self.discard(p)
        elif self.round.went_out == p:     # out with a play: the link takes the other wheel
            other = self.wheels[1 - p]     # to its hand face (its cards left to count)
            other.face = "hand"
            other.armed = False
        self.wheels[p].wait(LINK_MS)
        self.turn_actions.append([w.counted.get("turn", 0) - before[k]
                                  for k, w in enumerate(self.wheels)])

    def start(self, p):
        wheel = self.wheels[p]
        counts = counts_of(self.hand(p))
        if self.policy_start(p) == "take":
            turns = self.best.turns(counts, wheel.held)
            wheel.to_answers("turn", counts)
            wheel.do("turn", "cw %d" % len(turns) if turns else "", "click")
            if len(self.round.discard) == 1:
                wheel.barred = note_pc(self.round.discard[0])
            self.round.apply(("take",))
            return
        before = list(self.round.hands[p])
        self.round.apply(("draw",))
        drawn = [note_pc(c) for c in self.round.hands[p] if c not in before]
        wheel.add_cards("turn", drawn)

    def main(self, p):
        wheel = self.wheels[p]
        counts = counts_of(self.hand(p))
        points, plays, _ = self.best.best(counts, wheel.held)
        if points and self.empties(p, plays):
            plays = plays[:-1]             # as the wheel plays it: a card kept
        if plays:
            self.play(p, plays)
            return
        choice = self.eat_choice(p)
        if choice is not None:
            self.eat(p, choice)

    def empties(self, p, plays):
        """Would the turn play every card without the right to go out (the wheel then plays
        all but its last meld, or refuses a single one)?"""
        from core.scorepad import may_go_out
        used = sum(len(play.pcs) for play in plays)
        ranks = [carmony.meld_rank(self.meldset.meld(m[1])) for m in self.table if m[0] == p]
        ranks += [carmony.meld_rank(self.meldset.meld(play.index)) for play in plays]
        return used == len(self.round.hands[p]) and not may_go_out(ranks)

    def move(self, p, play, used):
        """The engine's move for one meld of a best turn: on its MELD card (not one of `used`),
        with the hand's lowest cards of its notes (the cards the engine offers; asked just
        before it is made: a C root's refill may bring lower ones)."""
        hand = sorted(self.round.hands[p])
        cards = []
        for pc in play.pcs:
            card = [c for c in hand if note_pc(c) == pc][0]
            hand.remove(card)
            cards.append(card)
        card = [c for c in self.round.meld_hands[p]
                if self.round.meld_of[c] == play.index and c not in used][0]
        return ("play", card, play.root, tuple(sorted(cards)))

    def play(self, p, plays):
        wheel = self.wheels[p]
        wheel.to_answers("turn", counts_of(self.hand(p)))
        wheel.wait()
        wheel.do("turn", "click")                     # the best turn: the first answer
        refill = []
        used = []
        for play in plays:
            move = self.move(p, play, used)
            used.append(move[1])
            notes = list(self.round.hands[p])
            melds = list(self.round.meld_hands[p])
            self.round.apply(move)
            self.melds_played += 1
            index = self.round.meld_of[move[1]]
            pcs = [note_pc(c) for c in move[3]]
            self.table.append([p, index, move[2], pcs])
            wheel.held.remove(index)
            for card in self.round.meld_hands[p]:
                if card not in melds:          # the MELD card drawn for it
                    wheel.pick("turn", self.round.meld_of[card])
                    wheel.held.append(self.round.meld_of[card])
            refill += [note_pc(c) for c in self.round.hands[p] if c not in notes]
        self.after(p, refill)

    def after(self, p, refill):
        """After a play or an eat: the wheel's cursor on the card the hand misses least (the
        hand before a C root's refill), then the refill's cards entered."""
        wheel = self.wheels[p]
        wheel.face = "hand"
        hand = self.hand(p)
        for pc in refill:
            hand.remove(pc)
        if hand:
            pc = self.best.discard(counts_of(hand), wheel.held, wheel.barred)
            # None may go (the pile's single card alone): the wheel's cursor on it, to pass.
            wheel.cursor = wheel.barred if pc is None else pc
            wheel.armed = True
        if refill:
            wheel.add_cards("turn", refill)

    def back_to_hand(self, p):
        """Where "back to your hand" is among the others' rarer doings on seat p's wheel (its
        table face's double press): after "took the pile", "ate your ..." for each of p's
        melds on the table, "went out", "kept the last card"."""
        return 3 + len([m for m in self.table if m[0] == p])

    def eat(self, p, choice):
        n, t, k = choice
        wheel = self.wheels[p]
        owner, index, root, pcs = self.table[t]
        turns = self.best.turns(counts_of(self.hand(p)), wheel.held)
        wheel.to_answers("turn", counts_of(self.hand(p)))
        wheel.wait()
        pile = 1 if self.round.discard else 0
        wheel.do("turn", "cw %d" % (len(turns) + pile + n), "click")
        at = [m for m in range(len(self.round.table[owner]))
              if self.round.meld_of[self.round.table[owner][m][0]] == index and
              self.round.table[owner][m][1] == root][0]
        card = [c for c in self.round.meld_hands[p]
                if self.round.meld_of[c] == wheel.held[k]][0]
        melds = list(self.round.meld_hands[p])
        self.round.apply(("eat", card, owner, at))
        self.table.pop(t)
        wheel.held.pop(k)
        for new in self.round.meld_hands[p]:
            if new not in melds:
                wheel.pick("turn", self.round.meld_of[new])
                wheel.held.append(self.round.meld_of[new])
        self.after(p, [])

    def discard(self, p):
        """The discard (or, when the last card may not go, the turn passed): a long press on
        its card. The turn passes to the other wheel over the link: its table face gives way
        to its hand face (hand.py's on_table), the cursor where it was, nothing armed."""
        wheel, other = self.wheels[p], self.wheels[1 - p]
        self.round.apply(("end",))
        if self.round.phase != "discard":  # the last card may not go: the turn passes
            self.long_on(wheel, self.hand(p)[0])
        else:
            pc = self.best.discard(counts_of(self.hand(p)), wheel.held, self.round.single_taken)
            card = [c for c in self.round.hands[p] if note_pc(c) == pc][0]
            self.round.apply(("discard", card))
            self.long_on(wheel, pc)
        # The pad passes the turn with the discard, also the one that goes out (the wheel
        # left with no cards stays on its hand face).
        wheel.face = "hand" if self.round.went_out == p else "table"
        other.face = "hand"
        other.armed = False
        self.current = 1 - p

    def long_on(self, wheel, pc):
        """A long press on the card of note pc, turned to (not just added)."""
        if wheel.face == "answers":
            wheel.do("turn", "double")
            wheel.face = "hand"
        if wheel.cursor == pc and not wheel.armed:   # turned onto it: away and back
            wheel.do("turn", "ccw 1" if pc else "cw 1")
            wheel.cursor = (pc - 1) % 12 if pc else 1
        wheel.cursor_to("turn", pc)
        wheel.do("turn", "long")
        wheel.armed = False

    def end(self):
        """The round's end on each wheel: a new round in the hand (its cards left, one entry
        the link takes to the others), then the score mode, which shows the totals."""
        modes = mode_names()
        for wheel in self.wheels:
            p = wheel.seat
            if not self.round.hands[p]:
                continue                   # went out: nothing left to count
            if wheel.face == "table":      # the round ended on the other's turn, none out
                wheel.do("end", "double", "cw %d" % self.back_to_hand(p), "click")
                wheel.face = "hand"
                wheel.armed = False
            wheel.to_answers("end", counts_of(self.hand(p)))
            wheel.do("end", "ccw %d" % TAIL_ROUND, "click", "click")
            wheel.wait(LINK_MS)
        for wheel in self.wheels:
            wheel.do("end", "long", "click",
                     shortest(modes.index("score") - modes.index("hand"), len(modes)),
                     "click", "long")

    # ---- the figures ------------------------------------------------------------------------

    def figures(self):
        turns = len(self.turn_actions)
        total = sum(sum(t) for t in self.turn_actions)
        return {"turns": turns, "melds": self.melds_played,
                "a_turn": total / turns, "a_turn_a_wheel": total / turns / PLAYERS,
                "deal": [w.counted.get("deal", 0) for w in self.wheels],
                "end": [w.counted.get("end", 0) for w in self.wheels]}


def cli_score(meldset, round_, p):
    """`chromawheel score carmony` for player p's round: argv."""
    from core.notes import format_note
    from core.spelling import spell
    argv = ["score", "carmony", "--json", "--unplayed", str(len(round_.hands[p]))]
    for card, root, notes in round_.table[p]:
        meld = meldset.meld(round_.meld_of[card])
        name = meld.root_name(root)
        pcs = [note_pc(c) for c in notes]
        spelled = []
        for code in meld.codes:
            pc = (root + degrees.semitones(code)) % 12
            if pc in pcs:
                pcs.remove(pc)
                spelled.append(format_note(spell(name, code & ~degrees.OPTIONAL)))
        argv += ["--meld", "%s:%s" % (meld.id, ",".join(spelled))]
    if round_.went_out == p:
        argv.append("--went-out")
    return argv



def replayed(meldset, seed=SEED, settings=None):
    """The round replayed at a linked table in the simulator, wheel K on seat K, each in the
    score mode at first: (replay, [(frames, console) a wheel]). `settings`: more for every
    wheel (the tests turn the link off with it)."""
    from host_tools.sim import table
    replay = Replay(meldset, seed)
    script = replay.script()
    return replay, table.run_script(script, PLAYERS, settings=dict({"mode": "score"},
                                                                   **(settings or {})))


ROUNDS = 20               # seeded rounds replayed for the mean beside the bench's own
PICK_BOUND = 8            # a MELD card of the default set, on average, at most


def replay_agrees(meldset, replay, runs):
    """Did every wheel end as the engine did: its hand, and both players' totals as
    `chromawheel score carmony` counts them?"""
    import contextlib
    import io
    import json

    from host_tools.cli.main import main
    totals = []
    for p in range(PLAYERS):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(cli_score(meldset, replay.round, p))
        totals.append(json.loads(out.getvalue())["total"])
    for p, (frames, _) in enumerate(runs):
        hands = [f["hand"] for f in frames
                 if "hand" in f and ("click again: the cards left" in f.get("console", "")
                                     or not replay.round.hands[p])]
        scores = [f["score"]["totals"] for f in frames if "score" in f]
        if not hands or hands[-1] != list(counts_of(replay.hand(p))) or \
                not scores or scores[-1] != totals:
            return False
    return True


def report(row):
    from host_tools.set_files import load_set
    ms = load_set(None)
    groups = groups_of(ms)
    picks = [from_start for i in range(ms.count)
             for from_start in [place_actions(groups, i)] * (3 if ms.kind(i) == 0 else 1)]
    replay, runs = replayed(ms, SEED)
    figures = replay.figures()
    agrees = replay_agrees(ms, replay, runs)
    print("A round of The Original on one wheel a player, linked (the simulator's table; actions = "
          "detents + presses)")
    row("  a MELD card picked by kind, the deck's 84 cards", "%.1f actions" % (
        sum(picks) / len(picks)), "<= %d on average" % PICK_BOUND,
        sum(picks) / len(picks) <= PICK_BOUND)
    deal = max(figures["deal"])
    row("  a round of The Original (seed %d), deal entered" % SEED,
        "%d / %d actions" % tuple(figures["deal"]), "<= %d (14 NOTE + 5 MELD)" % DEAL_BOUND,
        deal <= DEAL_BOUND)
    row("  a round of The Original (seed %d), actions a turn" % SEED,
        "%.1f a wheel" % figures["a_turn_a_wheel"], "<= %d on average" % TURN_BOUND,
        figures["a_turn_a_wheel"] <= TURN_BOUND and agrees)
    row("    both wheels, %d turns, %d melds played" % (figures["turns"], figures["melds"]),
        "%.1f a turn" % figures["a_turn"], "the wheels end as the engine: %s" % (
            "yes" if agrees else "NO"))
    links = [[f["link"] for f in frames if "link" in f][-1] for frames, _ in runs]
    shared = len({(link["entries"], link["digest"]) for link in links}) == 1
    row("    the table over the link, the others' doings", "%d entries" % links[0]["entries"],
        "one log on both: %s" % ("yes" if shared else "NO"), shared)
    turns = melds = total = 0
    deals = []
    agreeing = 0
    for seed in range(1, ROUNDS + 1):
        more, runs = replayed(ms, seed)
        agreeing += replay_agrees(ms, more, runs)
        turns += len(more.turn_actions)
        melds += more.melds_played
        total += sum(sum(t) for t in more.turn_actions)
        deals += more.figures()["deal"]
    row("  a round of The Original, %d seeded rounds, actions a turn" % ROUNDS,
        "%.1f a wheel" % (total / turns / PLAYERS), "%d turns, %.1f melds a turn" % (
            turns, melds / turns), None)
    row("    deal entered, median / worst", "%d / %d actions" % (
        sorted(deals)[len(deals) // 2], max(deals)), "%d of %d rounds end as the engine"
        % (agreeing, ROUNDS), agreeing == ROUNDS and max(deals) <= DEAL_BOUND)


def place_actions(groups, i):
    from firmware.modes.meld_picker import actions_to_pick
    return actions_to_pick(groups, i)
