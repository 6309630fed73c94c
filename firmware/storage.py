"""Files on the device's flash: written to a temporary name, then renamed over the old one,
so a power cut mid-write leaves the old file or the new one, never half. On littlefs the
rename is atomic; on FAT (MicroPython's and CircuitPython's extmod/vfs_fat.c) rename removes
the old file first, so a cut between the two leaves only the complete temporary file, which
read_recovering() finds.

Records (the settings, the crash count, the log) go through a store (firmware/records.py).
"""

import os


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def write_atomic(path, data):
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        f.write(data)
    os.rename(temporary, path)
    if hasattr(os, "sync"):
        os.sync()          # CircuitPython caches FAT sectors: put the new file on the flash now


def read_recovering(path):
    """The file's bytes; the finished temporary copy if only that survived; else None."""
    for candidate in (path, path + ".tmp"):
        try:
            with open(candidate, "rb") as f:
                return f.read()
        except OSError:
            pass
    return None


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
