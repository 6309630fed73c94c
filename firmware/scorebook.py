"""The table's score pad (core/scorepad.py, a replay of the table log, core/table.py) kept in
the board's record store, so a score survives mode switches, reboots and power cuts: every
change is written at once, the log whole and atomically (firmware/records.py: a file replaced
whole on the flash, or a record appended to CircuitPython's nvm log). Only an explicit "new
game" replaces it. The modes that play melds (score, hand, meld check) share it through here;
what they write is about the wheel's seat (the `seat` setting, 1-4) or, with none, the player
to play."""

from core.scorepad import ScorePad, ScorePadError, from_bytes

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
    the console's words, and whether the pad took them (all or none)."""
    pad = load(ctx)
    player = pad.actor()
    points = 0
    try:
        for card, root, rank, pcs, meld_points in melds:
            pad.meld(card, root, rank, pcs, meld_points)
            points += meld_points
    except ScorePadError as err:
        return "not credited: %s" % err, False
    save(ctx, pad)
    return "credited %d to P%d; %s" % (points, player + 1, summary(pad)), True
