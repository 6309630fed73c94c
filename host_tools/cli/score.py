"""`chromawheel score GAME ...`: count a round at the table, with the rulebook's tables."""

from core import degrees
from core.check import check
from core.games import ScoreError, carmony, carmony_table, chord_poker_table, looking_glass
from core.melds import find
from core.notes import format_note, note_pc, pc_names
from core.parse import parse_note

from host_tools.cli.options import add_set
from host_tools.cli.output import emit
from host_tools.errors import UserError
from host_tools.set_files import load_set


def register(commands, common):
    p = commands.add_parser("score", help="count a round: carmony, looking-glass, chord-poker, "
                                          "keys-corners, colour-map")
    games = p.add_subparsers(dest="game", metavar="GAME")
    games.required = True

    g = games.add_parser("carmony", parents=[common], help="Carmony, the original")
    g.add_argument("--meld", action="append", default=[], metavar="ID:NOTE,NOTE,...",
                   help="a meld on the table and its NOTE cards (repeat for each meld)")
    g.add_argument("--unplayed", type=int, default=0, metavar="N",
                   help="NOTE cards left in hand")
    g.add_argument("--went-out", action="store_true", help="this player went out")
    add_set(g)
    g.set_defaults(run=run_carmony)

    g = games.add_parser("looking-glass", parents=[common], help="Through the Looking Glass")
    g.add_argument("--interval", action="append", default=[], metavar="NAME",
                   help="an INTERVAL card won, e.g. P8, TT, m3 (repeat for each card)")
    g.add_argument("--alices", type=int, default=0, metavar="N", help="A cards won")
    g.add_argument("--rabbits", type=int, default=0, metavar="N", help="rabbit's runs")
    add_set(g)
    g.set_defaults(run=run_looking_glass)

    g = games.add_parser("chord-poker", parents=[common], help="Chord Poker")
    g.add_argument("--hand", nargs="+", default=[], metavar="NOTE",
                   help="the NOTE cards in hand at the end of the round")
    g.add_argument("--completed", action="store_true", help="this player completed the chord")
    g.set_defaults(run=run_chord_poker)

    g = games.add_parser("keys-corners", parents=[common], help="Musicards, Key's Corners")
    g.add_argument("--scales", type=int, default=0, metavar="N", help="completed scales won")
    g.add_argument("--stacks", type=int, default=0, metavar="N",
                   help="non-scale stacks of four won")
    g.set_defaults(run=run_keys_corners)

    g = games.add_parser("colour-map", parents=[common], help="the colour-map pairs game")
    g.add_argument("--hand", nargs="*", default=[], metavar="COLOUR:NUMBER",
                   help="the cards left in hand, e.g. red:7 purple:2")
    g.add_argument("--deck-file", metavar="PATH", help="another deck (JSON)")
    g.set_defaults(run=run_colour_map)


def _show(args, data, lines, total):
    emit(args, data, ["  %-34s %+5d" % (label, points) for label, points in lines]
         + ["  %-34s %5d" % ("total", total)])


def run_carmony(args):
    """One player's round, written on a score pad of The Original (core/scorepad.py, the
    wheel's): its melds, cards left and going out, with the pad's rules, and the pad's total."""
    from core.games.carmony_table import set_rank
    from core.scorepad import CARDS_LEFT_ITEM, WENT_OUT_ITEM, ScorePad, ScorePadError
    ms = load_set(args.set_path)
    if args.unplayed < 0:
        raise UserError("--unplayed %d: cannot be negative" % args.unplayed)
    if args.went_out and args.unplayed:
        raise UserError("--went-out with %d cards left: going out means no cards in hand"
                        % args.unplayed)
    pad = ScorePad("original", 2, dealer=1)          # seat 0, the player counted, plays first
    melds = []
    lines = []
    on_table = []
    for text in args.meld:
        ident, sep, notes = text.partition(":")
        if not sep or not notes:
            raise UserError("--meld %r: expected ID:NOTE,NOTE,... such as maj:C,E,G" % text)
        try:
            index = find(ms, ident)
        except KeyError as err:
            raise UserError("--meld %r: %s" % (text, err.args[0])) from err
        meld = ms.meld(index)
        cards = [note_pc(parse_note(n)) for n in notes.split(",")]
        result = check(meld, cards)
        if not result.valid:
            raise UserError("--meld %r: not a valid %s: %s" % (text, meld.name, result.reason))
        root = format_note(result.root)
        melds.append({"id": meld.id, "root": root, "cards": len(cards), "points": result.points})
        lines.append(("%s %s (%d cards)" % (root, meld.name, len(cards)), result.points))
        on_table.append((index, cards))
        pad.meld(meld.id, note_pc(result.root), set_rank(ms, index), cards, result.points)
    problems = carmony.table_problems(ms, on_table, args.unplayed)
    if problems:
        raise UserError("\n".join(problems))
    if args.unplayed:
        lines.append(("%d unplayed NOTE cards" % args.unplayed,
                      carmony_table.UNPLAYED_CARD_POINTS * args.unplayed))
        pad.add(CARDS_LEFT_ITEM, args.unplayed)
    if args.went_out:
        try:
            pad.add(WENT_OUT_ITEM)
        except ScorePadError as err:
            raise UserError("--went-out: %s" % str(err).split(": ", 1)[-1]) from err
        lines.append(("went out", carmony_table.GOING_OUT_POINTS))
    total = pad.totals()[0]
    _show(args, {"melds": melds, "unplayed": args.unplayed, "went_out": args.went_out,
                 "lines": [{"label": label, "points": p} for label, p in lines], "total": total},
          lines, total)


def run_looking_glass(args):
    ms = load_set(args.set_path)
    semitones = []
    for name in args.interval:
        try:
            meld = ms.meld(find(ms, name))
        except KeyError as err:
            raise UserError("--interval %r: %s" % (name, err.args[0])) from err
        if meld.kind != "interval":
            raise UserError("--interval %r: %s is a %s, not an interval" % (name, meld.name,
                                                                            meld.kind))
        semitones.append(degrees.semitones(meld.codes[1]))
    try:
        total, lines = looking_glass.score(semitones, args.alices, args.rabbits)
    except ScoreError as err:
        raise UserError(str(err)) from err
    names = {}
    for i in ms.of_kind(0):
        names[degrees.semitones(ms.meld_codes(i)[1])] = ms.meld_name(i)
    readable = [(_interval_label(label, names), points) for label, points in lines]
    _show(args, {"intervals": args.interval, "alices": args.alices, "rabbits": args.rabbits,
                 "lines": [{"label": label, "points": p} for label, p in readable], "total": total},
          readable, total)


def _interval_label(label, names):
    words = label.split()
    if "interval" in words:
        at = words.index("interval") + 1
        semitones = int(words[at])
        words[at - 1:at + 1] = [names.get(semitones, "interval %d" % semitones)]
    return " ".join(words)


def run_chord_poker(args):
    cards = [note_pc(parse_note(n)) for n in args.hand]
    try:
        total, groups = chord_poker_table.score(cards, args.completed)
    except ScoreError as err:
        raise UserError(str(err)) from err
    lines = []
    for pc, what, points in groups:
        note = "/".join(format_note(n) for n in pc_names(pc)) if pc is not None else ""
        lines.append((("%s %s" % (what, note)).strip(), points))
    _show(args, {"groups": [{"note": label, "points": p} for label, p in lines], "total": total},
          lines, total)


def run_keys_corners(args):
    from core.games import keys_corners
    for flag, value in (("--scales", args.scales), ("--stacks", args.stacks)):
        if value < 0:
            raise UserError("%s %d: cannot be negative" % (flag, value))
    total, lines = keys_corners.score(args.scales, args.stacks)
    _show(args, {"game": "keys-corners", "lines": lines, "total": total}, lines, total)


def run_colour_map(args):
    from core.games import colour_map

    from host_tools.set_files import read_source
    try:
        if args.deck_file:
            colours, _, deck = colour_map.load_deck(read_source(args.deck_file), args.deck_file)
        else:
            colours, _, deck = colour_map.default_deck()
    except colour_map.DeckError as err:
        raise UserError(str(err)) from err
    lines = []
    left = list(deck)
    for k, text in enumerate(args.hand, 1):
        colour, sep, number = text.partition(":")
        if not sep or colour.lower() not in colours or not number.isdigit():
            raise UserError("--hand card %d %r: expected COLOUR:NUMBER with a colour of the "
                            "deck (%s)" % (k, text, ", ".join(colours)))
        wanted = (colours.index(colour.lower()), int(number))
        found = [card for card in left if card[:2] == wanted]
        if not found:
            raise UserError("--hand card %d %r: not in the deck, or more copies than it has"
                            % (k, text))
        left.remove(found[0])
        notes = found[0][2]
        lines.append(("%s %d (%d note%s)" % (colours[wanted[0]], wanted[1], notes,
                                             "" if notes == 1 else "s"), -notes))
    total = sum(points for _, points in lines)
    _show(args, {"game": "colour-map", "lines": lines, "total": total}, lines, total)
