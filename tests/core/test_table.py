"""The table log (core/table.py): entries and their bytes, the replay order whatever the
arrival order, duplicates, a new game, the digest. Runs under pytest and the MicroPython unix
port."""

from core import table
from core.games.rng import Rng
from core.table import (
    DISCARD,
    EAT,
    MELD,
    NEW_GAME,
    NEXT,
    PILE_START,
    PILE_TAKEN,
    ROUND,
    SCORE,
    UNDO,
    Log,
    TableError,
)

from expect import raises

ONE_OF_EACH = [
    (1, 0, 1, 0, NEW_GAME, (0, 3, 2)),
    (2, 1, 1, 1, MELD, ("maj7", 0, 1, b"\x00\x04\x07\x0b", 7)),
    (3, 2, 1, 2, MELD, ("", 15, 2, b"", 10)),
    (4, 0, 2, 0, EAT, (1, 1, "13", 1)),
    (5, 1, 2, 1, SCORE, (10, 7)),
    (6, 2, 2, 2, NEXT, ()),
    (7, 0, 3, 0, DISCARD, (11,)),
    (8, 1, 3, 1, PILE_START, (4,)),
    (9, 2, 3, 2, PILE_TAKEN, ()),
    (10, 0, 4, 0, ROUND, (2,)),
    (300, 3, 200, 1, UNDO, (2, 1)),
]


def filled(entries):
    log = Log()
    for entry in entries:
        log.add(entry)
    return log


def test_every_entry_round_trips_through_its_bytes():
    for entry in ONE_OF_EACH:
        body = table.encode(entry)
        assert table.decode(body) == (entry, len(body))
        assert table.entry_from_bytes(table.entry_bytes(entry)) == entry
    # Small: a turn passed is 3 bytes, a 4-card meld 13.
    assert len(table.encode(ONE_OF_EACH[5])) == 3
    assert len(table.encode(ONE_OF_EACH[1])) == 13


def test_the_replay_order_is_the_same_whatever_the_arrival_order():
    log = filled(ONE_OF_EACH)
    expected = [log.entry(k) for k in range(len(log))]
    assert expected == ONE_OF_EACH[:1] + sorted(ONE_OF_EACH[1:])
    rng = Rng(46)
    for _ in range(20):
        arrival = ONE_OF_EACH[1:]
        rng.shuffle(arrival)
        other = filled(ONE_OF_EACH[:1] + arrival)
        assert [other.entry(k) for k in range(len(other))] == expected
        assert other.digest() == log.digest() and other.to_bytes() == log.to_bytes()
    # One entry more or less, or another order of bytes: another digest.
    assert filled(ONE_OF_EACH[:-1]).digest() != log.digest()


def test_a_duplicate_changes_nothing_and_ids_find_entries():
    log = filled(ONE_OF_EACH)
    before = log.to_bytes()
    assert log.add(ONE_OF_EACH[3]) == -1 and log.to_bytes() == before
    assert log.find(1, 2) == 4 and log.find(1, 9) == -1
    assert log.clock == 300
    made = log.made(1, 1, NEXT, ())
    assert made[:3] == (301, 1, 4)                # 1 + the highest clock, the next seq
    assert log.seen(1) == 3 and log.seen(3) == 0      # origin 3 misses seqs 1..199


def test_a_new_game_leaves_the_older_entries_behind():
    log = filled(ONE_OF_EACH[:6])
    game = (20, 2, 3, 2, NEW_GAME, (1, 2, 0))
    assert log.add(game) == 0 and len(log) == 1
    assert log.base == [2, 2, 2, 0]
    assert log.next_seq(0) == 3 and log.seen(0) == 2
    # An entry older than the game arrives: dropped, its seq counted as seen.
    assert log.add((7, 0, 3, 0, DISCARD, (11,))) == -1 and len(log) == 1
    assert log.base[0] == 3
    copy = table.from_bytes(log.to_bytes())
    assert copy.base == log.base and copy.digest() == log.digest()


def test_bad_bytes_are_named():
    body = table.encode(ONE_OF_EACH[1])
    assert raises(TableError, table.decode, body[:-1]).args[0] == "an entry runs past the end"
    assert raises(TableError, table.entry_from_bytes, b"\x03" + body).args[0] == (
        "entry format 3: this firmware reads 2")
    assert raises(TableError, table.entry_from_bytes, b"\x02" + body + b"\x00").args[0] == (
        "1 bytes after the entry")
    assert raises(TableError, table.decode, b"\xf0\x01\x01").args[0] == "no entry kind 15"
    log = filled(ONE_OF_EACH)
    data = log.to_bytes()
    out_of_order = data[:5] + table.encode(ONE_OF_EACH[2]) + table.encode(ONE_OF_EACH[1])
    assert raises(TableError, table.from_bytes, out_of_order).args[0] == (
        "table log entry 2: out of order")
    assert raises(TableError, table.encode, (1, 4, 1, 0, NEXT, ())).args[0].startswith(
        "entry origin 4")
    assert raises(TableError, table.encode, (1, 0, 1, 0, MELD, ("x" * 25, 0, 1, b"", 2)))
