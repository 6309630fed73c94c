"""The settings record read and checked (firmware/settings.py's fields): a bad value means its
default, a bad record all defaults, never a failed boot. Used at start only (Settings.load
drops this module once read: a small board's heap)."""

import json

from firmware.settings import _FIELDS, is_set_name


def take(raw, values, problems):
    """The good fields of record `raw` (bytes) into `values`; a line in `problems` for each
    bad one, or for a record that is not a JSON object."""
    try:
        data = json.loads(raw)
    except ValueError:
        problems.append("settings file unreadable: using defaults")
        return
    if not isinstance(data, dict):
        problems.append("settings file is not an object: using defaults")
        return
    for field in _FIELDS:
        name = field[0]
        if name in data:
            if _good(data[name], field):
                values[name] = data[name]
            else:
                problems.append("setting %s: bad value, using the default" % name)


def _is_int(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _good(value, field):
    kind = field[2]
    if value is None:
        return field[1] is None                 # a setting that may be none (the seat)
    if isinstance(field[1], tuple):
        return (isinstance(value, list) and len(value) == len(field[1])
                and not [v for v in value if not _is_int(v, field[3], field[4])])
    if kind == "int":
        return _is_int(value, field[3], field[4])
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "name":
        return is_set_name(value)
    return value in kind
