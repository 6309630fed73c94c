"""The crash counter: boots in a row that did not run STABLE_MS before the board was reset.
Safe mode starts at CRASH_LIMIT. A tiny module on its own, because the app keeps it for its
whole run.

A boot is counted before the app is built, so a crash while building it (no meld set loads, a
MemoryError on import) counts too. A power-up starts the count afresh: the boot before it was
ended by a power cut or an unplugged cable, not by a crash (a crash ends in a watchdog or a
machine reset), so a user who unplugs during boot never lands in safe mode.

`records` is the board's record store (firmware/records.py)."""

CRASH_PATH = "crashes.txt"
CRASH_LIMIT = 3
STABLE_MS = 10000


def count(records):
    raw = records.read(CRASH_PATH)
    try:
        return int(raw) if raw else 0
    except ValueError:
        return 0


def previous(records, reset_cause):
    """Crashed boots in a row before this one ("power": none, whatever the file says)."""
    return 0 if reset_cause == "power" else count(records)


def booting(records, reset_cause):
    """This boot has begun: it counts as a crash until the app clears it once stable."""
    set_count(records, previous(records, reset_cause) + 1)


def set_count(records, value):
    try:
        records.write(CRASH_PATH, str(value).encode())
    except OSError:
        pass
