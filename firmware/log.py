"""A small, bounded log file on flash: at most two files of LOG_LIMIT bytes. Not on
CircuitPython, whose FAT drive a cut mid-write can wipe (firmware/storage.py): there the
console (and the REPL) has the lines."""

import os
import sys

from firmware import storage

LOG_PATH = "log.txt"
OLD_LOG_PATH = "log.old.txt"
LOG_LIMIT = 4096


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def write(line):
    """Append a line (and print it on the console); never raises."""
    print(line)
    if storage.drive_is_kept_still():
        return
    try:
        if _size(LOG_PATH) + len(line) > LOG_LIMIT:
            try:
                os.remove(OLD_LOG_PATH)
            except OSError:
                pass
            os.rename(LOG_PATH, OLD_LOG_PATH)
        with open(LOG_PATH, "a") as f:
            f.write(line + "\n")
    except OSError:
        pass


def exception(where, err):
    """Log an exception with its traceback, bounded like every other line."""
    text = "%s: %s: %s" % (where, type(err).__name__, err)
    try:
        import io
        buf = io.StringIO()
        if hasattr(sys, "print_exception"):
            sys.print_exception(err, buf)
        else:
            import traceback
            traceback.print_exception(type(err), err, err.__traceback__, file=buf)
        text += "\n" + buf.getvalue()[-600:]
    except Exception:
        pass
    write(text)
