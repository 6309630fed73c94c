"""Where the firmware keeps its records: the settings, the crash count and the log. One store,
made by the board's port (firmware/ports/) and passed to whoever keeps a record:

    read(name) -> bytes or None    write(name, data)    log(line)

FileRecords keeps them as files on the flash (littlefs on MicroPython, the simulator's folder),
the log bounded (firmware/log.py). CircuitPython's store keeps them in its microcontroller.nvm
(firmware/ports/circuitpython.py; firmware/nvm_records.py says why), so only that port loads it.

Files on the flash (the functions below, used by the store, safe mode and CircuitPython's port)
are written to a temporary name, then renamed over the old one, so a power cut mid-write leaves
the old file or the new one, never half (the store writes in place where the root is littlefs,
which keeps a file whole by itself). On littlefs the rename is atomic; on FAT (MicroPython's
and CircuitPython's extmod/vfs_fat.c) rename removes the old file first, so a cut between the
two leaves only the complete temporary file, which read_recovering() finds. (One module with the
store: each module is about 14 ms of the Pico's power-up.)"""

import os

# Paths on the flash a boot needs (firmware/layout.py gathers them with the rest for the laptop's
# tools): the meld sets' folder, melds/NAME.cwm (firmware/installed_sets.py), and the flag the
# laptop writes just before it resets the board for a deploy: the boot after that reset runs
# without the app and without the watchdog (firmware/safemode.py).
MELD_DIR = "melds"
SET_SUFFIX = ".cwm"
DEFAULT_SET = "default"
MAINTENANCE_PATH = "maintenance"

# The key byte of each record in the nvm log (never reused: a key names its record across
# firmware updates). The table modes' kept state (firmware/modes/kept.py: KeepsTable).
RECORD_KEYS = {"settings.json": 1, "crashes.txt": 2, "drive_choice": 3, "score.txt": 4,
               "hand.txt": 5, "poker.txt": 6, "meld_check.txt": 7, "looking_glass.txt": 8,
               "bluff.txt": 9, "steps.txt": 10, "alphabet.txt": 11, "key_speller.txt": 12,
               "table.log": 13}


# Where the records live (the root) is littlefs: MicroPython's rp2 port, and esp32's by
# default. Not on FAT, the unix and web ports' host files or CircuitPython, where a temporary
# copy and a rename keep a write whole. Found once, at import (no code kept for it).
try:
    import vfs as _vfs  # (CircuitPython has none)
    IN_PLACE = any(isinstance(fs, _vfs.VfsLfs2) for fs, at in _vfs.mount() if at == "/")
    del _vfs
except (ImportError, AttributeError, TypeError, OSError):
    IN_PLACE = False


class FileRecords:
    def read(self, name):
        return read_recovering(name)

    def write(self, name, data):
        if IN_PLACE:
            # littlefs commits a file's new contents whole when it is closed (a power cut
            # before that leaves the old ones), so the temporary copy buys nothing there. It
            # costs: the crash count is written at every boot, and each temporary file and
            # rename is one more commit in the root folder's log, which every module lookup
            # reads through, and which then has to be compacted (a flash erase) three times
            # as often, in the middle of a boot.
            with open(name, "wb") as f:
                f.write(data)
        else:
            write_atomic(name, data)

    def log(self, line):
        from firmware import log  # loaded on the first message, not at boot
        log.write(line)


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
