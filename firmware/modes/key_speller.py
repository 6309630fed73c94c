"""Key speller (Musicards, Key's Corners): a key's scale, spelled by the letter rule.

Turn: the keynote, by name (C, C#, Db, D ...). Double press: the next scale of the meld set
(the major scale first).
Click: walk the degrees, one a click; the console spells the degree's note.
The ring lights the scale (its colours, the keynote full and whitened, the other degrees a step
under full); the degree walked to blinks (steady on the keynote), so it differs by a blink, not
by hue alone.
The key, the scale and the degree walked to are kept in the record store (key_speller.txt,
KeepsTable): they survive mode switches, reboots and power cuts."""

from core import degrees
from core.notes import format_note, note_pc
from core.spelling import spell

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.names import meld_notes, plain_names, ring_names
from firmware.modes.table_paint import BlinkingCursor, paint_cursor
from firmware.render import clear, paint_meld

SCALE = 2                 # the meld kind


class Mode(KeepsTable, BlinkingCursor, modes.Mode):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.names = plain_names()
        self.at = 0
        self.position = 0
        self.set_changed()

    def set_changed(self):
        meldset = self.ctx.meldset
        self.scales = meldset.of_kind(SCALE)
        self.position = 0
        for k in range(len(self.scales)):       # Key's Corners' own example: the major scale
            if meldset.meld_id(self.scales[k]) == "major":
                self.position = k
        self.degree = None              # no degree walked to yet
        self._scale_changed()
        self.keep_state()

    # ---- the key, kept (KeepsTable) ------------------------------------------------

    def state(self):
        return bytes((self.at, self.position >> 8, self.position & 255,
                      255 if self.degree is None else self.degree))

    def restore(self, raw):
        """A kept key, if it fits this set (else nothing changes)."""
        if len(raw) != 4 or raw[0] >= len(self.names):
            return False
        position = raw[1] << 8 | raw[2]
        if position >= len(self.scales):
            return False
        codes = self.ctx.meldset.meld_codes(self.scales[position])
        if raw[3] != 255 and raw[3] >= len(codes):
            return False
        self.at, self.position = raw[0], position
        self.degree = None if raw[3] == 255 else raw[3]
        self._scale_changed()
        return True

    def _scale_changed(self):
        self.codes = self.ctx.meldset.meld_codes(self.scales[self.position]) \
            if self.scales else b""

    @property
    def key(self):
        return self.names[self.at]

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        self.at = (self.at + steps) % len(self.names)
        self.degree = None

    def on_click(self):
        self.blink_restart(self.ctx.now)
        if self.codes:
            self.degree = 0 if self.degree is None else (self.degree + 1) % len(self.codes)
        self.keep_state()

    def on_double(self):
        self.blink_restart(self.ctx.now)
        if self.scales:
            self.position = (self.position + 1) % len(self.scales)
            self.degree = None
            self._scale_changed()
        self.keep_state()

    def render(self, frame):
        self.blink_on = self.blink_phase(self.ctx.now)
        if not self.scales:
            clear(frame)
            return
        meldset = self.ctx.meldset
        i = self.scales[self.position]
        root = note_pc(self.key)
        paint_meld(frame, meldset.required_mask(i), meldset.optional_mask(i), root, SCALE,
                   self.ctx.settings["colours"])
        if self.degree is not None:
            cursor = (root + degrees.semitones(self.codes[self.degree])) % 12
            if self.blink_on or cursor == root:
                paint_cursor(frame, cursor)

    def notes(self):
        return ring_names(self.key, self.codes) if self.scales else None

    def describe(self):
        if not self.scales:
            return "key speller: this meld set has no scales"
        meldset = self.ctx.meldset
        i = self.scales[self.position]
        line = "key speller: %s %s: %s" % (format_note(self.key), meldset.meld_name(i),
                                           meld_notes(self.key, self.codes))
        if self.degree is None:
            return line + " (click walks the degrees)"
        code = self.codes[self.degree]
        return "%s; degree %s is %s" % (line, degrees.to_text(code),
                                        format_note(spell(self.key, code)))
