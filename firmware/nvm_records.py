"""Small records (the settings, the crash count) kept in CircuitPython's microcontroller.nvm
instead of on the CIRCUITPY drive.

Why: CIRCUITPY is FAT on the chip's flash, rewritten a 4 KB flash sector at a time (erase, then
program). Any file write rewrites the sector holding the boot sector and the FAT, and one
holding the root directory: a power cut in that erase leaves no file system, and CircuitPython
formats the drive afresh at the next power-up (code, libraries and meld sets gone). The nvm is
one flash sector outside the drive, so nothing written here can touch the drive.

The sector is a log: each write appends a record into erased bytes, which CircuitPython does by
programming alone (no erase), so a cut mid-append leaves every earlier record readable. Only a
full log is erased and rewritten with the latest record of each name (compaction: once in
50 to 150 saves: 4 KB over records of 27 to 77 bytes): a cut inside that erase loses the
records, never the drive.

A record: MAGIC, key, length (2 bytes, little-endian), payload, Fletcher-16 of key, length and
payload (2 bytes), END. Erased flash reads 0xFF, which no record starts with."""

MAGIC = 0xC7
END = 0x0A
ERASED = 0xFF
OVERHEAD = 7
ERASED_CHUNK = 512


def _check(data):
    a = b = 0
    for byte in data:
        a = (a + byte) % 255
        b = (b + a) % 255
    return a, b


def fingerprint(data):
    """A small int that changes when `data` does (its length and Fletcher-16)."""
    a, b = _check(data)
    return ((len(data) & 0x3FFF) << 16) | (a << 8) | b


def _record(key, payload):
    head = bytes((key, len(payload) & 0xFF, len(payload) >> 8))
    a, b = _check(head + payload)
    return bytes((MAGIC,)) + head + payload + bytes((a, b, END))


class NvmRecords:
    """read(name) -> bytes or None; write(name, bytes). `keys` maps each name to its key byte."""

    def __init__(self, nvm, keys):
        self.nvm = nvm
        self.size = len(nvm)
        self.keys = keys
        self.latest = {}              # key -> (payload offset, length)
        self.end = self._scan()       # where the next record goes; None: compact first

    def _scan(self):
        nvm = self.nvm
        at = 0
        while at + OVERHEAD <= self.size:
            if nvm[at] == ERASED:
                return at if self._erased_from(at) else None
            head = nvm[at:at + 4]
            length = head[2] | (head[3] << 8)
            tail = at + 4 + length
            if head[0] != MAGIC or tail + 3 > self.size:
                return None               # not a record: a cut mid-append left it
            payload = nvm[at + 4:tail]
            a, b = _check(bytes(head[1:4]) + bytes(payload))
            if nvm[tail] != a or nvm[tail + 1] != b or nvm[tail + 2] != END:
                return None
            self.latest[head[1]] = (at + 4, length)
            at = tail + 3
        return at if self._erased_from(at) else None

    def _erased_from(self, at):
        """Is everything from `at` on erased (nothing half-written after the last record)?
        Read ERASED_CHUNK bytes at a time, against one blank made once: every boot asks it
        of most of the sector, and each slice of CircuitPython's nvm is a call and a fresh
        buffer."""
        blank = b"\xff" * ERASED_CHUNK
        while at < self.size:
            chunk = self.nvm[at:min(at + ERASED_CHUNK, self.size)]
            if chunk != (blank if len(chunk) == ERASED_CHUNK else blank[:len(chunk)]):
                return False
            at += ERASED_CHUNK
        return True

    def read(self, name):
        found = self.latest.get(self.keys[name])
        if found is None:
            return None
        return bytes(self.nvm[found[0]:found[0] + found[1]])

    def write(self, name, payload):
        key = self.keys[name]
        record = _record(key, payload)
        if len(record) > self.size:
            raise OSError("%s: %d bytes, more than the nvm holds" % (name, len(payload)))
        if self.end is not None and self.end + len(record) <= self.size:
            self.nvm[self.end:self.end + len(record)] = record     # programmed, not erased
            self.latest[key] = (self.end + 4, len(payload))
            self.end += len(record)
            return
        self._compact(key, record)

    def _fits(self, keys, more):
        return sum(self.latest[k][1] + OVERHEAD for k in keys) + more <= self.size

    def _compact(self, key, record):
        """Erase the sector and write the latest record of each name, this one last, after its
        old value when that fits too: the chip programs in address order, so a cut in the
        program after the old value keeps it (a cut in the erase loses them all)."""
        image = bytearray()
        latest = {}
        order = [k for k in self.latest if k != key]
        old = self.latest.get(key)
        if old is not None and self._fits(order, old[1] + OVERHEAD + len(record)):
            order.append(key)
        for other in order:
            at, length = self.latest[other]
            latest[other] = (len(image) + 4, length)
            image += _record(other, bytes(self.nvm[at:at + length]))
        latest[key] = (len(image) + 4, len(record) - OVERHEAD)
        image += record
        if len(image) > self.size:
            raise OSError("the records no longer fit the nvm (%d bytes)" % self.size)
        end = len(image)
        image += b"\xff" * (self.size - end)
        self.nvm[0:self.size] = image          # one erase and program of the whole sector
        self.latest = latest
        self.end = end
