"""The `chromawheel` command line.

Every command takes --json; the commands that use a meld set take --set (a shipped set's name or
a file), those that use a board file take --board (a shipped board's name or a file).
Exit status: 0 on success; 2 on bad input, with one `error: ...` line per problem on stderr;
never a Python traceback (set CHROMAWHEEL_DEBUG=1 to see one for an internal error).
"""

import argparse
import os
import sys

from core.meldset import MeldSetError
from core.parse import DegreeError, NoteError
from hardware.board import BoardError

from host_tools import __version__
from host_tools.cli import (
    board,
    bringup,
    device,
    emulate,
    hand,
    meldset,
    music,
    play,
    score,
    sim,
    web,
)
from host_tools.errors import UserError

COMMAND_MODULES = (music, hand, play, score, meldset, board, bringup, sim, device, emulate,
                   web)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is a one-line UserError like any other bad input."""

    def error(self, message):
        raise UserError("%s (see '%s --help')" % (message, self.prog))


def build_parser():
    parser = Parser(prog="chromawheel",
                    description="ChromaWheel: melds on the chromatic wheel, from the laptop.")
    parser.add_argument("--version", action="version", version="chromawheel %s" % __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    common = Parser(add_help=False)
    common.add_argument("--json", action="store_true", help="machine-readable output")
    for module in COMMAND_MODULES:
        module.register(commands, common)
    return parser


def main(argv=None):
    try:
        args = build_parser().parse_args(argv)
        return args.run(args) or 0
    except (UserError, MeldSetError, NoteError, DegreeError, BoardError) as err:
        lines = str(err).splitlines() or [type(err).__name__]
        for line in lines:
            sys.stderr.write("error: %s\n" % line)
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as err:
        if os.environ.get("CHROMAWHEEL_DEBUG"):
            raise
        sys.stderr.write("error: internal error (%s: %s); please report it, with "
                         "CHROMAWHEEL_DEBUG=1 for details\n" % (type(err).__name__, err))
        return 1


if __name__ == "__main__":
    sys.exit(main())
