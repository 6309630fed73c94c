"""Where the firmware keeps its records: the settings, the crash count and the log. One store,
made by the board's port (firmware/ports/) and passed to whoever keeps a record:

    read(name) -> bytes or None    write(name, data)    log(line)

FileRecords keeps them as files on the flash (littlefs on MicroPython, the simulator's folder),
each written atomically (firmware/storage.py), the log bounded (firmware/log.py).
CircuitPython's store keeps them in its microcontroller.nvm (firmware/ports/circuitpython.py;
firmware/nvm_records.py says why), so only that port loads it."""

from firmware import storage

# The key byte of each record in the nvm log (never reused: a key names its record across
# firmware updates). The table modes' kept state (firmware/modes/__init__.py: KeepsTable).
RECORD_KEYS = {"settings.json": 1, "crashes.txt": 2, "drive_choice": 3, "score.txt": 4,
               "hand.txt": 5, "poker.txt": 6, "meld_check.txt": 7, "looking_glass.txt": 8,
               "bluff.txt": 9, "steps.txt": 10, "alphabet.txt": 11, "key_speller.txt": 12}


class FileRecords:
    def read(self, name):
        return storage.read_recovering(name)

    def write(self, name, data):
        storage.write_atomic(name, data)

    def log(self, line):
        from firmware import log          # loaded on the first message, not at boot
        log.write(line)

