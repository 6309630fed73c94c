"""`chromawheel meldset ...`: validate and compile meld-set files."""

import os

from core.meldset import MeldSet, MeldSetError

from host_tools.cli.output import emit
from host_tools.device import sets
from host_tools.errors import UserError
from host_tools.set_files import (
    COMPILED_SUFFIX,
    compile_file,
    read_source,
    set_source,
    write_atomic,
)


def register(commands, common):
    p = commands.add_parser("meldset", help="validate, compile, flash, list and remove meld sets")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    a = actions.add_parser("validate", parents=[common], help="check a JSON meld-set source")
    a.add_argument("path", metavar="FILE|NAME", help="a JSON source, or a shipped set's name")
    a.set_defaults(run=run_validate)

    a = actions.add_parser("compile", parents=[common],
                           help="compile a JSON source to the compact device form")
    a.add_argument("path", metavar="FILE|NAME", help="a JSON source, or a shipped set's name")
    a.add_argument("-o", "--output", metavar="OUT",
                   help="compiled file to write (default: PATH with %s)" % COMPILED_SUFFIX)
    a.set_defaults(run=run_compile)

    a = actions.add_parser("flash", parents=[common],
                           help="validate, compile and install a set on a device, and use it")
    a.add_argument("path", metavar="FILE|NAME", help="a JSON source, or a shipped set's name")
    _where(a)
    a.set_defaults(run=run_flash)

    a = actions.add_parser("cards", parents=[common],
                           help="the set as round MELD cards to print (PDF)")
    a.add_argument("path", metavar="FILE|NAME", help="a JSON source, or a shipped set's name")
    a.add_argument("-o", "--output", metavar="FILE.pdf", required=True, help="the PDF to write")
    a.add_argument("--paper", choices=("a4", "letter"), default="a4", help="default: a4")
    a.add_argument("--per-page", type=int, choices=(6, 8), default=6,
                   help="cards a page (default: 6)")
    a.add_argument("--site", metavar="URL",
                   help="the page's address (https://OWNER.github.io/REPOSITORY/): a last "
                        "page with the set's share link as a QR code")
    a.set_defaults(run=run_cards)

    a = actions.add_parser("list", parents=[common], help="the sets on a device")
    _where(a)
    a.set_defaults(run=run_list)

    a = actions.add_parser("remove", parents=[common], help="remove a set from a device")
    a.add_argument("name")
    _where(a)
    a.set_defaults(run=run_remove)


def _where(parser):
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="serial port of a MicroPython board")
    where.add_argument("--drive", metavar="PATH",
                       help="the mounted CIRCUITPY drive of a CircuitPython board")


def _target(args):
    """The board: --port (its serial REPL) or --drive (its mounted drive)."""
    from host_tools.device.target import DriveTarget, SerialTarget
    return DriveTarget(args.drive) if args.drive else SerialTarget(args.port)


def _count(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _summary(ms):
    """'5 melds (1 interval, 3 chords, 1 scale)' (the page's studio says it the same way)."""
    counts = [len(ms.of_kind(k)) for k in range(3)]
    return "%s (%s, %s, %s)" % (_count(ms.count, "meld"), _count(counts[0], "interval"),
                               _count(counts[1], "chord"), _count(counts[2], "scale"))


def run_validate(args):
    try:
        blob = compile_file(set_source(args.path))
    except MeldSetError as err:
        if args.json:
            emit(args, {"path": args.path, "valid": False,
                        "problems": [{"where": w, "what": m} for w, m in err.problems]}, [])
            return 2
        raise
    ms = MeldSet(blob, args.path)
    emit(args, {"path": args.path, "valid": True, "problems": [], "name": ms.name,
                "melds": ms.count, "bytes": len(blob)},
         ["%s: valid meld set '%s': %s, %d bytes compiled" % (
             args.path, ms.name, _summary(ms), len(blob))])
    return 0


def run_compile(args):
    source = set_source(args.path)
    blob = compile_file(source)
    MeldSet(blob, source)  # the compiled form must load before it is written
    # Beside the source; a shipped set's compiled copy goes to the current folder.
    out = args.output or os.path.splitext(args.path if source == args.path
                                          else os.path.basename(source))[0] + COMPILED_SUFFIX
    write_atomic(out, blob)
    emit(args, {"path": args.path, "output": out, "bytes": len(blob)},
         ["wrote %s (%d bytes)" % (out, len(blob))])
    return 0


def run_cards(args):
    from host_tools import cards
    from host_tools.set_files import load_set
    ms = load_set(args.path)
    pages = cards.pages(ms, args.paper, args.per_page)
    if args.site:
        if not args.site.startswith(("https://", "http://")):
            raise UserError("--site %s: the page's address, such as "
                            "https://OWNER.github.io/REPOSITORY/" % args.site)
        source = read_source(set_source(args.path))
        pages.append(cards.share_page(source.get("title") or ms.name,
                                      cards.share_link(source, args.site), args.paper))
    write_atomic(args.output, cards.pdf(pages, args.paper, "%s: MELD cards" % ms.name))
    emit(args, {"path": args.path, "output": args.output, "melds": ms.count,
                "pages": len(pages), "paper": args.paper, "per_page": args.per_page},
         ["wrote %s: %d cards on %d %s pages%s (print at 100%%, cut round each circle)" % (
             args.output, ms.count, len(pages) - bool(args.site),
             args.paper.upper() if args.paper == "a4" else "Letter",
             " and a page with the set's QR code" if args.site else "")])
    return 0


def run_flash(args):
    with _target(args) as target:
        report = sets.flash(target, args.path,
                            progress=(lambda line: None) if args.json else print)
    emit(args, report, ["flashed %s (%d melds, %d bytes) in %.1f s" % (
        report["name"], report["melds"], report["bytes"], report["seconds"])])
    return 0


def run_list(args):
    with _target(args) as target:
        answer = sets.list_sets(target)
    lines = []
    for name, count, problem in answer["sets"]:
        mark = "*" if name == answer["active"] else " "
        lines.append("%s %-24s %s" % (mark, name, problem or "%d melds" % count))
    emit(args, answer, lines)
    return 0


def run_remove(args):
    with _target(args) as target:
        sets.remove(target, args.name)
    emit(args, {"removed": args.name}, ["removed %s" % args.name])
    return 0
