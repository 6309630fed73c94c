"""Alphabet trainer (Musicards, the Musical Alphabet): which cards carry the next letter.

Turn: the last card played, by name (C, C#, Db, D ...: a two-name card is the letter you say).
Click: the next interval of the game (Seconds, Thirds ... Sevenths, counting both letters).
Double press: play the next letter's natural card (it becomes the last card).
The ring shows the last card full white and the cards that carry the next letter: the natural
green a step under it, the black keys named from it (flat, sharp) dim green (three levels, so
they read by brightness, not by hue alone); the console spells them. Like the
Musicards deck (and core/games/musical_alphabet.py, which judges the game), a white key carries
one letter: an E is never Fb, a C never B#, so they are not offered.
The last card and the interval are kept in the record store (alphabet.txt, KeepsTable):
they survive mode switches, reboots and power cuts."""

from core.notes import LETTERS, NATURAL_PC, format_note, pc_names

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.names import plain_names
from firmware.modes.table_paint import CARD, PLACED, paint_sector
from firmware.render import NOTE_LEVEL, OPTIONAL_LEVEL, clear

INTERVAL_NAMES = ("Seconds", "Thirds", "Fourths", "Fifths", "Sixths", "Sevenths")


def carriers(letter):
    """The names (letter, accidental) of the Musicards cards that carry `letter`."""
    natural = NATURAL_PC[letter]
    return [(letter, acc) for acc in (-1, 0, 1) if (letter, acc) in pc_names(natural + acc)]


class Mode(KeepsTable, modes.Mode):

    kept_per_set = False

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.names = plain_names()
        self.at = 0                     # the last card's name: an index into self.names
        self.interval = 2
        self._changed()

    @property
    def last(self):
        return self.names[self.at]

    def next_letter(self):
        return (self.last[0] + self.interval - 1) % 7

    def _changed(self):
        self.cards = carriers(self.next_letter())   # worked out on a change, not per frame

    def state(self):
        return bytes((self.at, self.interval))

    def restore(self, raw):
        if len(raw) != 2 or raw[0] >= len(self.names) or not 2 <= raw[1] <= 7:
            return False
        self.at, self.interval = raw[0], raw[1]
        self._changed()
        return True

    def on_turn(self, steps):
        self.at = (self.at + steps) % len(self.names)
        self._changed()

    def on_click(self):
        self.interval = self.interval + 1 if self.interval < 7 else 2
        self._changed()
        self.keep_state()

    def on_double(self):
        self.at = self.names.index((self.next_letter(), 0))
        self._changed()
        self.keep_state()

    def render(self, frame):
        clear(frame)
        for letter, accidental in self.cards:
            pc = (NATURAL_PC[letter] + accidental) % 12
            if accidental:
                paint_sector(frame, pc, PLACED, OPTIONAL_LEVEL)
            else:
                paint_sector(frame, pc, PLACED, NOTE_LEVEL)
        last = self.last
        paint_sector(frame, (NATURAL_PC[last[0]] + last[1]) % 12, CARD)

    def describe(self):
        names = [format_note(card) for card in self.cards]
        return "alphabet by %s: last card %s, next letter %s: %s" % (
            INTERVAL_NAMES[self.interval - 2], format_note(self.last),
            LETTERS[self.next_letter()], ", ".join(names[:-1]) + " or " + names[-1])
