"""The games of the rulebooks, one module per game: rule engines and scoring tables.

What the Carmony family's games share: the deck of 96 NOTE cards, 8 of each note. A NOTE card
is a number 0..95; its note is card // 8."""

NOTE_COPIES = 8
NOTE_CARDS = 12 * NOTE_COPIES


def note_pc(card):
    """The pitch class of a NOTE card."""
    return card // NOTE_COPIES


class RuleError(ValueError):
    """A move the rules do not allow, with the reason."""


class ScoreError(ValueError):
    """Counts or melds that cannot happen at the table."""
