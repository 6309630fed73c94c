"""Reading names that people type: notes ('C#', 'Db', 'E\u266d', 'F##', 'Fx', 'Bbb', any case)
and degrees ('b3', '#11'). Host tools and meld-set sources use it; the device never parses text.
"""

from core import degrees
from core.notes import LETTERS, NATURAL_PC, note_pc

_NOTE_ACCIDENTALS = {
    "#": 1, "\u266f": 1, "b": -1, "\u266d": -1,
    "x": 2, "\U0001d12a": 2, "\U0001d12b": -2, "\u266e": 0,
}
_DEGREE_ACCIDENTALS = {"b": -1, "\u266d": -1, "#": 1, "\u266f": 1}


class NoteError(ValueError):
    """A note name that cannot be read."""


def parse_note(text):
    """'C#', 'Db', 'E\u266d', 'F##', 'Fx', 'Bbb', any case -> (letter, alter)."""
    if not isinstance(text, str):
        raise NoteError("a note name must be text, not %r" % (text,))
    name = text.strip()
    if not name:
        raise NoteError("empty note name")
    letter = LETTERS.find(name[0].upper())
    if letter < 0:
        raise NoteError("%r is not a note name (the letter must be A-G)" % text)
    alter = 0
    signs = 0
    for ch in name[1:]:
        step = _NOTE_ACCIDENTALS.get(ch.lower() if ch in "BX" else ch)
        if step is None:
            raise NoteError("%r is not a note name (unknown accidental %r)" % (text, ch))
        if alter and step and (alter > 0) != (step > 0):
            raise NoteError("%r is not a note name (mixes sharps and flats)" % text)
        alter += step
        signs += 1
    if alter < -2 or alter > 2:
        raise NoteError("%r is not a note name (at most a double accidental)" % text)
    if signs > 2 or (signs == 2 and abs(alter) != 2):
        raise NoteError("%r is not a note name (too many accidentals)" % text)
    return (letter, alter)


def pc_of(text):
    """Pitch class of a note name."""
    return note_pc(parse_note(text))


def midi_note(text):
    """A MIDI note number from a name with its octave ('C4' = 60, 'Eb3', 'B#3' = 60, 'C-1'
    = 0) or a number 0..127. NoteError says what is wrong."""
    name = text.strip() if isinstance(text, str) else ""
    if name.isdigit():
        number = int(name)
    else:
        at = len(name)
        while at > 0 and (name[at - 1].isdigit() or name[at - 1] == "-"):
            at -= 1
        octave = name[at:]
        if not (octave[1:] if octave.startswith("-") else octave).isdigit():
            raise NoteError("%r is not a note with an octave (C4 is middle C) or a MIDI "
                            "number" % (text,))
        try:
            letter, alter = parse_note(name[:at])
        except NoteError as err:
            raise NoteError("%r: %s" % (text, err)) from None
        number = 12 * (int(octave) + 1) + NATURAL_PC[letter] + alter
    if not 0 <= number <= 127:
        raise NoteError("%r is outside MIDI's notes (C-1 = 0 to G9 = 127)" % (text,))
    return number


class DegreeError(ValueError):
    """A degree that is not in the vocabulary."""


def _read(text):
    """Accidentals then a number 1..13, or None when the text has another shape."""
    alt = 0
    i = 0
    while i < len(text) and text[i] in _DEGREE_ACCIDENTALS:
        alt += _DEGREE_ACCIDENTALS[text[i]]
        i += 1
    digits = text[i:]
    if not digits or not digits.isdigit() or len(digits) > 2:
        return None
    num = int(digits)
    if num < 1 or num > 13 or alt < -2 or alt > 2 or i > 2:
        return None
    return degrees.encode(num, alt)


def parse_degree(text):
    """'b3' -> code; raises DegreeError naming the text when it is not in the vocabulary."""
    if not isinstance(text, str):
        raise DegreeError("%r is not a degree (expected text such as 'b3')" % (text,))
    code = _read(text.strip())
    if code is None or degrees.to_text(code) not in degrees.VOCABULARY:
        raise DegreeError("%r is not a degree" % text)
    return code


# Chord symbols: the suffix after the root -> the default set's meld id (docs/music.md,
# "Chord symbols"). Case matters for a lone M (major) and m (minor): CM7 is Cmaj7, Cm7 is
# Cmin7. Parentheses are dropped before the look-up, so Cm(maj7) is CmMaj7 and C7(b9) is C7b9.
SYMBOLS = {
    "": "maj", "M": "maj", "maj": "maj",
    "m": "min", "min": "min", "mi": "min", "-": "min",
    "dim": "dim", "\u00b0": "dim", "o": "dim",
    "aug": "aug", "+": "aug",
    "5": "5",
    "sus2": "sus2", "sus4": "sus4", "sus": "sus4",
    "6": "6", "M6": "6", "maj6": "6",
    "m6": "min6", "min6": "min6", "-6": "min6",
    "7": "7", "dom7": "7", "dom": "7",
    "maj7": "maj7", "M7": "maj7", "ma7": "maj7", "\u0394": "maj7", "\u03947": "maj7",
    "m7": "min7", "min7": "min7", "mi7": "min7", "-7": "min7",
    "mmaj7": "min(maj7)", "mMaj7": "min(maj7)", "mM7": "min(maj7)", "minmaj7": "min(maj7)",
    "-maj7": "min(maj7)", "m\u03947": "min(maj7)",
    "m7b5": "min7b5", "min7b5": "min7b5", "-7b5": "min7b5", "\u00f8": "min7b5",
    "\u00f87": "min7b5", "\u00d8": "min7b5", "\u00d87": "min7b5",
    "dim7": "dim7", "\u00b07": "dim7", "o7": "dim7",
    "7sus4": "7sus4", "7sus": "7sus4",
    "add9": "add9",
    "madd9": "min(add9)", "minadd9": "min(add9)",
    "7#5": "7#5", "7+5": "7#5", "7+": "7#5", "+7": "7#5", "aug7": "7#5",
    "9": "9", "dom9": "9",
    "maj9": "maj9", "M9": "maj9", "\u03949": "maj9",
    "m9": "min9", "min9": "min9", "-9": "min9",
    "6/9": "6/9", "69": "6/9",
    "7b9": "7b9", "7#9": "7#9",
    "9sus4": "9sus4", "9sus": "9sus4",
    "7#11": "7#11", "9#11": "9#11",
    "11": "11",
    "m11": "min11", "min11": "min11", "-11": "min11",
    "13": "13",
    "maj13": "maj13", "M13": "maj13", "\u039413": "maj13",
    "m13": "min13", "min13": "min13", "-13": "min13",
}

# Names of scales and chords people type -> the default set's meld id. Keys are lower case
# with single spaces ('Natural-Minor' reads as 'natural minor').
NAMES = {
    "minor": "aeolian", "natural minor": "aeolian", "minor scale": "aeolian", "ionian": "major",
    "pentatonic major": "major-pentatonic", "pentatonic minor": "minor-pentatonic",
    "jazz minor": "melodic-minor", "wholetone": "whole-tone", "byzantine": "double-harmonic",
    "dominant": "7", "half diminished": "min7b5", "fully diminished": "dim7",
    "augmented": "aug", "diminished": "dim", "power": "5",
}

_SIGNS = (("\u266f", "#"), ("\u266d", "b"))
# In any case except a leading lone M, which is major (CM7), where m is minor (Cm7).
_FOLDED = {}
for _key in SYMBOLS:
    if not (_key[:1] == "M" and not _key[1:2].isalpha()):
        _FOLDED[_key.lower()] = SYMBOLS[_key]


class SymbolError(ValueError):
    """A chord symbol ChromaWheel refuses to read (a slash chord)."""


def symbol_id(suffix):
    """The meld id of a chord symbol's suffix ('maj7', 'm7b5', '\u00f8', '' for the major
    triad), or None."""
    for old, new in _SIGNS:
        suffix = suffix.replace(old, new)
    plain = suffix.replace("(", "").replace(")", "")
    for form in (suffix, plain):
        if form in SYMBOLS:
            return SYMBOLS[form]
    if plain[:1] == "M" and not plain[1:2].isalpha():
        return None
    return _FOLDED.get(plain.lower())


def _normal(text, last_word=False):
    """Lower case, '-' and '_' as spaces, single spaces; with last_word, a closing 'scale',
    'chord' or 'mode' dropped ('Harmonic-Minor Scale' -> 'harmonic minor')."""
    words = text.lower().replace("-", " ").replace("_", " ").split()
    if last_word and len(words) > 1 and words[-1] in ("scale", "chord", "mode"):
        words = words[:-1]
    return " ".join(words)


def name_id(text):
    """The meld id a typed name stands for in the tables (a suffix such as 'dom7' on its own,
    or a name such as 'natural minor'), or None."""
    text = text.strip()
    if not text:
        return None
    found = symbol_id(text)
    if found is None:
        found = NAMES.get(_normal(text))
    if found is None:
        found = NAMES.get(_normal(text, True))
    return found


def split_root(text):
    """Every way to read text as a root then the rest, longest root first:
    'Ebm7' -> [((2, -1), 'm7'), ((2, 0), 'bm7')]. The root's letter must be a capital, except
    before a space ('a natural minor'), so ids such as 'add9', 'dim' or 'b9' never start with
    a root. The root is read by parse_note, like every note name."""
    splits = []
    if not text or LETTERS.find(text[0].upper()) < 0:
        return splits
    end = 1
    while end < len(text) and end < 3 and text[end] in _NOTE_ACCIDENTALS:
        end += 1
    while end >= 1:
        rest = text[end:]
        if text[0].isupper() or rest[:1].isspace():
            try:
                splits.append((parse_note(text[:end]), rest))
            except NoteError:
                pass
        end -= 1
    return splits


def _slash(text, reads):
    """Refuse 'C/E' (SymbolError) when the part before the slash reads and a note follows."""
    at = text.rfind("/")
    if at <= 0:
        return
    try:
        parse_note(text[at + 1:])
    except NoteError:
        return
    if reads(text[:at]):
        raise SymbolError("%r: slash chords are not read (the wheel shows pitch classes, not "
                          "which note is lowest); give %r without the bass note"
                          % (text, text[:at]))


def parse_symbol(text):
    """A chord symbol read by the tables alone: 'F#m7b5' -> ((3, 1), 'min7b5'),
    'A natural minor' -> ((5, 0), 'aeolian'); None when it is no symbol. A slash chord
    raises SymbolError."""
    text = text.strip()
    for root, rest in split_root(text):
        found = name_id(rest) if rest[:1].isspace() else symbol_id(rest)
        if found is not None:
            return root, found
    _slash(text, parse_symbol)
    return None


def _by_name(meldset, text):
    """A meld named without a root, or -1: as core.melds.lookup (exact id, then id or name in
    any case; KeyError for a name of several melds), then the tables, then ids and names in any
    case with '-' as a space and a closing 'scale', 'chord' or 'mode' dropped."""
    from core.melds import index_of, lookup  # here: the page's validator needs none of it
    if not text:
        return -1
    i = lookup(meldset, text)
    if i >= 0:
        return i
    found = name_id(text)
    i = index_of(meldset, found) if found is not None else -1
    if i >= 0:
        return i
    wanted = _normal(text, True)
    matches = [j for j in range(meldset.count)
               if _normal(meldset.meld_id(j), True) == wanted
               or _normal(meldset.meld_name(j), True) == wanted]
    return matches[0] if len(matches) == 1 else -1


def find_meld(meldset, text):
    """(index, root) of what a user typed for a meld: an id or name as core.melds.find reads it
    (root None), a name from the tables ('dom7', 'natural minor'), or a root then a chord
    symbol ('Cmaj7', 'F#m7b5', 'C7alt' for a set with that id) or then a space and a name
    ('A natural minor'). (-1, None) when nothing matches; KeyError when a name matches several
    melds; SymbolError for a slash chord."""
    from core.melds import index_of
    text = text.strip()
    i = _by_name(meldset, text)
    if i >= 0:
        return i, None
    for root, rest in split_root(text):
        if rest[:1].isspace():
            i = _by_name(meldset, rest.strip())
        else:
            found = symbol_id(rest)
            i = index_of(meldset, found) if found is not None else -1
            if i < 0 and rest:
                i = index_of(meldset, rest)
        if i >= 0:
            return i, root
    _slash(text, lambda base: find_meld(meldset, base)[0] >= 0)
    return -1, None


def _distance(a, b):
    """Edit distance: insertions, deletions, changes and swaps of two neighbours."""
    before = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        new = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            new[j] = min(row[j] + 1, new[j - 1] + 1, row[j - 1] + (a[i - 1] != b[j - 1]))
            if (before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2]
                    and a[i - 2] == b[j - 1]):
                new[j] = min(new[j], before[j - 2] + 1)
        before, row = row, new
    return row[-1]


def suggestions(meldset, text, limit=3):
    """Up to `limit` names to type instead of `text`, one a meld, closest first: the set's ids
    and names, the chord-symbol and name tables, and with a root in front, the root with a
    chord symbol or a name."""
    text = text.strip()
    ids = [meldset.meld_id(i) for i in range(meldset.count)]
    symbols = [(key, ident) for key, ident in SYMBOLS.items() if key and ident in ids]
    names = [(ident, ident) for ident in ids]
    names += [(meldset.meld_name(i), ids[i]) for i in range(meldset.count)]
    names += [(key, ident) for key, ident in NAMES.items() if ident in ids]
    pool = names + symbols
    for _, rest in split_root(text):
        if rest[:1].isspace():
            head = text[:len(text) - len(rest.lstrip())]
            pool += [(head + name, ident) for name, ident in names]
        elif rest:
            pool += [(text[:len(text) - len(rest)] + key, ident) for key, ident in symbols]
    wanted = text.lower()
    # One or two letters are too little to guess from: "c" is one edit from "5", "6" and "7".
    allowed = 0 if len(wanted) <= 2 else 1 if len(wanted) <= 4 else 2 if len(wanted) <= 8 else 3
    best = {}
    for order, (name, ident) in enumerate(pool):
        lowered = name.lower()
        score = _distance(wanted, lowered)
        if len(wanted) >= 3 and wanted in lowered:
            score = min(score, 1)
        if score > allowed:
            continue
        rank = (score, not lowered.startswith(wanted), abs(len(lowered) - len(wanted)), order)
        if ident not in best or rank < best[ident][0]:
            best[ident] = (rank, name)
    return [name for _, name in sorted(best.values())[:limit]]
