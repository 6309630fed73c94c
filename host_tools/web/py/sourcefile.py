"""Kept because the page needs the command line's exact messages: MicroPython's json module
says only "syntax error in JSON" (no line, no column) and has no object_pairs_hook, so a file
the studio cannot open would be said less well than `chromawheel meldset validate` says it.
This reads a meld-set source as the laptop reads it (host_tools/set_files.py: read_bytes,
then parse_source), with the same messages.

The decoder follows CPython's json scanner (Modules/_json.c, 3.9-3.12) step by step: the same
values, the same first error at the same place ("Expecting ',' delimiter", line and column in
characters), duplicate keys and NaN/Infinity refused as set_files refuses them. It works on
the UTF-8 bytes (every JSON delimiter is ASCII) and turns a byte offset into characters only
for a message, so a long file costs no quadratic indexing on MicroPython."""

MAX_SOURCE_BYTES = 1 << 20
WHITESPACE = b" \t\n\r"
_ESCAPES = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n", 0x72: "\r",
            0x74: "\t"}
_HEX = b"0123456789abcdefABCDEF"
# CPython stops near its recursion limit (about 980 levels from the command line); the page's
# MicroPython has a far smaller C stack, so it stops sooner (a meld set nests 4 deep).
MAX_DEPTH = 50


class SourceError(ValueError):
    """One line: what set_files would have raised as a UserError."""


class _DecodeError(Exception):
    def __init__(self, msg, pos):
        self.msg = msg
        self.pos = pos


class _StopAt(Exception):
    """CPython's StopIteration(idx): becomes "Expecting value" at idx."""

    def __init__(self, pos):
        self.pos = pos


def utf8_error(data):
    """Index of the first byte that starts an invalid UTF-8 sequence (CPython's
    UnicodeDecodeError.start), or -1 when the bytes are good UTF-8."""
    i = 0
    n = len(data)
    while i < n:
        b = data[i]
        if b < 0x80:
            i += 1
            continue
        if 0xC2 <= b <= 0xDF:
            need, low, high = 1, 0x80, 0xBF
        elif b == 0xE0:
            need, low, high = 2, 0xA0, 0xBF
        elif b == 0xED:
            need, low, high = 2, 0x80, 0x9F
        elif 0xE1 <= b <= 0xEF:
            need, low, high = 2, 0x80, 0xBF
        elif b == 0xF0:
            need, low, high = 3, 0x90, 0xBF
        elif 0xF1 <= b <= 0xF3:
            need, low, high = 3, 0x80, 0xBF
        elif b == 0xF4:
            need, low, high = 3, 0x80, 0x8F
        else:
            return i
        if i + 1 >= n or not low <= data[i + 1] <= high:
            return i
        for k in range(2, need + 1):
            if i + k >= n or not 0x80 <= data[i + k] <= 0xBF:
                return i
        i += need + 1
    return -1


class _Decoder:
    def __init__(self, data):
        self.s = data
        self.n = len(data)

    def skip(self, idx):
        s = self.s
        n = self.n
        while idx < n and s[idx] in WHITESPACE:
            idx += 1
        return idx

    def value(self, idx, depth):
        s = self.s
        n = self.n
        if idx >= n:
            raise _StopAt(idx)
        c = s[idx]
        if c == 0x22:
            return self.string(idx + 1)
        if c == 0x7B:
            self._deeper(depth, "object")
            return self.obj(idx + 1, depth + 1)
        if c == 0x5B:
            self._deeper(depth, "array")
            return self.array(idx + 1, depth + 1)
        if c == 0x6E and idx + 3 < n and s[idx:idx + 4] == b"null":
            return None, idx + 4
        if c == 0x74 and idx + 3 < n and s[idx:idx + 4] == b"true":
            return True, idx + 4
        if c == 0x66 and idx + 4 < n and s[idx:idx + 5] == b"false":
            return False, idx + 5
        if c == 0x4E and idx + 2 < n and s[idx:idx + 3] == b"NaN":
            raise SourceError("NaN is not valid JSON")
        if c == 0x49 and idx + 7 < n and s[idx:idx + 8] == b"Infinity":
            raise SourceError("Infinity is not valid JSON")
        if c == 0x2D and idx + 8 < n and s[idx:idx + 9] == b"-Infinity":
            raise SourceError("-Infinity is not valid JSON")
        return self.number(idx)

    def _deeper(self, depth, what):
        if depth >= MAX_DEPTH:
            raise SourceError("maximum recursion depth exceeded while decoding a JSON %s "
                              "from a unicode string" % what)

    def number(self, start):
        s = self.s
        end = self.n - 1
        idx = start
        is_float = False
        if s[idx] == 0x2D:
            idx += 1
            if idx > end:
                raise _StopAt(start)
        if 0x31 <= s[idx] <= 0x39:
            idx += 1
            while idx <= end and 0x30 <= s[idx] <= 0x39:
                idx += 1
        elif s[idx] == 0x30:
            idx += 1
        else:
            raise _StopAt(start)
        if idx < end and s[idx] == 0x2E and 0x30 <= s[idx + 1] <= 0x39:
            is_float = True
            idx += 2
            while idx <= end and 0x30 <= s[idx] <= 0x39:
                idx += 1
        if idx < end and s[idx] in b"eE":
            e_start = idx
            idx += 1
            if idx < end and s[idx] in b"-+":
                idx += 1
            while idx <= end and 0x30 <= s[idx] <= 0x39:
                idx += 1
            if 0x30 <= s[idx - 1] <= 0x39:
                is_float = True
            else:
                idx = e_start
        text = str(s[start:idx], "ascii")
        return (float(text) if is_float else int(text)), idx

    def string(self, end):
        """The string whose opening quote is at end - 1: (text, index after the quote)."""
        s = self.s
        n = self.n
        begin = end - 1
        chunks = []
        while True:
            c = 0
            nxt = end
            while nxt < n:
                c = s[nxt]
                if c == 0x22 or c == 0x5C:
                    break
                if c <= 0x1F:
                    raise _DecodeError("Invalid control character at", nxt)
                nxt += 1
            if not (c == 0x22 or c == 0x5C):
                raise _DecodeError("Unterminated string starting at", begin)
            if nxt > end:
                chunks.append(str(s[end:nxt], "utf-8"))
            nxt += 1
            if c == 0x22:
                end = nxt
                break
            if nxt == n:
                raise _DecodeError("Unterminated string starting at", begin)
            c = s[nxt]
            if c != 0x75:
                end = nxt + 1
                if c not in _ESCAPES:
                    raise _DecodeError("Invalid \\escape", end - 2)
                chunks.append(_ESCAPES[c])
                continue
            nxt += 1
            end = nxt + 4
            if end >= n:
                raise _DecodeError("Invalid \\uXXXX escape", nxt - 1)
            code = self._hex4(nxt, end)
            nxt = end
            if 0xD800 <= code <= 0xDBFF and end + 6 < n and s[nxt] == 0x5C \
                    and s[nxt + 1] == 0x75:
                end += 6
                low = self._hex4(nxt + 2, end)
                if 0xDC00 <= low <= 0xDFFF:
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                else:
                    end -= 6
            chunks.append(chr(code))
        return "".join(chunks), end

    def _hex4(self, at, end):
        code = 0
        for i in range(at, end):
            digit = self.s[i]
            if digit not in _HEX:
                raise _DecodeError("Invalid \\uXXXX escape", end - 5)
            code = code * 16 + int(chr(digit), 16)
        return code

    def obj(self, idx, depth):
        s = self.s
        n = self.n
        pairs = []
        idx = self.skip(idx)
        if idx >= n or s[idx] != 0x7D:
            while True:
                if idx >= n or s[idx] != 0x22:
                    raise _DecodeError("Expecting property name enclosed in double quotes",
                                       idx)
                key, idx = self.string(idx + 1)
                idx = self.skip(idx)
                if idx >= n or s[idx] != 0x3A:
                    raise _DecodeError("Expecting ':' delimiter", idx)
                idx = self.skip(idx + 1)
                val, idx = self.value(idx, depth)
                pairs.append((key, val))
                idx = self.skip(idx)
                if idx < n and s[idx] == 0x7D:
                    break
                if idx >= n or s[idx] != 0x2C:
                    raise _DecodeError("Expecting ',' delimiter", idx)
                idx = self.skip(idx + 1)
        result = {}
        for key, val in pairs:           # set_files' object_pairs_hook, at the object's end
            if key in result:
                raise SourceError("duplicate key %r" % key)
            result[key] = val
        return result, idx + 1

    def array(self, idx, depth):
        s = self.s
        n = self.n
        items = []
        idx = self.skip(idx)
        if idx >= n or s[idx] != 0x5D:
            while True:
                val, idx = self.value(idx, depth)
                items.append(val)
                idx = self.skip(idx)
                if idx < n and s[idx] == 0x5D:
                    break
                if idx >= n or s[idx] != 0x2C:
                    raise _DecodeError("Expecting ',' delimiter", idx)
                idx = self.skip(idx + 1)
        return items, idx + 1


def _line_column(data, pos):
    """CPython's JSONDecodeError lineno and colno for byte offset `pos`, in characters."""
    line = data.count(b"\n", 0, pos) + 1
    start = data.rfind(b"\n", 0, pos) + 1
    column = 1
    for b in data[start:pos]:
        if b & 0xC0 != 0x80:             # a character starts at every non-continuation byte
            column += 1
    return line, column


def loads(data):
    """json.loads of UTF-8 bytes with set_files' hooks; _DecodeError or SourceError."""
    if data[:3] == b"\xef\xbb\xbf":
        raise _DecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
    decoder = _Decoder(data)
    idx = decoder.skip(0)
    try:
        obj, end = decoder.value(idx, 0)
    except _StopAt as stop:
        raise _DecodeError("Expecting value", stop.pos) from None
    end = decoder.skip(end)
    if end != len(data):
        raise _DecodeError("Extra data", end)
    return obj


def parse_source(data, path):
    """set_files.read_bytes' size check, then set_files.parse_source: the decoded source, or
    SourceError with the line the command line prints (after "error: ")."""
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceError("%s: larger than %d bytes" % (path, MAX_SOURCE_BYTES))
    bad = utf8_error(data)
    if bad >= 0:
        raise SourceError("%s: not UTF-8 text (byte %d)" % (path, bad))
    try:
        return loads(data)
    except _DecodeError as err:
        line, column = _line_column(data, err.pos)
        raise SourceError("%s: line %d, column %d: %s" % (path, line, column, err.msg)) from None
    except SourceError as err:
        raise SourceError("%s: %s" % (path, err)) from None
