"""Where the firmware keeps its records: the settings, the crash count and the log. One store,
made by the board's port (firmware/ports/) and passed to whoever keeps a record:

    read(name) -> bytes or None    write(name, data)    log(line)

FileRecords keeps them as files on the flash (littlefs on MicroPython, the simulator's folder),
each written atomically (firmware/storage.py), the log bounded (firmware/log.py).
NvmRecordStore keeps them in CircuitPython's microcontroller.nvm (firmware/nvm_records.py says
why: a cut mid-write on the FAT drive can wipe it), and the log goes to the console only."""

from firmware import storage

# The key byte of each record in the nvm log.
RECORD_KEYS = {"settings.json": 1, "crashes.txt": 2, "drive_choice": 3}


class FileRecords:
    def read(self, name):
        return storage.read_recovering(name)

    def write(self, name, data):
        storage.write_atomic(name, data)

    def log(self, line):
        from firmware import log          # loaded on the first message, not at boot
        log.write(line)


class NvmRecordStore:
    """The firmware writes nothing on the drive in normal running."""

    def __init__(self, nvm):
        from firmware.nvm_records import NvmRecords
        self._nvm = NvmRecords(nvm, RECORD_KEYS)

    def read(self, name):
        """The nvm's record, else (after an update from a firmware that kept them on the
        drive) the file."""
        data = self._nvm.read(name)
        return data if data is not None else storage.read_recovering(name)

    def write(self, name, data):
        self._nvm.write(name, data)

    def log(self, line):
        print(line)
