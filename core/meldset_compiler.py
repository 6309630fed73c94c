"""Meld-set sources (decoded JSON): validation with exact locations, and compilation.

The source format is documented in docs/meldsets.md. Validation reports every
problem as (where, what), e.g. ("melds[4].degrees[2]", "'b4' is not a degree"); compilation
refuses a source with any problem, so a bad set never reaches a device.
"""

from core import degrees
from core.meldset import (
    FORMAT_VERSION,
    HEADER_SIZE,
    KINDS,
    MAGIC,
    MAX_MELDS,
    MAX_POSITIONS,
    MAX_SET_NAME,
    SET_NAME_CHARS,
    MeldSet,
    MeldSetError,
    crc32,
)
from core.parse import DegreeError, parse_degree

FORMAT_NAME = "chromawheel-meldset"
MAX_ID = 16
MAX_NAME = 40
MAX_TEXT = 255
MAX_COMPILED = 16384
MAX_REPORTED = 100
ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#+-_/()."
SET_FIELDS = ("format", "version", "name", "title", "description", "melds")
MELD_FIELDS = ("id", "name", "kind", "degrees")
# Positions a meld of each kind may have (docs/music.md, the rulebook's "The Carmony System";
# scales may also have 8..11 notes so that custom sets can hold octatonic and bebop scales).
SIZES = {"interval": (2, 2), "chord": (2, 7), "scale": (5, 12)}


def _type_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _printable(text):
    for ch in text:
        if ord(ch) < 32 or ord(ch) == 127:
            return False
    return True


class _Report:
    def __init__(self):
        self.problems = []
        self.more = 0

    def add(self, where, what):
        if len(self.problems) < MAX_REPORTED:
            self.problems.append((where, what))
        else:
            self.more += 1

    def result(self):
        if self.more:
            return self.problems + [("", "... and %d more problems" % self.more)]
        return self.problems


def _quoted(text):
    """'text' in quotes as it reads (MicroPython's repr() writes Δ as \\u0394, which the page
    would show): a quote, a backslash and control characters escaped, nothing else."""
    out = []
    for ch in text.replace("\\", "\\\\").replace("'", "\\'"):
        out.append(ch if ord(ch) >= 32 and ch != "\x7f" else "\\x%02x" % ord(ch))
    return "'" + "".join(out) + "'"


def _text(report, where, value, limit, chars=None, required=True):
    """Check a text field; return it, or None after reporting."""
    if value is None and not required:
        return None
    if not isinstance(value, str):
        report.add(where, "expected text, got %s" % _type_name(value))
        return None
    if not value.strip():
        report.add(where, "must not be empty")
        return None
    if len(value) > limit:
        report.add(where, "%d characters, at most %d" % (len(value), limit))
        return None
    try:
        size = len(value.encode("utf-8"))
    except UnicodeError:          # CPython: a lone surrogate, from a JSON escape like \ud800
        report.add(where, "%r is not text: it holds half of a surrogate pair" % value)
        return None
    if size > 255:                                 # the compiled form has one length byte
        report.add(where, "%d characters take %d bytes in UTF-8, at most 255 (an accented "
                   "letter takes 2)" % (len(value), size))
        return None
    if chars is not None:
        bad = []
        for ch in value:
            if chars.find(ch) < 0 and ch not in bad:
                bad.append(ch)
        if bad:
            report.add(where, "%s: %s %s not allowed (use %s)" % (
                _quoted(value), "character" if len(bad) == 1 else "characters",
                ", ".join(_quoted(ch) for ch in bad) + (" is" if len(bad) == 1 else " are"),
                _describe_chars(chars)))
            return None
    elif not _printable(value):
        report.add(where, "%r contains control characters" % value)
        return None
    return value


def _describe_chars(chars):
    if chars == ID_CHARS:
        return "letters, digits and # + - _ / ( ) ."
    return "lower-case letters, digits, - and _"


def _unknown_fields(report, where, obj, known):
    for key in sorted(str(k) for k in obj if k not in known):
        report.add((where + "." if where else "") + key, "unknown field (expected one of %s)"
                   % ", ".join(known))


def _degrees(report, where, value, kind):
    """Check a meld's degree list; return the codes (OPTIONAL bit set) or None."""
    if not isinstance(value, list):
        report.add(where, "expected a list of degrees, got %s" % _type_name(value))
        return None
    if len(value) > MAX_POSITIONS:
        report.add(where, "%d degrees, at most %d" % (len(value), MAX_POSITIONS))
        return None
    codes = []
    ok = True
    previous = None   # (index, code) of the last good degree
    for j in range(len(value)):
        here = "%s[%d]" % (where, j)
        text = value[j]
        if not isinstance(text, str):
            report.add(here, "expected a degree such as '3' or '(5)', got %s" % _type_name(text))
            ok = False
            continue
        optional = len(text) > 2 and text[0] == "(" and text[-1] == ")"
        try:
            code = parse_degree(text[1:-1] if optional else text)
        except DegreeError as err:
            report.add(here, str(err))
            ok = False
            continue
        if optional and kind is not None and kind != "chord":
            report.add(here, "%r: only chords have optional degrees" % text)
            ok = False
        if j == 0 and (code != degrees.encode(1, 0) or optional):
            report.add(here, "%r: a meld starts with the required degree '1'" % text)
            ok = False
        if previous is not None:
            before = degrees.semitones(previous[1])
            now = degrees.semitones(code)
            if now == before:
                report.add(here, "%r is the same position as %s[%d] %r" % (
                    text, where, previous[0], value[previous[0]]))
                ok = False
            elif now < before:
                report.add(here, "%r comes after %r: list degrees from low to high" % (
                    text, value[previous[0]]))
                ok = False
        previous = (j, code)
        codes.append(code | (degrees.OPTIONAL if optional else 0))
    if not ok or not _sized(report, where, kind, len(codes)):
        return None
    return codes


def _sized(report, where, kind, count):
    """Whether a meld of `kind` (None: not known) may have `count` positions; says why not."""
    if kind in SIZES:
        low, high = SIZES[kind]
        if count < low or count > high:
            span = "%d" % low if low == high else "%d to %d" % (low, high)
            article = "an" if kind == "interval" else "a"
            report.add(where, "%s %s has %s positions, this one has %d" % (
                article, kind, span, count))
            return False
    elif count < 2:
        report.add(where, "a meld has at least 2 positions")
        return False
    return True


def _meld(report, where, value):
    """Check one meld; return (id, name, kind, codes), None for each field that is bad, or
    None when it is not an object at all."""
    if not isinstance(value, dict):
        report.add(where, "expected an object, got %s" % _type_name(value))
        return None
    _unknown_fields(report, where, value, MELD_FIELDS)
    missing = [f for f in MELD_FIELDS if f not in value]
    for field in missing:
        report.add(where, "missing field %r" % field)
    ident = _text(report, where + ".id", value.get("id"), MAX_ID, ID_CHARS, "id" not in missing)
    name = _text(report, where + ".name", value.get("name"), MAX_NAME,
                 required="name" not in missing)
    kind = value.get("kind")
    if "kind" in value and (not isinstance(kind, str) or kind not in KINDS):
        shown = repr(kind) if isinstance(kind, str) else _type_name(kind)
        report.add(where + ".kind", "%s is not a kind (%s)" % (shown, ", ".join(KINDS)))
        kind = None
    codes = None
    if "degrees" in value:
        codes = _degrees(report, where + ".degrees", value["degrees"], kind)
    return (ident, name, kind, codes)


def validate(source):
    """Every problem of a decoded meld-set source, as a list of (where, what); [] when good."""
    report = _Report()
    _check(report, source)
    return report.result()


def _check(report, source):
    """The compiled bytes of `source`, or None with every problem in `report`."""
    if not isinstance(source, dict):
        report.add("", "expected a JSON object, got %s" % _type_name(source))
        return None
    set_name = _set_fields(report, source)
    if "melds" not in source:
        return None
    good = _melds(report, source["melds"])
    if good is None or report.problems or set_name is None:
        return None
    blob = _pack(set_name, good)
    if len(blob) > MAX_COMPILED:
        report.add("", "compiles to %d bytes, at most %d" % (len(blob), MAX_COMPILED))
        return None
    return blob


def _set_fields(report, source):
    """The set's own fields (all but its melds) checked; its name, or None."""
    _unknown_fields(report, "", source, SET_FIELDS)
    for field in ("format", "version", "name", "melds"):
        if field not in source:
            report.add("", "missing field %r" % field)
    if "format" in source and source["format"] != FORMAT_NAME:
        report.add("format", "expected %r" % FORMAT_NAME)
    version = source.get("version")
    if "version" in source and (isinstance(version, bool) or version != FORMAT_VERSION):
        shown = repr(version) if isinstance(version, (int, float, str)) and not isinstance(
            version, bool) else _type_name(version)
        report.add("version", "%s is not supported (this tool reads version %d)"
                   % (shown, FORMAT_VERSION))
    set_name = None
    if "name" in source:
        set_name = _text(report, "name", source["name"], MAX_SET_NAME, SET_NAME_CHARS)
    for field in ("title", "description"):
        _text(report, field, source.get(field), MAX_TEXT, required=False)
    return set_name


def _melds(report, melds):
    """Each meld checked, then against the others; the good ones, or None when `melds` is not
    a list."""
    if not isinstance(melds, list):
        report.add("melds", "expected a list of melds, got %s" % _type_name(melds))
        return None
    if not melds:
        report.add("melds", "a meld set needs at least one meld")
    if len(melds) > MAX_MELDS:
        report.add("melds", "%d melds, at most %d" % (len(melds), MAX_MELDS))
    good = []
    firsts = ({}, {}, {})             # the first meld of each id, name and shape
    for i in range(len(melds)):
        where = "melds[%d]" % i
        meld = _meld(report, where, melds[i])
        if meld is not None:
            _cross_check(report, where, i, meld, firsts)
            good.append(meld)
    return good


def _cross_check(report, where, i, meld, firsts):
    """Meld `i` against those before it: a duplicate id, name or shape. Every field that is
    good on its own takes part, so one bad field in a meld does not hide a duplicate
    elsewhere."""
    ident, name, kind, codes = meld
    first_id, first_name, first_shape = firsts
    if ident is not None:
        if ident in first_id:
            report.add(where + ".id", "duplicate id %r (also melds[%d])"
                       % (ident, first_id[ident]))
        else:
            first_id[ident] = i
    if name is not None:
        key = name.lower()
        if key in first_name:
            report.add(where + ".name", "duplicate name %r (also melds[%d])"
                       % (name, first_name[key]))
        else:
            first_name[key] = i
    if kind is not None and codes is not None:
        shape = (kind, tuple(codes))
        if shape in first_shape:
            report.add(where + ".degrees", "same %s as melds[%d] %r" % (
                kind, first_shape[shape][0], first_shape[shape][1]))
        else:
            first_shape[shape] = (i, ident)


def _pack(set_name, melds):
    payload = bytearray()
    name = set_name.encode("utf-8")
    payload.append(len(name))
    payload.extend(name)
    for ident, name, kind, codes in melds:
        payload.append(KINDS.index(kind))
        for text in (ident, name):
            raw = text.encode("utf-8")
            payload.append(len(raw))
            payload.extend(raw)
        payload.append(len(codes))
        payload.extend(bytes(codes))
    header = bytearray(MAGIC)
    header.append(FORMAT_VERSION)
    header.append(len(melds))
    header.extend(len(payload).to_bytes(2, "little"))
    header.extend(crc32(payload).to_bytes(4, "little"))
    assert len(header) == HEADER_SIZE
    return bytes(header + payload)


def compile_source(source, origin=None):
    """Compiled bytes of a valid source; MeldSetError (naming `origin`) listing every problem."""
    report = _Report()
    blob = _check(report, source)
    if blob is None:
        raise MeldSetError(report.result() or [("", "not a meld set")], origin)
    return blob


def load_source(source, origin=None):
    """A MeldSet straight from a decoded source (host tools, tests)."""
    return MeldSet(compile_source(source, origin), origin)
