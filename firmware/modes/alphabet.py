"""Alphabet trainer (Musicards, the Musical Alphabet): which cards carry the next letter.

Turn: the last card played, by name (C, C#, Db, D ...: a two-name card is the letter you say).
Click: the next interval of the game (Seconds, Thirds ... Sevenths, counting both letters).
Double press: play the next letter's natural card (it becomes the last card).
The ring shows the last card white and the next letter's notes: the natural bright, its flat
and sharp dim; the console spells them."""

from core.notes import LETTERS, NATURAL_PC, format_note

from firmware.modes.names import plain_names
from firmware.render import CARD, OPTIONAL_LEVEL, PLACED, clear, paint_sector

INTERVAL_NAMES = ("Seconds", "Thirds", "Fourths", "Fifths", "Sixths", "Sevenths")


class Mode:
    name = "alphabet"

    def __init__(self, app):
        self.app = app
        self.names = plain_names()
        self.at = 0                     # the last card's name: an index into self.names
        self.interval = 2

    @property
    def last(self):
        return self.names[self.at]

    def next_letter(self):
        return (self.last[0] + self.interval - 1) % 7

    def on_turn(self, steps):
        self.at = (self.at + steps) % len(self.names)

    def on_click(self):
        self.interval = self.interval + 1 if self.interval < 7 else 2

    def on_double(self):
        self.at = self.names.index((self.next_letter(), 0))

    def on_long(self):
        self.app.open_menu()

    def render(self, frame):
        clear(frame)
        natural = NATURAL_PC[self.next_letter()]
        paint_sector(frame, (natural + 11) % 12, PLACED, OPTIONAL_LEVEL)
        paint_sector(frame, (natural + 1) % 12, PLACED, OPTIONAL_LEVEL)
        paint_sector(frame, natural, PLACED)
        last = self.last
        paint_sector(frame, (NATURAL_PC[last[0]] + last[1]) % 12, CARD)

    def describe(self):
        letter = self.next_letter()
        return "alphabet by %s: last card %s, next letter %s: %s, %s or %s" % (
            INTERVAL_NAMES[self.interval - 2], format_note(self.last), LETTERS[letter],
            format_note((letter, -1)), format_note((letter, 0)), format_note((letter, 1)))
