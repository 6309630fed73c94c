"""One way to talk to a board: a Target holds a board's files and answers the firmware's
maintenance requests; sync() makes it hold a list of files. `deploy`, `meldset flash`, `list`
and `remove` are a sync and a call each (host_tools/device/deploy.py, sets.py), on any Target.

A Target (a context manager: opened once, closed on leaving):

    target.name                  what to call it in a message (the port, the drive's path)
    target.hashes(dirs, extra)   {path: hash} of every file under the folders `dirs` and of the
                                 paths `extra` that exist (a hash in the form digest() matches)
    target.read(path)            the file's bytes, or None when there is none
    target.write(path, data)     folders made, written to path.tmp and renamed over path, so a
                                 cut leaves the old file or the new one
    target.remove(path)          the file gone (nothing when it was not there)
    target.call(request, *args)  the device's answer (a dict) to a request of
                                 firmware/maintenance.py: "state", "sets", "use" NAME,
                                 "remove" NAME; a refusal is a UserError in the device's words
    target.done()                the board back to its app (a serial board: one reset)

SerialTarget(port): a MicroPython board on a serial port (a real one, the virtual board, the
emulated Pico), through mpremote's transport (host_tools/device/link.py): files with its fs_*
calls, the request as one line of Python that only imports firmware.maintenance and hands it
the request as a JSON string. The port is opened once. maintenance=True (deploy) first resets
the board into maintenance (no app, no watchdog) for a long copy.

DriveTarget(folder): a CircuitPython board's mounted CIRCUITPY drive (or any folder laid out
as a board's flash): plain file operations; its requests are answered on the laptop by the
same loader the board runs, and a chosen set is asked for through settings.json as the
CircuitPython port reads it (firmware/ports/circuitpython.py).

The page's flasher (host_tools/web/site/flasher.js) runs the same steps and the same request
line over Web Serial."""

import binascii
import hashlib
import json
import os

from host_tools.errors import UserError


def digest(data, like=None):
    """The hash of `data` in the form the target gave (`like`): sha256, or size and crc32 where
    the device has no hashlib."""
    if like is not None and like.startswith("crc32:"):
        return "crc32:%d:%08x" % (len(data), binascii.crc32(data) & 0xFFFFFFFF)
    return hashlib.sha256(data).hexdigest()


# What a host runs on the device for a maintenance request, %s the request as a JSON string
# (a JSON string literal is a Python one): nothing in the request is ever executed.
CALL = "from firmware import maintenance\nmaintenance.answer(%s)"


def call_line(request, *args):
    """The line for a request (flasher.js builds the same from CALL)."""
    return CALL % json.dumps(json.dumps([request] + list(args)))


def answered(name, answer):
    """A maintenance answer's fields, or the device's refusal as a UserError."""
    if not isinstance(answer, dict) or "ok" not in answer:
        raise UserError("%s: unexpected answer from the device: %r" % (name, answer))
    if not answer["ok"]:
        raise UserError("%s: the device says: %s" % (name, answer.get("error")))
    return answer


def sync(files, target, stale_dirs=(), progress=print, before_writing=None):
    """Make `target` hold `files` ([(path, bytes)]): each file whose hash differs is written,
    each file under `stale_dirs` that is not among them removed, then everything read back by
    hash. before_writing() runs once, only when something is to change. A report dict."""
    wanted = dict(files)
    dirs = sorted(set(p.split("/")[0] for p in wanted if "/" in p) | set(stale_dirs))
    extra = sorted(p for p in wanted if "/" not in p)
    before = target.hashes(dirs, extra)
    changed = [(p, d) for p, d in files if before.get(p) != digest(d, before.get(p))]
    stale = sorted(p for p in before if p.split("/")[0] in stale_dirs and p not in wanted)
    sent = 0
    if changed or stale:
        if before_writing is not None:
            before_writing()
        total = max(1, sum(len(d) for _, d in changed))      # an empty file changes too
        for number, (path, data) in enumerate(changed, 1):
            progress("[%2d/%d] %-34s %6d bytes  (%3d%% of %d bytes)" % (
                number, len(changed), path, len(data), 100 * (sent + len(data)) // total,
                total))
            target.write(path, data)
            sent += len(data)
        for path in stale:
            progress("removing %s" % path)
            target.remove(path)
        after = target.hashes(dirs, extra)
        wrong = [p for p, d in files if after.get(p) != digest(d, after.get(p))]
        if wrong:
            raise UserError("%s: %d files did not verify (%s); the board keeps what it had "
                            "where it could: run it again" % (target.name, len(wrong),
                                                              ", ".join(wrong[:5])))
    return {"files": len(files), "sent": len(changed), "bytes_sent": sent, "removed": stale}


class SerialTarget:
    def __init__(self, port, maintenance=False):
        self.name = port
        self.maintenance = maintenance
        self.link = None

    def __enter__(self):
        from host_tools.device.link import DeviceLink
        self.link = DeviceLink(self.name).__enter__()
        return self

    def __exit__(self, *exc):
        if self.link is not None:
            self.link.close()

    def info(self):
        return self.link.info()

    def enter_maintenance(self):
        """A reset into maintenance (no app, no watchdog): for a copy longer than the app's
        watchdog allows. The next reset starts the app."""
        if not self.maintenance:
            self.link.enter_maintenance()
            self.maintenance = True

    def hashes(self, dirs, extra=()):
        return self.link.hashes(dirs, extra)

    def read(self, path):
        return self.link.read(path)

    def write(self, path, data):
        self.link.makedirs(path)
        self.link.write_atomic(path, data)

    def remove(self, path):
        self.link.remove(path)

    def call(self, request, *args):
        return answered(self.name, self.link.run_json(call_line(request, *args)))

    def done(self):
        """The board reset into its app (its only reset unless maintenance was entered)."""
        if self.maintenance:
            self.link.leave_maintenance()
        self.link.restart()

    def done_and_listen(self, until):
        """done(), then the first line the firmware prints that satisfies `until` (or None;
        link.failure then holds a traceback it died of)."""
        if self.maintenance:
            self.link.leave_maintenance()
        return self.link.reset_and_listen(until)


class DriveTarget:
    def __init__(self, folder):
        self.name = folder
        self.folder = folder

    def __enter__(self):
        from host_tools.device.drive import check_drive
        check_drive(self.folder)
        return self

    def __exit__(self, *exc):
        pass

    def _path(self, path):
        return os.path.join(self.folder, *path.split("/"))

    def hashes(self, dirs, extra=()):
        found = {}
        for folder in dirs:
            for here, subdirs, names in os.walk(self._path(folder)):
                subdirs.sort()
                for name in sorted(names):
                    rel = os.path.relpath(os.path.join(here, name), self.folder)
                    found[rel.replace(os.sep, "/")] = digest(self.read(rel.replace(os.sep, "/")))
        for path in extra:
            data = self.read(path)
            if data is not None:
                found[path] = digest(data)
        return found

    def read(self, path):
        try:
            with open(self._path(path), "rb") as f:
                return f.read()
        except OSError:
            return None

    def write(self, path, data):
        from host_tools.device.drive import write_file
        write_file(self.folder, path, data)

    def remove(self, path):
        from host_tools.device.drive import drive_problem
        try:
            os.remove(self._path(path))
        except FileNotFoundError:
            pass
        except OSError as err:
            raise drive_problem(self.folder, err, "removing " + path) from err

    def call(self, request, *args):
        from host_tools.device import drive
        if request not in drive.REQUESTS:
            raise UserError("%s: no such request %r" % (self.name, request))
        return dict(drive.REQUESTS[request](self, *args), ok=True)

    def done(self):
        if hasattr(os, "sync"):
            os.sync()                    # the drive may be pulled out right after

