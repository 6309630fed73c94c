"""Music commands: melds, show, identify, check."""

from core import degrees
from core.check import check
from core.identify import Identifier
from core.meldset import KINDS, kind_index
from core.notes import format_note, note_pc
from core.parse import SymbolError, parse_note, suggestions
from core.parse import find_meld as read_meld
from core.spelling import other_name, spell

from host_tools.cli.options import add_set
from host_tools.cli.output import emit
from host_tools.errors import UserError
from host_tools.set_files import load_set


def register(commands, common):
    p = commands.add_parser("melds", parents=[common], help="list the melds of a set")
    p.add_argument("--kind", choices=KINDS, help="only this kind")
    add_set(p)
    p.set_defaults(run=run_melds)

    p = commands.add_parser("show", parents=[common], help="a meld at a root")
    p.add_argument("meld", nargs="+", metavar="MELD",
                   help="meld id, name or chord symbol, e.g. min7, minor triad, Cmaj7, F#m7b5")
    p.add_argument("--root", help="root note, e.g. C, Eb, F# (not needed when MELD is a chord "
                                  "symbol with its root)")
    p.add_argument("--other-name", action="store_true",
                   help="the enharmonic toggle: spell the root with its other name")
    p.add_argument("--unicode", action="store_true", help="show \u266f \u266d in text output")
    add_set(p)
    p.set_defaults(run=run_show)

    p = commands.add_parser("identify", parents=[common],
                            help="every meld a set of NOTE cards builds")
    p.add_argument("notes", nargs="+", metavar="NOTE")
    p.add_argument("--near", action="store_true",
                   help="with --json: list the readings one more card completes instead")
    add_set(p)
    p.set_defaults(run=run_identify)

    p = commands.add_parser("check", parents=[common], help="do these NOTE cards build a meld?")
    p.add_argument("meld", help="meld id, name or chord symbol (C7: insist on root C)")
    p.add_argument("notes", nargs="+", metavar="NOTE")
    p.add_argument("--root", help="insist on this root (default: any)")
    add_set(p)
    p.set_defaults(run=run_check)


def find_meld(meldset, text, set_path=None):
    """(index, root) of a meld as typed: an id or name (root None) or a chord symbol such as
    Cmaj7 (core.parse.find_meld). Nothing found: the error suggests up to three names."""
    try:
        index, root = read_meld(meldset, text)
    except KeyError as err:
        raise UserError(err.args[0]) from None
    except SymbolError as err:
        raise UserError(str(err)) from None
    if index < 0:
        near = suggestions(meldset, text)
        raise UserError("no meld %r in meld set %r%s (chromawheel melds%s lists them all)" % (
            text, meldset.name, "; did you mean: %s?" % ", ".join(near) if near else "",
            " --set " + set_path if set_path else ""))
    return index, root


def meld_and_root(args, meldset, text):
    """The meld and the root to use: the chord symbol's root or --root (both: they must
    agree), or None when neither gives one."""
    index, root = find_meld(meldset, text, args.set_path)
    given = parse_note(args.root) if args.root else None
    if root is not None and given is not None and given != root:
        raise UserError("%r has the root %s but --root is %s: give one root" % (
            text, format_note(root), format_note(given)))
    return meldset.meld(index), given if root is None else root


def parse_notes(texts):
    return [parse_note(t) for t in texts]


def degree_label(code):
    text = degrees.to_text(code)
    return "(%s)" % text if degrees.is_optional(code) else text


def run_melds(args):
    ms = load_set(args.set_path)
    wanted = kind_index(args.kind) if args.kind else None
    rows = []
    for i in range(ms.count):
        if wanted is not None and ms.kind(i) != wanted:
            continue
        meld = ms.meld(i)
        rows.append({"id": meld.id, "name": meld.name, "kind": meld.kind,
                     "degrees": [degree_label(c) for c in meld.codes],
                     "cards": [meld.min_cards, meld.max_cards],
                     "shapes": meld.distinct_roots()})
    lines = ["%-16s %-9s %-6s %-7s %-26s %s" % ("id", "kind", "cards", "shapes", "degrees",
                                                  "name")]
    for row in rows:
        low, high = row["cards"]
        cards = str(low) if low == high else "%d-%d" % (low, high)
        lines.append("%-16s %-9s %-6s %-7d %-26s %s" % (
            row["id"], row["kind"], cards, row["shapes"], " ".join(row["degrees"]), row["name"]))
    lines.append("%d melds in set '%s'" % (len(rows), ms.name))
    emit(args, rows, lines)


def run_show(args):
    ms = load_set(args.set_path)
    text = " ".join(args.meld)
    meld, root = meld_and_root(args, ms, text)
    if root is None:
        raise UserError("%r names no root: give --root NOTE, or a chord symbol with its root "
                        "such as Cmaj7" % text)
    if args.other_name:
        root = other_name(root)
    notes = meld.notes(root)
    positions = []
    for code, note in zip(meld.codes, notes):
        positions.append({"degree": degrees.to_text(code), "note": format_note(note),
                          "pc": note_pc(note), "optional": degrees.is_optional(code)})
    data = {"id": meld.id, "name": meld.name, "kind": meld.kind, "root": format_note(root),
            "positions": positions}
    shown = [format_note(n, args.unicode) for n in notes]
    lines = ["%s %s (%s): %s" % (format_note(root, args.unicode), meld.name, meld.id,
                                 " ".join(shown))]
    for code, name in zip(meld.codes, shown):
        lines.append(("  %-5s %-4s%s" % (degrees.to_text(code), name, "  optional"
                                           if degrees.is_optional(code) else "")).rstrip())
    emit(args, data, lines)


def reading_name(meld, root):
    return "%s %s (%s)" % (format_note(root), meld.name, meld.id)


def run_identify(args):
    ms = load_set(args.set_path)
    cards = [note_pc(n) for n in parse_notes(args.notes)]
    identifier = Identifier(ms)
    exact = []
    lines = []
    for i, root_pc in identifier.exact(cards):
        meld = ms.meld(i)
        root = meld.root_name(root_pc)
        used = [degrees.to_text(c) for c in check(meld, cards, root).optional_used]
        exact.append({"id": meld.id, "name": meld.name, "kind": meld.kind,
                      "root": format_note(root), "optional_used": used})
        lines.append("  %s%s" % (reading_name(meld, root),
                                 ", optional %s" % " ".join(used) if used else ""))
    near = []
    near_lines = []
    for i, root_pc, missing in identifier.near(cards):
        meld = ms.meld(i)
        root = meld.root_name(root_pc)
        missing_name = _missing_note(meld, root, missing, cards)
        near.append({"id": meld.id, "name": meld.name, "kind": meld.kind,
                     "root": format_note(root), "missing": missing_name})
        near_lines.append("  + %-4s %s" % (missing_name, reading_name(meld, root)))
    text = ["%s: %s" % (" ".join(format_note(n) for n in parse_notes(args.notes)),
                        "%d reading%s" % (len(exact), "" if len(exact) == 1 else "s"))]
    text += lines
    if near_lines:
        text.append("one more card completes:")
        text += near_lines
    emit(args, near if args.near else exact, text)


def _missing_note(meld, root, missing_pc, cards):
    """The name of the card that completes the reading, spelled by the degree it fills."""
    for pc, code in check(meld, cards + [missing_pc], root).placed:
        if pc == missing_pc and code is not None:
            return format_note(spell(root, code))
    raise AssertionError("a near reading always places its missing card")


def run_check(args):
    ms = load_set(args.set_path)
    meld, root = meld_and_root(args, ms, args.meld)
    typed = parse_notes(args.notes)
    result = check(meld, [note_pc(n) for n in typed], root)
    cards = []
    for note, (pc, code) in zip(typed, result.placed):
        spelled = format_note(spell(result.root, code)) if code is not None else None
        cards.append({"card": format_note(note), "pc": pc, "note": spelled,
                      "degree": degrees.to_text(code) if code is not None else None,
                      "optional": bool(code is not None and degrees.is_optional(code))})
    data = {"valid": result.valid, "reason": result.reason, "root": format_note(result.root),
            "roots": [format_note(meld.root_name(pc)) for pc in result.roots],
            "cards": cards, "optional_used": [degrees.to_text(c) for c in result.optional_used],
            "points": result.points}
    head = reading_name(meld, result.root)
    if result.valid:
        lines = ["valid: %s, %d cards, %d points" % (head, len(cards), result.points)]
    else:
        lines = ["not valid: %s: %s" % (head, result.reason)]
    for card in cards:
        if card["degree"]:
            lines.append("  %-4s -> %-5s %s%s" % (card["card"], card["degree"], card["note"],
                                                  "  optional" if card["optional"] else ""))
        else:
            lines.append("  %-4s -> no position" % card["card"])
    emit(args, data, lines)
