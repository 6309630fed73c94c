"""The options several commands share, each added only to the commands that use it."""

SET_HELP = ("the meld set: a shipped set's name (default, jazz, modes) or a file, JSON source "
            "or compiled .cwm (default: the default set)")


def add_set(parser, help=SET_HELP):
    parser.add_argument("--set", metavar="NAME|FILE", dest="set_path", help=help)


def add_board(parser, help_text, default=None):
    parser.add_argument("--board", metavar="NAME|FILE", default=default,
                        help=help_text + ": a shipped board's name (chromawheel board list) or "
                        "a board file's path" + (" (default: %s)" % default if default else ""))
