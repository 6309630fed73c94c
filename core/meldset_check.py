"""The checks of a compiled meld set (core/meldset.py's layout), run whole before a MeldSet
exists: length, CRC, every field. A module of its own because it is needed only while a set
loads: a device drops it after (firmware/installed_sets.py), and its code leaves a small
board's heap."""

from array import array

from core.meldset import (
    FORMAT_VERSION,
    HEADER_SIZE,
    MAGIC,
    MAX_MELDS,
    MAX_POSITIONS,
    MeldSetError,
    crc32,
)

# A degree code without its optional bit -> 0 where no vocabulary degree (core/degrees.py) has
# it, else 1 + its semitones above the root in the octave (tests/core/test_meldset.py derives
# it from the vocabulary). Written out, a boot's set check does not import
# core.degrees, which the first frame does not need (about 10 ms of the QT Py's power-up).
CODES = (b"\x00\x00\x00\x00\x00\x00\x00\x0a\x00\x00\x00\x00\x00\x00\x00\x00"
         b"\x00\x00\x02\x04\x00\x07\x09\x0b\x00\x02\x00\x00\x00\x00\x00\x00"
         b"\x00\x01\x03\x05\x06\x08\x0a\x0c\x01\x03\x00\x06\x00\x0a\x00\x00"
         b"\x00\x00\x04\x00\x07\x09\x00\x00\x00\x04\x00\x07\x00\x00\x00\x00") + bytes(64)
OPTIONAL = 0x80                       # core.degrees.OPTIONAL
_ROOT_CODE = 0x21                     # core.degrees.encode(1, 0): a required 1


def _u16(data, at):
    return data[at] | (data[at + 1] << 8)


def _u32(data, at):
    return data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24)


def checked(blob, source=None):
    """(set name, offsets, required masks, optional masks) of blob `blob` (bytes), every field
    checked; MeldSetError (naming `source`) for anything that is not a whole, valid set."""
    problem = _check_header(blob)
    if problem:
        raise MeldSetError([("", problem)], source)
    count = blob[5]
    codes = CODES
    offsets = array("H")
    required = array("H")
    optional = array("H")
    at = HEADER_SIZE
    end = len(blob)
    try:
        name_len = blob[at]
        name = str(blob[at + 1:at + 1 + name_len], "utf-8")
        at += 1 + name_len
        for i in range(count):
            offsets.append(at)
            at, req, opt = _check_meld(blob, at, end, i, codes)
            required.append(req)
            optional.append(opt)
    except (IndexError, UnicodeError) as err:
        raise MeldSetError([("", "damaged meld set (%s)" % err)], source) from None
    except ValueError as err:
        raise MeldSetError([("", "damaged meld set: %s" % err)], source) from None
    if at != end:
        raise MeldSetError([("", "damaged meld set (%d stray bytes)" % (end - at))], source)
    return name, offsets, required, optional


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
    optional mask (sectors not also required)). `codes`: CODES. Run for every
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
    optional_bit = OPTIONAL
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
