"""The crash counter: boots that did not run STABLE_MS before stopping. Safe mode starts at
CRASH_LIMIT. A tiny module on its own, because the app keeps it for its whole run."""

from firmware import storage

CRASH_PATH = "crashes.txt"
CRASH_LIMIT = 3
STABLE_MS = 10000


def count():
    raw = storage.read_recovering(CRASH_PATH)
    try:
        return int(raw) if raw else 0
    except ValueError:
        return 0


def set_count(value):
    try:
        storage.write_atomic(CRASH_PATH, str(value).encode())
    except OSError:
        pass
