"""What the optional display shows: a mode's console line laid out in rows that fit.

The line is the one the serial console gets (or, where that is too long for 16 x 8, the mode's
shorter `display()` text). Its note names get the music glyphs (Eb -> E + flat, Bbb -> B +
double flat, b7 -> flat 7), each "; " or " | "-separated part starts a row, words wrap, and
when it is still too long the usage hints in parentheses ("(click to keep)") go first, then
the last row is cut with "..".
Called only when the line changed: it may allocate, the idle loop never calls it."""

from hardware.font import DOUBLE_FLAT, DOUBLE_SHARP, FLAT, SHARP

COLUMNS = 16            # 128 pixels of 8-pixel glyphs
ROWS = 8                # 64 pixels: one SSD1306 page a row
_LETTERS = "ABCDEFG"
_HINT_WORDS = ("click", "press", "turn ")


def _glyphs(run):
    """An accidental run as its glyph: b, bb, #, ## or x; None if it is not one."""
    if run == "b":
        return FLAT
    if run == "bb":
        return DOUBLE_FLAT
    if run == "#":
        return SHARP
    if run in ("##", "x"):
        return DOUBLE_SHARP
    return None


def _music_word(word):
    """One word with its accidentals as glyphs: a note (Eb, F##, Cx, Bbb) or a degree (b7,
    #11, bb7), whole or inside punctuation such as '(Bb)' or 'Eb,'. Other words stay."""
    start = 0
    while start < len(word) and word[start] in "([":
        start += 1
    end = len(word)
    while end > start and word[end - 1] in ",;:)].":
        end -= 1
    core = word[start:end]
    if not core:
        return word
    if core[0] in _LETTERS:
        glyph = _glyphs(core[1:])
        if glyph is not None:
            return word[:start] + core[0] + glyph + word[end:]
        if "#" in core:
            return word.replace("#", SHARP)
        return word
    digits = 0
    while digits < len(core) and not core[len(core) - 1 - digits].isalpha() and \
            core[len(core) - 1 - digits] not in "b#":
        digits += 1
    glyph = _glyphs(core[:len(core) - digits]) if digits else None
    if glyph is not None and core[len(core) - digits:].isdigit():
        return word[:start] + glyph + core[len(core) - digits:] + word[end:]
    return word.replace("#", SHARP)


def music_text(line):
    # Notes joined by '/' (F#/Gb) or '-' (F-Gb, a step between two cards) each get their glyphs.
    return " ".join("/".join("-".join(_music_word(note) for note in part.split("-"))
                             for part in word.split("/"))
                    for word in line.split(" "))


def _wrap(text, columns):
    rows = []
    for part in text.replace(" | ", "; ").split("; "):
        row = ""
        for word in part.split(" "):
            if not word:
                continue
            while len(word) > columns:                  # a word too long for any row
                if row:
                    rows.append(row)
                rows.append(word[:columns])
                word = word[columns:]
                row = ""
            if not row:
                row = word
            elif len(row) + 1 + len(word) <= columns:
                row += " " + word
            else:
                rows.append(row)
                row = word
        if row:
            rows.append(row)
    return rows


def _without_hints(text):
    """Drop the parentheses that only say what the knob does: '(click to keep)'."""
    out = ""
    at = 0
    while True:
        opening = text.find(" (", at)
        closing = text.find(")", opening + 2) if opening >= 0 else -1
        if opening < 0 or closing < 0:
            return out + text[at:]
        inside = text[opening + 2:closing]
        out += text[at:opening]
        if not [w for w in _HINT_WORDS if w in inside]:
            out += text[opening:closing + 1]
        at = closing + 1


def layout(line, columns=COLUMNS, rows=ROWS):
    """The display rows for a console line: at most `rows` rows of at most `columns`."""
    text = music_text(line)
    out = _wrap(text, columns)
    if len(out) > rows:
        out = _wrap(_without_hints(text), columns)
    if len(out) > rows:
        out = out[:rows]
        last = out[-1]
        out[-1] = (last if len(last) <= columns - 2 else last[:columns - 2]) + ".."
    return out
