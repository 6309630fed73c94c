"""Chord Poker at the table: what the chord on the Wheel still needs, and what a root change does.

Steps, each with the same three controls:
  chord   turn: the CHORD card                click: keep it       (the ring: the chord at C)
  root    turn: the root (the first NOTE)     click: keep it       double: back to the chord
  wheel   turn: a cursor                      click: a card placed on / taken off its sector
          double: preview a root change to the cursor's note (its sector must be free)
  preview turn: another new root              click: change the root   double: cancel
The ring in the wheel step: the root full green and whitened, the other cards placed green a
step under it, required notes still missing orange dimmer again, optional ones dim orange (each
a level apart, so they read by brightness, not by hue alone); the cursor blinks where it is not
the root. In the preview, the cards that stay are green and those that go back to the hand
blink red. Once every required note is placed the chord is complete
(5 points); a click then goes to the chord step on the same card: turn to the CHORD card drawn
(the deck is shuffled: the next in the set's list is no better a guess).
Undo: a double press in the chord step, or in the wheel step on a sector holding a card (where
it cannot preview a root change), takes back the last action (a card placed or taken off, a
root change, the click after "complete"). A long press opens the menu as everywhere.
The table's state is kept in the record store (poker.txt, KeepsTable: at each press):
it survives mode switches, reboots and power cuts; a meld set switch starts afresh. The rules
are the engine's own (core/games/chord_poker_table.py)."""

from core import degrees
from core.games.chord_poker_table import CHORD_POINTS, chord_sectors, going_back, is_complete
from core.notes import format_note, pc_label
from core.spelling import spell

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.names import meld_title, root_note, short_title
from firmware.modes.table_paint import (
    GOING,
    MISSING,
    PLACED,
    BlinkingCursor,
    paint_cursor,
    paint_sector,
)
from firmware.render import NOTE_LEVEL, OPTIONAL_LEVEL, ROOT_WHITE, clear, paint_meld

CHORD = 1                 # the meld kind
STEPS = ("chord", "root", "wheel", "preview")
UNDO_DEPTH = 16           # actions that can be taken back (the states before them, in RAM)
MISSING_LEVEL = 200       # a required note missing: under a placed card's NOTE_LEVEL (orange
#                           reads as bright as green for red-blind eyes), over OPTIONAL_LEVEL


class Mode(KeepsTable, BlinkingCursor, modes.Mode):

    state_file = "poker.txt"

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.position = 0
        self.history = []                 # the states before the last actions (undo)
        self.set_changed()

    def set_changed(self):
        self.chords = self.ctx.meldset.of_kind(CHORD)
        self.position %= max(1, len(self.chords))
        self.step = "chord"
        self.root = 0
        self.cursor = 0
        self.new_root = 0
        self.placed = 0                   # the sectors holding a card (a pc mask)
        self.hint = None
        self.history = []
        self._masks()
        self.keep_state()

    # ---- the table's state, kept (KeepsTable) and taken back (undo) ----------------

    def state(self):
        return bytes((STEPS.index(self.step), self.position >> 8, self.position & 255,
                      self.root, self.cursor, self.new_root, self.placed >> 8,
                      self.placed & 255))

    def restore(self, raw):
        """A kept state, if it fits this set (else nothing changes)."""
        if not raw or len(raw) != 8 or raw[0] >= len(STEPS) or max(raw[3:6]) > 11:
            return False
        position = raw[1] << 8 | raw[2]
        if position >= len(self.chords):
            return False
        self.step = STEPS[raw[0]]
        self.position = position
        self.root, self.cursor, self.new_root = raw[3], raw[4], raw[5]
        self.placed = (raw[6] << 8 | raw[7]) & 0xFFF
        self._masks()
        return True

    def _remember(self, before):
        """After an action: the state before it, for undo, if the table changed."""
        now = self.state()
        if now[:4] + now[5:] == before[:4] + before[5:]:
            return                          # only the cursor (or nothing) moved
        self.history.append(before)
        if len(self.history) > UNDO_DEPTH:
            self.history.pop(0)

    def _undo(self):
        if not self.history:
            return False
        self.restore(self.history.pop())
        self.hint = "took back the last action"
        self.keep_state()
        return True

    @property
    def chord(self):
        return self.chords[self.position] if self.chords else None

    def _masks(self):
        """The chord's sectors at the root (and at the previewed root) as absolute pc masks."""
        self.required, self.optional = self._sectors(self.root)
        self.new_required, self.new_optional = self._sectors(self.new_root)

    def _sectors(self, root):
        if self.chord is None:
            return 0, 0
        return chord_sectors(self.ctx.meldset.meld_codes(self.chord), root)

    def complete(self):
        return is_complete(self.required, self.placed)

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "chord" and self.chords:
            self.position = (self.position + steps) % len(self.chords)
        elif self.step == "root":
            self.root = (self.root + steps) % 12
        elif self.step == "wheel":
            self.cursor = (self.cursor + steps) % 12
        elif self.step == "preview":
            self.new_root = self._free_sector(self.new_root, steps)
        self._masks()           # not kept at each detent (the flash): the next press keeps it

    def on_click(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        before = self.state()
        if self.step == "chord":
            if self.chords:
                self.step = "root"
        elif self.step == "root":
            self.placed = 1 << self.root        # the first NOTE card lies on its sector
            self.cursor = self.root
            self.step = "wheel"
        elif self.step == "wheel":
            if self.complete():
                # The next round's CHORD card is the one drawn: chosen with the knob.
                self.step = "chord"
                self.hint = "turn to the CHORD card drawn"
            else:
                self._toggle()
        else:
            self._change_root()
        self._masks()
        self._remember(before)
        self.keep_state()

    def _toggle(self):
        pc = self.cursor
        if pc == self.root:
            self.hint = "the root stays: change the root instead"
        elif not (self.required | self.optional) >> pc & 1:
            self.hint = "%s is not in the chord: it goes to the pile" % pc_label(pc)
        else:
            self.placed ^= 1 << pc

    def _change_root(self):
        """The hand card goes on the new root's sector; cards not in the chord there go back."""
        self.root = self.new_root
        self._masks()
        self.placed &= ~going_back(self.placed, self.required, self.optional)
        self.placed |= 1 << self.root
        self.cursor = self.root
        self.step = "wheel"

    def on_double(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "chord":
            if not self._undo():
                self.hint = "nothing to take back"
            return
        if self.step == "root":
            self.step = "chord"
        elif self.step == "wheel":
            if self.placed >> self.cursor & 1:
                if not self._undo():
                    self.hint = "%s is taken: a new root needs a free sector" % pc_label(
                        self.cursor)
                return
            elif self.complete():
                self.hint = "the chord is complete: no root change (click for the next chord)"
                return
            else:
                self.new_root = self.cursor
                self.step = "preview"
        elif self.step == "preview":
            self.step = "wheel"
        self._masks()
        self.keep_state()

    def _free_sector(self, start, steps):
        """The next sector without a card, `steps` free sectors on (either way)."""
        pc = start
        direction = 1 if steps > 0 else -1
        for _ in range(abs(steps)):
            for _ in range(12):
                pc = (pc + direction) % 12
                if not self.placed >> pc & 1:
                    break
        return pc

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        self.blink_on = on = self.blink_phase(self.ctx.now)
        if self.chord is None:
            clear(frame)
            return
        if self.step in ("chord", "root"):
            meldset = self.ctx.meldset
            root = self.root if self.step == "root" else 0
            paint_meld(frame, meldset.required_mask(self.chord),
                       meldset.optional_mask(self.chord), root, CHORD,
                       self.ctx.settings["colours"])
            return
        preview = self.step == "preview"
        root = self.new_root if preview else self.root
        required = self.new_required if preview else self.required
        optional = self.new_optional if preview else self.optional
        for pc in range(12):
            bit = 1 << pc
            if pc == root and (preview or self.placed >> pc & 1):
                # The root's card (in the preview, the card the change plays): full, whitened.
                paint_sector(frame, pc, PLACED, 255, ROOT_WHITE)
            elif self.placed >> pc & 1:
                if (required | optional) & bit:
                    paint_sector(frame, pc, PLACED, NOTE_LEVEL, 0)
                else:                                   # goes back to the hand: blinks
                    paint_sector(frame, pc, GOING, 255 if on else 0, 0)
            elif required & bit:
                paint_sector(frame, pc, MISSING, MISSING_LEVEL, 0)
            elif optional & bit:
                paint_sector(frame, pc, MISSING, OPTIONAL_LEVEL, 0)
            else:
                paint_sector(frame, pc, MISSING, 0, 0)
        cursor = self.new_root if preview else self.cursor
        if on or cursor == root:               # the cursor blinks where it is not the root
            paint_cursor(frame, cursor)

    # ---- the console --------------------------------------------------------------------

    def describe(self):
        if self.chord is None:
            return "chord poker: this meld set has no chords"
        meldset = self.ctx.meldset
        codes = meldset.meld_codes(self.chord)
        if self.step == "chord":
            return "chord poker: CHORD card %s %s (click to keep)%s" % (
                meldset.meld_id(self.chord), meldset.meld_name(self.chord),
                " (%s)" % self.hint if self.hint else "")
        if self.step == "root":
            root = root_note(self.ctx, self.root, codes)
            return "chord poker: root %s: %s (click to keep)" % (
                format_note(root), meld_title(meldset, self.chord, root))
        root_pc = self.new_root if self.step == "preview" else self.root
        root, placed, missing = self._notes(root_pc)
        line = "%s: on the Wheel %s; missing %s" % (
            meld_title(meldset, self.chord, root), " ".join(placed) or "nothing",
            " ".join(missing) or "nothing")
        if self.step == "preview":
            return "chord poker: root change preview to %s: %s; back to the hand %s" % (
                format_note(root), line, self._going())
        line = "chord poker: %s; cursor %s" % (line, pc_label(self.cursor))
        if self.complete():
            line += "; complete: %d points (click for the next chord)" % CHORD_POINTS
        if self.hint:
            line += " (%s)" % self.hint
        return line

    def _notes(self, root_pc):
        """(root, names on the Wheel, names still missing (optional ones in parentheses))."""
        codes = self.ctx.meldset.meld_codes(self.chord)
        root = root_note(self.ctx, root_pc, codes)
        placed = []
        missing = []
        for code in codes:
            pc = (root_pc + degrees.semitones(code)) % 12
            name = format_note(spell(root, code))
            if self.placed >> pc & 1 or (self.step == "preview" and pc == root_pc):
                placed.append(name)
            else:
                missing.append("(" + name + ")" if code & degrees.OPTIONAL else name)
        return root, placed, missing

    def _going(self):
        going = going_back(self.placed, self.new_required, self.new_optional)
        return " ".join(pc_label(pc) for pc in range(12) if going >> pc & 1) or "nothing"

    def display(self):
        """The panel's shorter text: the chord, the Wheel, what is missing, the cursor."""
        if self.chord is None or self.step in ("chord", "root"):
            return self.describe()
        root_pc = self.new_root if self.step == "preview" else self.root
        root, placed, missing = self._notes(root_pc)
        wheel = ["Wheel: " + (" ".join(placed) or "-"), "missing: " + (" ".join(missing) or "-")]
        if self.step == "preview":
            # What goes back to the hand first: the panel's last rows may be cut.
            return "; ".join(["root change to %s %s" % (format_note(root),
                                                        self.ctx.meldset.meld_id(self.chord)),
                              "back to the hand: " + self._going()] + wheel)
        parts = [short_title(self.ctx.meldset, self.chord, root)] + wheel
        if self.complete():
            parts.append("complete: %d pts" % CHORD_POINTS)
        parts.append(self.hint or "cursor " + pc_label(self.cursor))   # a hint names it
        return "; ".join(parts)
