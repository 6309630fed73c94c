"""The options several commands share, each added only to the commands that use it."""

SET_HELP = ("the meld set: a shipped set's name (default, jazz, modes) or a file, JSON source "
            "or compiled .cwm (default: the default set)")


def add_set(parser, help=SET_HELP):
    parser.add_argument("--set", metavar="NAME|FILE", dest="set_path", help=help)


def add_settings(parser):
    parser.add_argument("--settings", metavar="JSON", type=settings_option,
                        help="with --script: settings the board starts with, e.g. "
                        "'{\"midi\": \"both\", \"mode\": \"listen\"}' (the keys of "
                        "settings.json, docs/using.md)")


def settings_option(text):
    """--settings JSON -> a dict of settings, each key and value checked as the firmware
    checks settings.json (a value it would drop is an error here, not a silent default)."""
    import json

    from firmware import settings as firmware_settings
    from host_tools.errors import UserError
    try:
        values = json.loads(text)
    except ValueError as err:
        raise UserError("--settings: not JSON (%s)" % err) from err
    if not isinstance(values, dict):
        raise UserError("--settings: expected a JSON object such as '{\"midi\": \"in\"}'")
    known = firmware_settings.defaults()
    for key in values:
        if key not in known:
            raise UserError("--settings: no setting %r (settings: %s)" % (
                key, ", ".join(sorted(known))))
    problems = firmware_settings.Settings(_OneRecord(json.dumps(values))).load().problems
    if "mode" in values and not problems:
        # The firmware falls back to the first mode for a name it does not know; asked for
        # on the command line, an unknown mode is a mistake to name, not to run around.
        from firmware.modes import mode_names
        if values["mode"] not in mode_names():
            problems = ["mode %r: no such mode (modes: %s)" % (
                values["mode"], ", ".join(mode_names()))]
    if problems:
        raise UserError("--settings: " + "; ".join(p.replace(", using the default", "")
                                                   for p in problems))
    return values


class _OneRecord:
    """A record store holding the settings under test (firmware/records.py's interface)."""

    def __init__(self, text):
        self._text = text

    def read(self, name):
        return self._text.encode()


def add_board(parser, help_text, default=None):
    parser.add_argument("--board", metavar="NAME|FILE", default=default,
                        help=help_text + ": a shipped board's name (chromawheel board list) or "
                        "a board file's path" + (" (default: %s)" % default if default else ""))
