"""Meld Explorer: turn to move the root a semitone a detent (both ways, wrapping); click for
the next meld of the kind; double press for the next kind (intervals, chords, scales). With a
buzzer, each new meld is played (firmware/sound.py); turning is silent, so spinning is not
noisy."""

from core.meldset import KINDS

from firmware import modes
from firmware.render import paint_meld


def _names():
    """firmware.modes.names, imported at the first console line, not with the mode: the
    explorer is the boot's mode, and its first frame needs no text (the console prints a
    mode's line once the LEDs show its state: firmware/services.py). The names' imports,
    core.notes and core.spelling, were about 40 ms of the QT Py's power-up to the first
    frame, measured on the emulated board."""
    from firmware.modes import names
    return names


class Mode(modes.Mode, modes.TurnRotates):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        settings = ctx.settings
        self.kind = settings["kind"]
        self.positions = list(settings["melds"])     # index within each kind
        self.root = settings["root"]
        self.kinds = []                               # meld indexes of each kind
        self.set_changed()

    def set_changed(self):
        """The meld set changed: rebuild the per-kind lists and keep the cursor in range."""
        meldset = self.ctx.meldset
        # bytes, not lists of ints: a set has at most 200 melds (core.meldset.MAX_MELDS),
        # and the lists were a few hundred bytes more of a small board's heap
        self.kinds = [bytes(meldset.of_kind(k)) for k in range(len(KINDS))]
        for k in range(len(KINDS)):
            if self.kinds[k]:
                self.positions[k] %= len(self.kinds[k])
            else:
                self.positions[k] = 0
        if not self.kinds[self.kind]:
            self._next_kind()

    @property
    def meld(self):
        """Index of the current meld in the set."""
        return self.kinds[self.kind][self.positions[self.kind]]

    def _save(self):
        self.ctx.keep("kind", self.kind)
        self.ctx.keep("melds", list(self.positions))
        self.ctx.keep("root", self.root)

    def _next_kind(self):
        for _ in range(len(KINDS)):
            self.kind = (self.kind + 1) % len(KINDS)
            if self.kinds[self.kind]:
                return

    def on_turn(self, steps):
        self.root = (self.root + steps) % 12
        self.ctx.keep("root", self.root)          # the rest is unchanged: nothing to copy

    def on_click(self):
        melds = self.kinds[self.kind]
        self.positions[self.kind] = (self.positions[self.kind] + 1) % len(melds)
        self._save()
        self.ctx.play_meld(self.meld, self.root)

    def on_double(self):
        self._next_kind()
        self._save()
        self.ctx.play_meld(self.meld, self.root)

    def rotates(self):
        # The meld turns with the root; colours by note stay with their pitch class.
        return self.ctx.settings["colours"] != "note"

    def render(self, frame):
        meldset = self.ctx.meldset
        i = self.meld
        paint_meld(frame, meldset.required_mask(i), meldset.optional_mask(i), self.root,
                   meldset.kind(i), self.ctx.settings["colours"])

    def describe(self):
        """'Eb minor triad (min): Eb Gb Bb', optional notes in parentheses."""
        meldset = self.ctx.meldset
        i = self.meld
        codes = meldset.meld_codes(i)
        names = _names()
        root = names.root_note(self.ctx, self.root, codes)
        return "%s: %s" % (names.meld_title(meldset, i, root), names.meld_notes(root, codes))

    def notes(self):
        meldset = self.ctx.meldset
        codes = meldset.meld_codes(self.meld)
        names = _names()
        return names.ring_names(names.root_note(self.ctx, self.root, codes), codes)

    def display(self):
        """The same, with a long id left out ('C major pentatonic: C D E G A')."""
        meldset = self.ctx.meldset
        i = self.meld
        codes = meldset.meld_codes(i)
        names = _names()
        root = names.root_note(self.ctx, self.root, codes)
        return "%s; %s" % (names.short_title(meldset, i, root), names.meld_notes(root, codes))
