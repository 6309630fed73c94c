"""`chromawheel hand NOTE... [--melds ID,...] [--table ID:NOTE,... ...]`: what a hand of NOTE
cards builds in Carmony, the original, the best turn of each type (core/hand.py), and which of
the other players' melds on the table each MELD card held can eat, with the best turn the hand
then has (core/hand_round.py)."""

from core import degrees
from core.check import check
from core.hand import KIND_PLURALS, HandSearch, counts_of
from core.hand_round import distinct, eats, joined, without
from core.melds import find
from core.notes import format_note, note_pc, pc_names
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
    p.add_argument("--table", action="append", default=[], metavar="ID:NOTE,NOTE,...",
                   help="a meld another player has on the table and its NOTE cards (repeat for "
                        "each): which MELD card held eats it, and the best turn then (needs "
                        "--melds)")
    add_set(p)
    p.set_defaults(run=run_hand)


def read_cards(texts, where=None):
    """The NOTE cards typed, each checked: a bad one is named by its place."""
    notes = []
    for k, text in enumerate(texts, 1):
        try:
            notes.append(parse_note(text))
        except NoteError as err:
            raise UserError("%sNOTE card %d of %d (%r): %s" % (
                where + ": " if where else "", k, len(texts), text, err)) from err
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


def read_table(meldset, texts):
    """The --table melds as (seat, rank, pcs): another player's (seat 1), each checked."""
    from core.games.carmony_table import set_rank
    table = []
    for k, text in enumerate(texts):
        ident, sep, notes = text.partition(":")
        where = "--table %d (%r)" % (k, text)
        if not sep or not notes:
            raise UserError("%s: expected ID:NOTE,NOTE,... such as maj:C,E,G" % where)
        try:
            index = find(meldset, ident)
        except KeyError as err:
            raise UserError("%s: %s" % (where, err.args[0])) from err
        cards = [note_pc(n) for n in read_cards(notes.split(","), where)]
        result = check(meldset.meld(index), cards)
        if not result.valid:
            raise UserError("%s: not a valid %s: %s" % (where, meldset.meld_name(index),
                                                        result.reason))
        table.append((1, set_rank(meldset, index), cards))
    return table


def best_data(meldset, search, counts, held):
    best = {}
    for kind in range(3):
        points, plays = search.best(counts, kind, held)
        best[KIND_PLURALS[kind]] = {"melds": [play_data(meldset, p) for p in plays],
                                    "points": points}
    return best


def eats_data(meldset, search, counts, held, table):
    """Each eat the MELD cards held allow: the table meld (its --table's place), the card, the
    NOTE cards gained, the best turn of each type the hand then has (from the cards held less
    the one that ate)."""
    out = []
    for t, k in eats(meldset, held, table, 0):
        gain = table[t][2]
        out.append({"table": t, "with": meldset.meld_id(held[k]), "gain": gain,
                    "best": best_data(meldset, search, joined(counts, gain), without(held, k))})
    return out


def run_hand(args):
    ms = load_set(args.set_path)
    notes = read_cards(args.notes)
    held = read_meld_cards(ms, args.melds) if args.melds is not None else None
    table = read_table(ms, args.table)
    if table and held is None:
        raise UserError("--table: which meld a MELD card eats needs the MELD cards held "
                        "(--melds)")
    search = HandSearch(ms)
    counts = counts_of([note_pc(n) for n in notes])
    listed = distinct(search, search.listed(search.expand(counts, held)))
    melds = [play_data(ms, search.play(code)) for code in listed]
    best = best_data(ms, search, counts, held)
    data = {"cards": [format_note(n) for n in notes], "melds": melds, "best": best}
    if args.table:
        data["eats"] = eats_data(ms, search, counts, held, table)
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
    for eat in data.get("eats", ()):
        kind = max(KIND_PLURALS, key=lambda k: eat["best"][k]["points"])
        then = eat["best"][kind]
        lines.append("eat --table %d (%s) with %s: gain %s; then best %s" % (
            eat["table"], args.table[eat["table"]], eat["with"],
            " ".join(format_note(pc_names(pc)[0]) for pc in eat["gain"]),
            "%s %d: %s" % (kind, then["points"], " + ".join(play_line(m) for m in then["melds"]))
            if then["melds"] else "nothing to play"))
    if "eats" in data and not data["eats"]:
        lines.append("eat: no MELD card held is stronger than a meld on the table")
    emit(args, data, lines)
