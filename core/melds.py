"""A meld: an interval, chord or scale card, as degrees relative to its root.

Positions are degree codes (see core.degrees) with the OPTIONAL bit for the uncoloured sectors.
Two positions may share a pitch class (the octave: 1 and 8 need two cards of one note).
"""

from core import degrees, pcset, spelling


class Meld:
    def __init__(self, ident, name, kind, codes):
        self.id = ident
        self.name = name
        self.kind = kind              # 'interval', 'chord' or 'scale'
        self.codes = tuple(codes)     # in card order, OPTIONAL bit set on optional positions
        required = 0
        optional = 0
        for code in self.codes:
            bit = 1 << (degrees.semitones(code) % 12)
            if degrees.is_optional(code):
                optional |= bit
            else:
                required |= bit
        self.required_mask = required
        self.optional_mask = optional & ~required

    def __repr__(self):
        return "<Meld %s %s>" % (self.id, self.degree_text())

    @property
    def full_mask(self):
        return self.required_mask | self.optional_mask

    @property
    def min_cards(self):
        return sum(1 for c in self.codes if not degrees.is_optional(c))

    @property
    def max_cards(self):
        return len(self.codes)

    def degree_text(self):
        """'1 3 (5) b7', the notation of docs/music.md."""
        parts = []
        for code in self.codes:
            text = degrees.to_text(code)
            parts.append("(" + text + ")" if degrees.is_optional(code) else text)
        return " ".join(parts)

    def distinct_roots(self):
        """How many roots give distinct shapes on the wheel (12, or fewer when symmetric):
        the smallest rotation that maps both the required and the optional sectors onto
        themselves."""
        for period in (1, 2, 3, 4, 6):
            if (pcset.rotate(self.required_mask, period) == self.required_mask
                    and pcset.rotate(self.optional_mask, period) == self.optional_mask):
                return period
        return 12

    def root_name(self, pc):
        return spelling.root_name(pc, self.codes)

    def notes(self, root):
        """The spelled note of every position at `root` (a (letter, alter) pair)."""
        return spelling.spell_all(root, self.codes)


def all_melds(meldset):
    return [meldset.meld(i) for i in range(meldset.count)]


def index_of(meldset, ident):
    """Index of the meld with exactly this id, or -1."""
    for i in range(meldset.count):
        if meldset.meld_id(i) == ident:
            return i
    return -1


def lookup(meldset, text):
    """A meld's index by id (exact, then ignoring case) or by name (ignoring case), or -1.
    Raises KeyError when the text names several melds."""
    i = index_of(meldset, text)
    if i >= 0:
        return i
    wanted = text.lower()
    matches = [j for j in range(meldset.count)
               if meldset.meld_id(j).lower() == wanted or meldset.meld_name(j).lower() == wanted]
    if len(matches) > 1:
        raise KeyError("%r matches several melds (%s): use the exact id" % (
            text, ", ".join(meldset.meld_id(j) for j in matches)))
    return matches[0] if matches else -1


def find(meldset, text):
    """As lookup(), but KeyError with a message naming what was not found."""
    i = lookup(meldset, text)
    if i < 0:
        raise KeyError("no meld %r in meld set %r" % (text, meldset.name))
    return i
