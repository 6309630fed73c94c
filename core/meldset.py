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
when asked for. A blob is checked whole (length, CRC, every field: core/meldset_check.py) before
a MeldSet exists, so a truncated or corrupted file is refused, never half-loaded.
"""

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
# A set's name, the file name it has on a device (melds/NAME.cwm: never a path): 1 to
# MAX_SET_NAME of these characters. The compiler checks a source's name against them; the
# device a name it is asked to use or remove, and the settings a name they keep
# (firmware/layout.py, firmware/settings.py); the page reads them from the built site.
SET_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_"
MAX_SET_NAME = 24

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


class MeldSet:
    """A loaded meld set. Index melds 0..count-1 in the order of the source."""

    def __init__(self, blob, source=None):
        # The checks live in a module of their own (core/meldset_check.py), which a device
        # drops once its set is loaded (firmware/installed_sets.py): a small board's heap.
        from core.meldset_check import checked
        blob = bytes(blob)
        self.name, self._offsets, self._required, self._optional = checked(blob, source)
        self._blob = blob
        self.count = blob[5]
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


def load(path):
    """Load a compiled meld set file; MeldSetError names the file when it is unusable."""
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError as err:
        raise MeldSetError([("", "cannot read (%s)" % err)], path) from None
    return MeldSet(blob, path)
