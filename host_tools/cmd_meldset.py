"""`chromawheel meldset ...`: validate and compile meld-set files."""

import os

from core.meldset import MeldSet, MeldSetError

from host_tools.meldfiles import COMPILED_SUFFIX, compile_file, write_atomic
from host_tools.output import emit


def register(commands, common):
    p = commands.add_parser("meldset", help="validate, compile (and later flash) meld sets")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    a = actions.add_parser("validate", parents=[common], help="check a JSON meld-set source")
    a.add_argument("path")
    a.set_defaults(run=run_validate)

    a = actions.add_parser("compile", parents=[common],
                           help="compile a JSON source to the compact device form")
    a.add_argument("path")
    a.add_argument("-o", "--output", metavar="OUT",
                   help="compiled file to write (default: PATH with %s)" % COMPILED_SUFFIX)
    a.set_defaults(run=run_compile)


def _summary(ms):
    counts = [len(ms.of_kind(k)) for k in range(3)]
    return "%d melds (%d intervals, %d chords, %d scales)" % (ms.count, *counts)


def run_validate(args):
    try:
        blob = compile_file(args.path)
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
    blob = compile_file(args.path)
    MeldSet(blob, args.path)  # the compiled form must load before it is written
    out = args.output or os.path.splitext(args.path)[0] + COMPILED_SUFFIX
    write_atomic(out, blob)
    emit(args, {"path": args.path, "output": out, "bytes": len(blob)},
         ["wrote %s (%d bytes)" % (out, len(blob))])
    return 0
