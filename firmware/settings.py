"""User settings: read with every field checked (a bad value means its default, a bad file
means all defaults, never a failed boot), saved only after the knob has been still for a while
(flash wears out), in the board's record store (firmware/records.py)."""

import json
import sys

from core.meldset import MAX_SET_NAME

from firmware.records import DEFAULT_SET

SETTINGS_PATH = "settings.json"
SAVE_AFTER_MS = 5000
# After a failed save (full or read-only flash) the next try waits twice as long, up to this.
RETRY_MAX_MS = 600000
BRIGHTNESS_LEVELS = (8, 16, 32, 64, 96, 128, 192, 255)
VOLUMES = ("off", "soft", "medium", "loud")          # the volume setting is an index here
MIDI_DIRECTIONS = ("off", "out", "in", "both")       # MIDI: nothing, send, listen, both
MIDI_PORTS = ("usb", "jacks", "both")                # which MIDI ports they go on
LINK_PORTS = ("off", "jacks", "usb", "both")         # the table link's ports (firmware/link.py)

# (name, default, kind[, low, high]); kind: "int", "bool", "name" or a tuple of choices.
# One table and one checker: a function per field would cost RAM on a small board.
_FIELDS = (
    ("mode", "explorer", "name"),
    ("meldset", DEFAULT_SET, "name"),
    ("last_good_meldset", DEFAULT_SET, "name"),
    ("brightness", 64, "int", 1, 255),
    ("colours", "kind", ("kind", "note", "safe")),    # safe: kind colours for colour-blind eyes
    ("other_root_name", False, "bool"),
    ("private", False, "bool"),               # a private hand: the ring shows the cursor alone
    ("kind", 1, "int", 0, 2),
    ("melds", (0, 1, 0), "int", 0, 255),      # a cursor per kind: three ints
    ("root", 0, "int", 0, 11),
    ("volume", 2, "int", 0, 3),               # the buzzer: off, soft, medium, loud
    ("midi", "off", MIDI_DIRECTIONS),         # chord out, listen (firmware/midi.py) ...
    ("midi_port", "usb", MIDI_PORTS),         # ... over USB MIDI, the jacks, or both
    ("midi_octave", 4, "int", 0, 8),          # the octave a played meld's root sounds in
    ("midi_optional", False, "bool"),         # a played meld's optional notes too
    ("midi_split", 128, "int", 0, 128),       # notes from here up are melody (128: none)
    ("seat", None, "int", 1, 4),              # the wheel's seat at the table, P1-P4 (None: shared)
    ("link", "off", LINK_PORTS),              # the table link between wheels, and its ports
    ("score_entry", 0, "int", 0, 40),         # the score mode's entry selected
)


def is_set_name(value):
    """Could `value` be a "name" setting (the meldset's, the mode's: 1 to MAX_SET_NAME
    characters)?"""
    return isinstance(value, str) and 0 < len(value) <= MAX_SET_NAME


def defaults():
    values = {}
    for field in _FIELDS:
        values[field[0]] = list(field[1]) if isinstance(field[1], tuple) else field[1]
    return values


class Settings:
    def __init__(self, records, path=SETTINGS_PATH):
        self.records = records
        self.path = path
        self.values = defaults()
        self.problems = []
        self._dirty_since = None
        self.retry_ms = 0             # extra wait after failed saves (0: the last one worked)

    def load(self):
        """Read the record; every field that is missing or bad keeps its default. The checks
        are firmware/settings_file.py's, dropped once read: needed at start only, their code
        leaves a small board's heap with the start's next collection."""
        raw = self.records.read(self.path)
        if raw is None:
            return self
        from firmware import settings_file
        try:
            settings_file.take(raw, self.values, self.problems)
        finally:
            sys.modules.pop("firmware.settings_file", None)
            package = sys.modules.get("firmware")
            if package is not None and "settings_file" in package.__dict__:
                delattr(package, "settings_file")
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
        return (self._dirty_since is not None
                and ticks_diff(now, self._dirty_since) >= SAVE_AFTER_MS + self.retry_ms)

    def save(self):
        """Only what differs from the defaults (the rest reads back as them): the record stays
        small, so CircuitPython's nvm log fills slowly (firmware/nvm_records.py)."""
        changed = {}
        for name, value in defaults().items():
            if self.values[name] != value:
                changed[name] = self.values[name]
        self.records.write(self.path, json.dumps(changed).encode())
        self._dirty_since = None
        self.retry_ms = 0

    def save_before_stop(self):
        """The last save when the app stops: a full or read-only drive loses the changes
        (it was said when a save first failed), it does not turn a stop into a crash."""
        if self.dirty:
            try:
                self.save()
            except OSError:
                pass

    def save_failed(self, now):
        """A save raised OSError: keep the values, try again later and later (not every tick:
        that would flood the console and wear the flash)."""
        self._dirty_since = now
        self.retry_ms = min(max(2 * self.retry_ms, SAVE_AFTER_MS), RETRY_MAX_MS)
