"""User settings: read with every field checked (a bad value means its default, a bad file
means all defaults, never a failed boot), saved only after the knob has been still for a while
(flash wears out), atomically."""

import json

from firmware import storage

SETTINGS_PATH = "settings.json"
SAVE_AFTER_MS = 5000
BRIGHTNESS_LEVELS = (8, 16, 32, 64, 96, 128, 192, 255)

# name: (default, check)
_FIELDS = {
    "mode": ("explorer", lambda v: isinstance(v, str) and 0 < len(v) <= 24),
    "meldset": ("default", lambda v: isinstance(v, str) and 0 < len(v) <= 24),
    "last_good_meldset": ("default", lambda v: isinstance(v, str) and 0 < len(v) <= 24),
    "brightness": (64, lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 255),
    "colours": ("kind", lambda v: v in ("kind", "note")),
    "other_root_name": (False, lambda v: isinstance(v, bool)),
    "kind": (1, lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 2),
    "melds": ([0, 1, 0], lambda v: isinstance(v, list) and len(v) == 3 and all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 256 for i in v)),
    "root": (0, lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 11),
}


def defaults():
    values = {}
    for name in _FIELDS:
        default = _FIELDS[name][0]
        values[name] = list(default) if isinstance(default, list) else default
    return values


class Settings:
    def __init__(self, path=SETTINGS_PATH):
        self.path = path
        self.values = defaults()
        self.problems = []
        self._dirty_since = None

    def load(self):
        """Read the file; every field that is missing or bad keeps its default."""
        raw = storage.read_recovering(self.path)
        if raw is None:
            return self
        try:
            data = json.loads(raw)
        except ValueError:
            self.problems.append("settings file unreadable: using defaults")
            return self
        if not isinstance(data, dict):
            self.problems.append("settings file is not an object: using defaults")
            return self
        for name in _FIELDS:
            if name in data:
                if _FIELDS[name][1](data[name]):
                    self.values[name] = data[name]
                else:
                    self.problems.append("setting %s: bad value, using the default" % name)
        return self

    def __getitem__(self, name):
        return self.values[name]

    def set(self, name, value, now):
        if self.values[name] != value:
            self.values[name] = value
            self._dirty_since = now

    def touch(self, now):
        """Input happened: postpone the save (only matters while there is something to save)."""
        if self._dirty_since is not None:
            self._dirty_since = now

    @property
    def dirty(self):
        return self._dirty_since is not None

    def save_due(self, now, ticks_diff):
        return self._dirty_since is not None and ticks_diff(now, self._dirty_since) >= SAVE_AFTER_MS

    def save(self):
        storage.write_atomic(self.path, json.dumps(self.values).encode())
        self._dirty_since = None
