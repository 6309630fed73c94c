"""The table's score pad (core/scorepad.py, a replay of the table log, core/table.py) kept in
the board's record store, so a score survives mode switches, reboots and power cuts: every
change is written at once, the log whole and atomically (firmware/records.py: a file replaced
whole on the flash, or a record appended to CircuitPython's nvm log). Only an explicit "new
game" replaces it. The modes that play melds (score, hand, meld check) share it through here;
what they write is about the wheel's seat (the `seat` setting, 1-4) or, with none, the player
to play."""

PATH = "table.log"
OLD_PATH = "score.txt"          # the pad's text before the table log (read once, converted)


def records(ctx):
    """The board's record store, the one the settings are kept in."""
    return ctx.settings.records


def seat(ctx):
    """The wheel's seat, 0-3, or None."""
    value = ctx.settings["seat"]
    return None if value is None else value - 1


def load(ctx):
    """The stored pad, or a new 2-player game of The Original when none (or a damaged one);
    while the table link is on, the pad it shares (ctx.table: one in RAM for the modes and
    the link, firmware/link.py)."""
    if ctx.table is not None:
        return ctx.table
    # The pad's code imported here, not with this module: the hand mode drops it between
    # its writes (_drop), which a name bound at import would keep.
    from core.scorepad import ScorePad, ScorePadError, from_bytes
    raw = records(ctx).read(PATH)
    if raw:
        try:
            return from_bytes(raw, seat(ctx))
        except ScorePadError:
            pass
    else:
        old = records(ctx).read(OLD_PATH)
        if old:
            from firmware import score_text  # once, after an update: then dropped
            pad = score_text.converted(old, seat(ctx))
            if pad is not None:
                return pad
    return ScorePad("original", 2, seat=seat(ctx))


def save(ctx, pad):
    """Written at once; the link, when it is on, sends what this wheel wrote."""
    records(ctx).write(PATH, pad.to_bytes())
    ctx.table_saved(pad)


def summary(pad):
    """The console's score part: 'score: original, 2 players, round 1 of 3, totals 0 70, P2 to
    play' (the simulator's frames read their "score" from it)."""
    if pad.over:
        turn = "game over"
    else:
        turn = "P%d to play" % (pad.current + 1)
    return "score: %s, %d players, round %d of %d, totals %s, %s" % (
        pad.name, pad.players, pad.round + 1, pad.rounds,
        " ".join(str(t) for t in pad.totals()), turn)


def play(ctx, melds):
    """Melds played, each (MELD card id, root pc, rank, NOTE pcs, points), on the stored pad:
    the console's words, and whether the pad took them."""
    points = 0
    for meld in melds:
        points += meld[4]
    ids, error, table = write(ctx, [("meld", meld) for meld in melds])
    if error:
        return "not credited: %s" % error, False
    return "credited %d to P%d; %s" % (points, table.actor() + 1, table.summary), True


class View:
    """The table as the hand mode reads it, copied from the pad (its melds on the table
    [origin, seq, seat, card id, root, rank, pcs, points], the pile, the turn, the seats'
    cards left, who went out this round, the score's line), so the pad's code can leave a
    small board's heap between the hand's writes (view(), write())."""

    def __init__(self, pad):
        self.original = pad.game == 0 and not pad.over      # a round of The Original on
        self.players = pad.players
        self.seat = pad.seat
        self.current = pad.current
        self.turns = pad.turns
        self.melds = pad.melds
        self.pile = bytes(pad.pile)
        self.left = pad.left
        self.went_out = pad.went_out        # the seat gone out this round, or None
        self.summary = summary(pad)
        self._actor = pad.actor()

    def actor(self):
        return self._actor


def view(ctx):
    """The table's View."""
    table = View(load(ctx))
    _drop(ctx)
    return table


def write(ctx, calls):
    """Entries on the stored pad: calls [(the pad's method, its arguments)], in order, until
    one is refused. (the written entries' ids, the refusal or None, the table's View after)."""
    from core.scorepad import ScorePadError
    pad = load(ctx)
    ids = []
    error = None
    for name, args in calls:
        try:
            entry = getattr(pad, name)(*args)
        except ScorePadError as err:
            error = str(err)
            break
        ids.append(entry if name == "undo" else (entry[1], entry[2]))
    if ids:
        save(ctx, pad)
    table = View(pad)
    pad = None
    _drop(ctx)
    return ids, error, table


def _drop(ctx):
    """The pad's code leaves the heap (it comes back with the next read), but while the link
    keeps the table in RAM (ctx.table)."""
    if ctx.table is None:
        from firmware import unload
        unload(("core.scorepad", "core.table"))
