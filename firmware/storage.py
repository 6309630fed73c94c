"""Files on the device's flash: written to a temporary name, then renamed over the old one,
so a power cut mid-write leaves the old file or the new one, never half. On littlefs the
rename is atomic; on FAT (MicroPython's and CircuitPython's extmod/vfs_fat.c) rename removes
the old file first, so a cut between the two leaves only the complete temporary file, which
read_recovering() finds.

Records (the settings, the crash count: written every boot and after the knob rests) go through
read_record() and write_record(): files like the above, except on CircuitPython, whose drive is
FAT that a cut mid-write can wipe (firmware/nvm_records.py): there they go to the nvm, and the
firmware writes nothing on the drive in normal running."""

import os

RECORD_KEYS = {"settings.json": 1, "crashes.txt": 2}
_nvm_records = None             # a NvmRecords once keep_records_in_nvm() ran


def keep_records_in_nvm(nvm):
    """From now on, records live in `nvm` (CircuitPython's microcontroller.nvm)."""
    global _nvm_records
    from firmware.nvm_records import NvmRecords
    _nvm_records = NvmRecords(nvm, RECORD_KEYS)


def drive_is_kept_still():
    """True where the firmware must not write the drive in normal running (CircuitPython)."""
    return _nvm_records is not None


def read_record(path):
    """A record's bytes, or None. In the nvm, else (or, after an update from a firmware that
    kept them on the drive, also) the file."""
    if _nvm_records is not None:
        data = _nvm_records.read(path)
        if data is not None:
            return data
    return read_recovering(path)


def write_record(path, data):
    if _nvm_records is not None:
        _nvm_records.write(path, data)
    else:
        write_atomic(path, data)


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
