"""`chromawheel hand NOTE... [--melds ID,...]`: what a hand of NOTE cards builds in Carmony, the
original, and the best turn of each type (core/hand.py)."""

from core import degrees
from core.hand import KIND_PLURALS, HandSearch, counts_of
from core.melds import find
from core.notes import format_note, note_pc
from core.parse import NoteError, parse_note
from core.spelling import spell

from host_tools.cli.options import add_set
from host_tools.cli.output import emit
from host_tools.errors import UserError
from host_tools.set_files import load_set


def register(commands, common):
    p = commands.add_parser("hand", parents=[common],
                            help="every meld a hand of NOTE cards builds, and the best turn "
                                 "of each type (Carmony, the original)")
    p.add_argument("notes", nargs="+", metavar="NOTE", help="the NOTE cards in hand, e.g. "
                   "C E G Bb D (a note held twice, twice)")
    p.add_argument("--melds", metavar="ID,...",
                   help="only the MELD cards held (ids or names, comma-separated; a card held "
                        "twice, twice): each plays at most one meld")
    add_set(p)
    p.set_defaults(run=run_hand)


def read_cards(texts):
    """The NOTE cards typed, each checked: a bad one is named by its place."""
    notes = []
    for k, text in enumerate(texts, 1):
        try:
            notes.append(parse_note(text))
        except NoteError as err:
            raise UserError("NOTE card %d of %d (%r): %s" % (k, len(texts), text, err)) from err
    return notes


def read_meld_cards(meldset, text):
    held = []
    items = text.split(",")
    for k, item in enumerate(items, 1):
        name = item.strip()
        if not name:
            raise UserError("--melds %r: card %d is empty (expected ID,ID,... such as P5,maj7)"
                            % (text, k))
        try:
            held.append(find(meldset, name))
        except KeyError as err:
            raise UserError("--melds card %d (%r): %s (chromawheel melds lists them)"
                            % (k, name, err.args[0])) from err
    return held


def play_data(meldset, play):
    """A meld played from the hand as JSON: id, root, notes (spelled, in card order), points,
    kind, c_root."""
    root = meldset.meld(play.index).root_name(play.root)
    return {"id": meldset.meld_id(play.index), "root": format_note(root),
            "notes": [format_note(spell(root, code & ~degrees.OPTIONAL))
                      for code in play.positions],
            "points": play.points, "kind": meldset.kind_name(play.index),
            "c_root": play.c_root}


def play_line(entry):
    text = "%s %s %d  (%s)" % (entry["root"], entry["id"], entry["points"],
                               " ".join(entry["notes"]))
    if entry["c_root"]:
        text += "  C root: draw %d NOTE cards" % len(entry["notes"])
    return text


def run_hand(args):
    ms = load_set(args.set_path)
    notes = read_cards(args.notes)
    held = read_meld_cards(ms, args.melds) if args.melds is not None else None
    search = HandSearch(ms)
    counts = counts_of([note_pc(n) for n in notes])
    melds = [play_data(ms, p) for p in search.melds(counts, held)]
    best = {}
    for kind in range(3):
        points, plays = search.best(counts, kind, held)
        best[KIND_PLURALS[kind]] = {"melds": [play_data(ms, p) for p in plays],
                                    "points": points}
    data = {"cards": [format_note(n) for n in notes], "melds": melds, "best": best}
    lines = ["%s: %d meld%s%s" % (" ".join(data["cards"]), len(melds),
                                   "" if len(melds) == 1 else "s",
                                   " from the MELD cards held" if held is not None else "")]
    for k, entry in enumerate(melds, 1):
        lines.append("  %d/%d %s" % (k, len(melds), play_line(entry)))
    lines.append("best turn of each type:")
    for kind in KIND_PLURALS:
        turn = best[kind]
        if not turn["melds"]:
            lines.append("  %-9s none" % kind)
            continue
        lines.append("  %-9s %d points" % (kind, turn["points"]))
        for entry in turn["melds"]:
            lines.append("    " + play_line(entry))
    emit(args, data, lines)
