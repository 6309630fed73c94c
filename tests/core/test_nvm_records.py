"""The records log in CircuitPython's nvm (firmware/nvm_records.py): appends only program
erased bytes, a cut mid-append keeps the earlier records, only a full log is erased."""

from firmware.nvm_records import NvmRecords, fingerprint

KEYS = {"settings.json": 1, "crashes.txt": 2}


class Nor:
    """One flash sector as CircuitPython's RP2040 nvm writes it: into erased bytes a write is
    programmed (bits only cleared), else the sector is erased and written whole. `cut_after`
    bytes into the next program the power goes (only that many bytes reach the chip, in
    address order); `cut_in_erase`: it goes while the sector is being erased."""

    def __init__(self, size=256):
        self.data = bytearray(b"\xff" * size)
        self.erases = 0
        self.cut_after = None
        self.cut_in_erase = False

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return self.data[index]

    def __setitem__(self, index, value):
        start, stop = index.start, index.stop
        assert stop - start == len(value)
        if self.data[start:stop] != b"\xff" * len(value):
            self.erases += 1
            for i in range(len(self.data)):
                self.data[i] = 0xFF
            if self.cut_in_erase:
                raise OSError("power cut")
        count = len(value) if self.cut_after is None else self.cut_after
        for i in range(count):
            self.data[start + i] &= value[i]
        if self.cut_after is not None:
            raise OSError("power cut")


def test_records_read_back_after_a_restart():
    nor = Nor()
    records = NvmRecords(nor, KEYS)
    assert records.read("settings.json") is None
    records.write("settings.json", b'{"root": 3}')
    records.write("crashes.txt", b"1")
    records.write("crashes.txt", b"0")
    again = NvmRecords(nor, KEYS)
    assert again.read("settings.json") == b'{"root": 3}'
    assert again.read("crashes.txt") == b"0"
    assert nor.erases == 0
    # 3 records of 7 bytes' overhead: the next one goes right after them.
    assert again.end == 3 * 7 + 11 + 1 + 1


def test_only_a_full_log_is_erased_and_it_keeps_the_latest_of_each():
    nor = Nor(size=64)
    records = NvmRecords(nor, KEYS)
    records.write("crashes.txt", b"2")
    erases = []
    for root in range(6):                   # 8 + 3 x 18 bytes fill it; the fourth is erased
        records.write("settings.json", ('{"root": %d}' % root).encode())
        erases.append(nor.erases)
    # The erase keeps the count, the old settings and the new (8 + 18 + 18 = 44 bytes).
    assert erases == [0, 0, 0, 1, 1, 2]
    again = NvmRecords(nor, KEYS)
    assert again.read("settings.json") == b'{"root": 5}'
    assert again.read("crashes.txt") == b"2"


def test_a_cut_in_the_rewrite_after_the_old_value_keeps_it():
    nor = Nor(size=64)
    records = NvmRecords(nor, KEYS)
    records.write("crashes.txt", b"2")
    for root in range(3):
        records.write("settings.json", ('{"root": %d}' % root).encode())
    nor.cut_after = 8 + 18 + 5              # the count and the old value written, not the new
    try:
        records.write("settings.json", b'{"root": 7}')
    except OSError:
        pass
    nor.cut_after = None
    assert NvmRecords(nor, KEYS).read("settings.json") == b'{"root": 2}'
    nor.cut_in_erase = True                 # the one window that loses them
    try:
        NvmRecords(nor, KEYS).write("settings.json", b'{"root": 8}')
    except OSError:
        pass
    assert NvmRecords(nor, KEYS).read("settings.json") is None


def test_a_cut_anywhere_in_an_append_keeps_the_old_record_or_the_new():
    new = b'{"root": 7}'
    for cut in range(len(new) + 7 + 1):
        nor = Nor()
        NvmRecords(nor, KEYS).write("settings.json", b'{"root": 4}')
        nor.cut_after = cut
        try:
            NvmRecords(nor, KEYS).write("settings.json", new)
        except OSError:
            pass
        nor.cut_after = None
        after = NvmRecords(nor, KEYS)
        found = after.read("settings.json")
        assert found == (new if cut == len(new) + 7 else b'{"root": 4}'), (cut, found)
        if 0 < cut < len(new) + 7:
            assert after.end is None         # the torn record: the next write compacts
        after.write("settings.json", b'{"root": 9}')
        assert NvmRecords(nor, KEYS).read("settings.json") == b'{"root": 9}'


def test_anything_but_records_reads_as_nothing_and_is_replaced():
    nor = Nor()
    nor.data[0:5] = b"hello"
    records = NvmRecords(nor, KEYS)
    assert records.read("settings.json") is None and records.end is None
    records.write("crashes.txt", b"1")
    assert NvmRecords(nor, KEYS).read("crashes.txt") == b"1" and nor.erases == 1
    # A record whose check does not match is not taken either.
    nor.data[6] ^= 0x01
    assert NvmRecords(nor, KEYS).read("crashes.txt") is None


def test_a_record_too_big_for_the_sector_is_refused():
    records = NvmRecords(Nor(size=32), KEYS)
    try:
        records.write("settings.json", b"x" * 26)
    except OSError as err:
        assert "more than the nvm holds" in str(err)
    else:
        raise AssertionError("no error")


def test_a_fingerprint_changes_with_the_file():
    assert fingerprint(b'{"meldset": "jazz"}') != fingerprint(b'{"meldset": "jizz"}')
    assert fingerprint(b"ab") != fingerprint(b"ba")
    assert fingerprint(b'{"meldset": "jazz"}') == fingerprint(b'{"meldset": "jazz"}')
    assert 0 < fingerprint(b"x" * 20000) < (1 << 30)
