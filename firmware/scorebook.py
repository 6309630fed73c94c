"""The table's score pad (core/scorepad.py) kept in the board's record store, so a score
survives mode switches, reboots and power cuts: every change is written at once, atomically
(firmware/records.py: a file replaced whole on the flash, or a record appended to
CircuitPython's nvm log). Only an explicit "new game" replaces it. The modes that credit a meld
(score, hand, meld check) share it through here."""

from core.scorepad import ScorePad, ScorePadError, from_text

PATH = "score.txt"


def records(ctx):
    """The board's record store, the one the settings are kept in."""
    return ctx.settings.records


def load(ctx):
    """The stored pad, or a new 2-player game of The Original when none (or a damaged one)."""
    raw = records(ctx).read(PATH)
    if raw:
        try:
            return from_text(str(raw, "utf-8"))
        except (ScorePadError, UnicodeError):
            pass
    return ScorePad("original", 2)


def save(ctx, pad):
    records(ctx).write(PATH, pad.to_text().encode())


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


def credit(ctx, points):
    """Credit a meld's points to the current player of the stored pad: the console's words."""
    pad = load(ctx)
    if pad.over:
        return "game over: start a new game in the score mode"
    player = pad.current
    pad.credit(points)
    save(ctx, pad)
    return "credited %d to P%d; %s" % (points, player + 1, summary(pad))
