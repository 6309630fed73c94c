"""Meld sets in their compact compiled form: what the device stores and loads.

Layout (little-endian):
    0  b"CWMS"           magic
    4  u8  version       FORMAT_VERSION
    5  u8  count         number of melds
    6  u16 length        bytes of payload
    8  u32 crc32         of the payload
   12  payload: u8 len + set name (UTF-8), then per meld:
               u8 kind, u8 len + id, u8 len + name, u8 n + n degree codes

The blob stays one bytes object; masks and offsets are small arrays, strings are decoded only
when asked for. A blob is checked whole (length, CRC, every field) before a MeldSet exists, so a
truncated or corrupted file is refused, never half-loaded.
"""

from array import array

from core import degrees

KINDS = ("interval", "chord", "scale")
KIND_PLURALS = ("intervals", "chords", "scales")


def kind_index(name):
    """'chord' or 'chords' -> 1; -1 when unknown."""
    for i in range(len(KINDS)):
        if name == KINDS[i] or name == KIND_PLURALS[i]:
            return i
    return -1

MAGIC = b"CWMS"
FORMAT_VERSION = 1
HEADER_SIZE = 12
MAX_MELDS = 200
MAX_POSITIONS = 12

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without it
    _crc32 = None


def crc32(data):
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


_ROOT_CODE = degrees.encode(1, 0)    # every meld's first position: a required 1


class MeldSetError(ValueError):
    """A meld set that cannot be used. `problems` lists (where, what) pairs."""

    def __init__(self, problems, source=None):
        self.problems = problems
        self.source = source
        prefix = source + ": " if source else ""
        lines = []
        for where, what in problems:
            lines.append(prefix + (where + ": " if where else "") + what)
        super().__init__("\n".join(lines))


def _u16(data, at):
    return data[at] | (data[at + 1] << 8)


def _u32(data, at):
    return data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24)


class MeldSet:
    """A loaded meld set. Index melds 0..count-1 in the order of the source."""

    def __init__(self, blob, source=None):
        blob = bytes(blob)
        problem = _check_header(blob)
        if problem:
            raise MeldSetError([("", problem)], source)
        count = blob[5]
        codes = degrees.code_table()
        offsets = array("H")
        required = array("H")
        optional = array("H")
        at = HEADER_SIZE
        end = len(blob)
        try:
            name_len = blob[at]
            self.name = str(blob[at + 1:at + 1 + name_len], "utf-8")
            at += 1 + name_len
            for i in range(count):
                offsets.append(at)
                at, req, opt = _check_meld(blob, at, end, i, codes)
                required.append(req)
                optional.append(opt)
        except (IndexError, UnicodeError) as err:
            raise MeldSetError([("", "damaged meld set (%s)" % err)], source)
        except ValueError as err:
            raise MeldSetError([("", "damaged meld set: %s" % err)], source)
        if at != end:
            raise MeldSetError([("", "damaged meld set (%d stray bytes)" % (end - at))], source)
        self._blob = blob
        self._offsets = offsets
        self._required = required
        self._optional = optional
        self.count = count
        self.size = len(blob)

    def __len__(self):
        return self.count

    def kind(self, i):
        """0 interval, 1 chord, 2 scale."""
        return self._blob[self._offsets[i]]

    def kind_name(self, i):
        return KINDS[self.kind(i)]

    def required_mask(self, i):
        return self._required[i]

    def optional_mask(self, i):
        """Optional sectors that are not also required."""
        return self._optional[i]

    def _field(self, i, which):
        at = self._offsets[i] + 1
        for _ in range(which):
            at += 1 + self._blob[at]
        return at + 1, at + 1 + self._blob[at]

    def meld_id(self, i):
        start, stop = self._field(i, 0)
        return str(self._blob[start:stop], "utf-8")

    def meld_name(self, i):
        start, stop = self._field(i, 1)
        return str(self._blob[start:stop], "utf-8")

    def meld_codes(self, i):
        start, stop = self._field(i, 2)
        return self._blob[start:stop]

    def meld(self, i):
        """A Meld object (host tools, rule engines); the device reads the fields directly.
        Imported here, not at the top: core.melds stays off a device that never asks."""
        from core.melds import Meld
        return Meld(self.meld_id(i), self.meld_name(i), self.kind_name(i), self.meld_codes(i))

    def of_kind(self, kind):
        return [i for i in range(self.count) if self.kind(i) == kind]


def _check_header(blob):
    if len(blob) < HEADER_SIZE:
        return "damaged meld set (only %d bytes)" % len(blob)
    if blob[0:4] != MAGIC:
        return "not a compiled meld set (bad magic)"
    if blob[4] != FORMAT_VERSION:
        return "compiled meld set format %d, this firmware reads %d" % (blob[4], FORMAT_VERSION)
    length = _u16(blob, 6)
    if HEADER_SIZE + length != len(blob):
        return "damaged meld set (%d bytes, header says %d)" % (len(blob), HEADER_SIZE + length)
    if crc32(blob[HEADER_SIZE:]) != _u32(blob, 8):
        return "damaged meld set (checksum mismatch)"
    if blob[5] > MAX_MELDS:
        return "damaged meld set (%d melds, at most %d)" % (blob[5], MAX_MELDS)
    return None


def _check_meld(blob, at, end, i, codes):
    """Check meld i's fields from `at`; (where the next meld starts, its required mask, its
    optional mask (sectors not also required)). `codes`: degrees.code_table(). Run for every
    meld at power-up: the constants are locals (a global is a dict lookup on MicroPython)."""
    if blob[at] >= 3:                     # KINDS
        raise ValueError("meld %d has kind %d" % (i, blob[at]))
    at += 1
    id_length = blob[at]
    name_at = at + 1 + id_length
    if id_length == 0 or name_at >= end:
        raise ValueError("meld %d has a bad text field" % i)
    name_length = blob[name_at]
    if name_length == 0 or name_at + 1 + name_length > end:
        raise ValueError("meld %d has a bad text field" % i)
    if name_length < 0x80:
        # One UTF-8 check for both fields (the decode is the check): the length byte between
        # them is ASCII, so an id cut off mid-character, or a name that starts inside one,
        # still fails. Half the calls of checking each field (this runs for every meld at
        # power-up).
        str(blob[at + 1:name_at + 1 + name_length], "utf-8")
    else:
        str(blob[at + 1:name_at], "utf-8")
        str(blob[name_at + 1:name_at + 1 + name_length], "utf-8")
    at = name_at + 1 + name_length
    n = blob[at]
    if n < 2 or n > MAX_POSITIONS or at + 1 + n > end:
        raise ValueError("meld %d has %d positions" % (i, n))
    if blob[at + 1] != _ROOT_CODE:
        raise ValueError("meld %d does not start with a required 1" % i)
    optional_bit = degrees.OPTIONAL
    required = 0
    optional = 0
    for code in blob[at + 1:at + 1 + n]:
        sector = codes[code & 0x7F]
        if not sector:
            raise ValueError("meld %d has degree byte %d" % (i, code))
        if code & optional_bit:
            optional |= 1 << (sector - 1)
        else:
            required |= 1 << (sector - 1)
    return at + 1 + n, required, optional & ~required


def load(path):
    """Load a compiled meld set file; MeldSetError names the file when it is unusable."""
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError as err:
        raise MeldSetError([("", "cannot read (%s)" % err)], path)
    return MeldSet(blob, path)
