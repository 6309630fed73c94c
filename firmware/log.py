"""A small, bounded log file on flash: at most two files of LOG_LIMIT bytes. The file record
store writes here (firmware/records.py); CircuitPython's, whose FAT drive a cut mid-write can
wipe, keeps the lines on the console only."""

import os
import sys

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


def exception_text(where, err):
    """An exception with its traceback's last lines, for a record store's log()."""
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
    return text
