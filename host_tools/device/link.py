"""A session with a device over its serial port, through mpremote's own transport (the same
code the `mpremote` command runs), so a real board and the virtual board are driven alike.

Every file is written to a temporary name and renamed, so a cut-off copy never replaces a
good file. Answers from the device are JSON, parsed, never executed."""

import contextlib
import io
import json
import os
import time

from mpremote.transport import TransportError, TransportExecError
from mpremote.transport_serial import SerialTransport

from firmware.layout import MAINTENANCE_PATH
from host_tools.errors import UserError

RECONNECT_S = 15       # a USB board takes a few seconds to come back after a reset
MISSING_PORT_S = 2     # how long a port that is not there at all may take to appear
WRITE_CHUNK = 1024
HASHES_S = 120      # a hash of every file, on a slow board
# How long a reset board may take to say it started: a board that dies says so at once (its
# traceback ends the wait).
LISTEN_S = 60
# A board on a pseudo-terminal is the virtual board or an emulated one: it runs on this
# machine's CPU, the emulated Pico at a tenth of a Pico's speed or less when the machine is
# busy. Its waits, which bound only a board that never answers, are this many times longer.
EMULATED_SLOWER = 5

# Runs on the device: hashes of files (sha256 where hashlib has it, else size + crc32).
_HASHES = """
import os, json
try:
    from hashlib import sha256
except ImportError:
    sha256 = None
from binascii import crc32, hexlify
def _h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    d = sha256() if sha256 else None
    c = 0
    n = 0
    while True:
        b = f.read(512)
        if not b:
            break
        n += len(b)
        if d:
            d.update(b)
        else:
            c = crc32(b, c)
    f.close()
    return hexlify(d.digest()).decode() if d else 'crc32:%d:%08x' % (n, c & 0xffffffff)
def _walk(d, out):
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        p = d + '/' + n if d else n
        try:
            dir = os.stat(p)[0] & 0x4000
        except OSError:
            continue
        if dir:
            _walk(p, out)
        else:
            out.append(p)
_files = []
for _d in DIRS:
    _walk(_d, _files)
for _p in _files + EXTRA:
    print(json.dumps([_p, _h(_p)]))
"""


def _port_hint(port):
    """A Windows port name given on Linux or a Mac: what the port is called here."""
    if port.upper().startswith("COM") and port[3:].isdigit():
        return (": COM%s is a Windows name; here a board is /dev/ttyACM0 or /dev/ttyUSB0 "
                "(Linux), /dev/cu.usbmodem... or /dev/cu.usbserial-... (macOS)" % port[3:])
    return ""


# Runs on the device: what it runs and reads (the page's installer sends the same).
INFO = ("import sys, json\n"
        "_i = sys.implementation\n"
        "print(json.dumps({'name': _i.name, 'version': list(_i.version[:3]),"
        " 'mpy': getattr(_i, '_mpy', 0), 'platform': sys.platform}))")


class LostConnection(UserError):
    """The device stopped answering in the middle of an exchange."""


class DeviceLink:
    def __init__(self, port):
        self.port = port
        self.slower = EMULATED_SLOWER if port.startswith("/dev/pts/") else 1
        self.transport = None
        self._made = set()         # folders made on the device in this session

    def __enter__(self):
        self._wait_for_port()
        self.connect()
        try:
            try:
                self._refuse_circuitpython()
            except LostConnection:
                # The board went from under the first exchange (the app's own stop after the
                # interrupt, a reset just asked for: CI once saw a raw paste never acknowledged
                # right after a deploy): open it again, once.
                self.close()
                time.sleep(0.5)
                self.connect()
                self._refuse_circuitpython()
        except BaseException:
            self.close()
            raise
        return self

    def _refuse_circuitpython(self):
        """CircuitPython's REPL answers too, but it has no machine module, no littlefs and a
        drive it owns: its boards are deployed by copying onto CIRCUITPY."""
        name = self.run("import sys\nprint(sys.implementation.name)").strip()
        if name == "circuitpython":
            raise UserError("%s runs CircuitPython: copy onto its CIRCUITPY drive instead, "
                            "with --drive PATH (e.g. /media/$USER/CIRCUITPY or "
                            "/Volumes/CIRCUITPY)" % self.port)

    def _wait_for_port(self):
        """A serial device that does not exist is a typo or an unplugged board: say so quickly
        (after a moment's grace for a board that is re-enumerating). Windows names its ports
        COM3, ..., no file; pyserial's URLs (rfc2217://, socket://) are no files either."""
        if os.name == "nt" or "://" in self.port:
            return
        deadline = time.time() + MISSING_PORT_S
        while not os.path.exists(self.port):
            if time.time() > deadline:
                raise UserError("%s: no such port%s (mpremote connect list shows the boards "
                                "plugged in)" % (self.port, _port_hint(self.port)))
            time.sleep(0.2)

    def __exit__(self, *exc):
        self.close()

    def connect(self, soft_reset=False, timeout=RECONNECT_S):
        """Open the port and enter the raw REPL, retrying while a board re-enumerates."""
        deadline = time.time() + timeout
        while True:
            try:
                # A read timeout, so a handshake lost during a reset is retried, not waited
                # for forever (mpremote's first read of the prompt would block).
                self.transport = SerialTransport(self.port, baudrate=115200, timeout=2)
                # A failed attempt prints what it read; this is retried, so keep it quiet.
                with contextlib.redirect_stdout(io.StringIO()):
                    self.transport.enter_raw_repl(soft_reset=soft_reset, timeout_overall=4)
                # In the session, a read waits longer on an emulated board: mpremote's
                # raw-paste handshake reads its two-byte answer once, and an emulator slowed by
                # a busy machine answered after the 2 s (CI: "could not exec command
                # (response: b'R\x01')": the answer arrived where "OK" was expected).
                self.transport.serial.timeout = 2 * self.slower
                return
            except (TransportError, OSError) as err:
                self.close()
                if time.time() > deadline:
                    raise UserError("%s: no MicroPython REPL answered (%s); is another program "
                                    "using the port?" % (self.port, _message(err))) from err
                time.sleep(0.3)

    def close(self):
        if self.transport is not None:
            try:
                if self.transport.in_raw_repl:
                    self.transport.exit_raw_repl()
                self.transport.close()
            except (TransportError, OSError):
                pass
            self.transport = None

    def run(self, code, timeout=10, on_line=None):
        """Run code on the device; its printed output as text. timeout: seconds the device
        may stay silent (mpremote's exec allows 10). on_line(text) is called with each line
        as it arrives, while the code still runs."""
        try:
            lines = _Lines(on_line) if on_line else None
            out, err = self.transport.exec_raw(code, timeout=timeout * self.slower,
                                               data_consumer=lines)
            if err:
                raise TransportExecError(out, err.decode("utf-8", "replace"))
            return (lines.text() if lines else out).decode("utf-8", "replace")
        except TransportExecError as err:
            lines = err.error_output.strip().splitlines()
            raise UserError("%s: the device raised %s" % (
                self.port, lines[-1] if lines else "?")) from err
        except (TransportError, OSError) as err:
            raise LostConnection("%s: lost the connection (%s)" % (
                self.port, _message(err))) from err

    def read(self, path):
        """A file's bytes, or None when the device has no such file."""
        try:
            if not self.transport.fs_exists(path):
                return None
            return self.transport.fs_readfile(path)
        except (TransportError, OSError) as err:
            raise UserError("%s: lost the connection (%s)" % (self.port, _message(err))) from err

    def run_json(self, code):
        out = self.run(code).strip().splitlines()
        try:
            return json.loads(out[-1])
        except (ValueError, IndexError):
            raise UserError("%s: unexpected answer from the device: %r" % (
                self.port, out[-3:])) from None

    def info(self):
        return self.run_json(INFO)

    def hashes(self, dirs, extra=()):
        code = "DIRS = %s\nEXTRA = %s\n%s" % (json.dumps(list(dirs)), json.dumps(list(extra)),
                                              _HASHES)
        # One line a file: a single JSON line of every hash needs a contiguous block of
        # several KB, which a fragmented heap after a long copy may not have (MemoryError).
        found = {}
        # A slow board (the emulated one, under load) may take more than mpremote's 10 s.
        for line in self.run(code, timeout=HASHES_S).strip().splitlines():
            try:
                path, digest = json.loads(line)
            except (ValueError, TypeError):
                raise UserError("%s: unexpected answer from the device: %r" % (
                    self.port, line)) from None
            found[path] = digest
        return found

    def _fs(self, what, call, *args):
        """One of mpremote's fs_* calls; OSError (as mpremote converts the device's) passes."""
        try:
            return call(*args)
        except OSError:
            raise
        except TransportExecError as err:
            lines = err.error_output.strip().splitlines()
            raise UserError("%s: %s: the device raised %s"
                            % (self.port, what, lines[-1] if lines else "?")) from err
        except TransportError as err:
            raise UserError("%s: lost the connection (%s)" % (self.port, _message(err))) from err

    def makedirs(self, path):
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if folder in self._made:
                continue                  # one round trip a folder per session, not per file
            try:
                self._fs("making " + folder, self.transport.fs_mkdir, folder)
            except OSError:
                pass                      # there already
            self._made.add(folder)

    def write_atomic(self, path, data, progress=None):
        """Write `data` to path.tmp, then rename it over `path`."""
        temporary = path + ".tmp"
        try:
            # 1 KB a round trip (mpremote's default is 256 bytes): a quarter of the exchanges,
            # and a chunk's source (under 4 KB) still compiles in a small board's heap.
            self.transport.fs_writefile(temporary, data, chunk_size=WRITE_CHUNK,
                                        progress_callback=progress)
        except (TransportError, OSError) as err:
            raise UserError("%s: writing %s failed (%s)" % (
                self.port, path, _message(err))) from err
        # mpremote has no rename. It replaces `path` on littlefs and on FAT alike
        # (extmod/vfs_fat.c removes it first).
        self.run("import os\nos.rename(%r, %r)" % (temporary, path))

    def remove(self, path):
        try:
            self._fs("removing " + path, self.transport.fs_rmfile, path)
        except OSError:
            pass                          # not there

    def exists(self, path):
        return self._fs("looking for " + path, self.transport.fs_exists, path)

    def restart(self, before=""):
        """Hard reset (boot.py, then main.py) and let go: the app runs on. `before` runs on the
        device in the same breath, so nothing can come between it and the reset."""
        pause = "" if before else "import time\ntime.sleep_ms(100)\n"   # as mpremote's reset
        try:
            self.transport.exec_raw_no_follow(before + pause + "import machine\nmachine.reset()")
        except (TransportError, OSError):
            pass
        self.close()

    def reset(self):
        """Hard reset, then reconnect once the board is back (which stops the app again)."""
        self.restart()
        time.sleep(0.5)
        self.connect()

    def reset_and_listen(self, until, timeout=LISTEN_S):
        """Hard reset and read what the firmware prints until a line satisfies `until`:
        that line, or None on timeout or once the firmware has died of an exception
        (`failure` then holds its traceback's lines). The device is left running."""
        self.failure = []
        self.restart()
        deadline = time.time() + timeout * self.slower
        buffer = b""
        serial = None
        while time.time() < deadline:
            try:
                if serial is None:
                    serial = SerialTransport(self.port, baudrate=115200).serial
                    serial.timeout = 0.2      # so the deadline is kept when nothing comes
                waiting = serial.inWaiting()
                buffer += serial.read(waiting or 1)
            except (TransportError, OSError):
                serial = None
                time.sleep(0.3)
                continue
            text = buffer.decode("utf-8", "replace")
            # The raw REPL's end markers (\x04) can share a line with the app's first words.
            lines = "".join(c for c in text if c == "\n" or c >= " ").split("\n")
            for line in lines[:-1]:
                if until(line):
                    serial.close()
                    return line
            self.failure = traceback_of(lines[:-1])
            if self.failure:
                break
        if serial is not None:
            serial.close()
        return None

    def enter_maintenance(self):
        """Reboot once with the app held off (no watchdog), so long copies are safe. The
        device uses the flag up at that boot; the next reset starts the app."""
        self.restart(before="open(%r, 'w').close()\n" % MAINTENANCE_PATH)
        time.sleep(0.5)
        self.connect()

    def leave_maintenance(self):
        """Remove the flag if no firmware was there to use it up (a fresh board)."""
        self.remove(MAINTENANCE_PATH)


class _Lines:
    """mpremote's data_consumer: keeps the output (mpremote then keeps none) and hands each
    finished line on as it comes."""

    def __init__(self, on_line):
        self.on_line = on_line
        self.out = bytearray()
        self.start = 0

    def __call__(self, data):
        self.out += data
        end = self.out.find(b"\n", self.start)
        while end >= 0:
            self.on_line(bytes(self.out[self.start:end]).decode("utf-8", "replace").strip())
            self.start = end + 1
            end = self.out.find(b"\n", self.start)

    def text(self):
        return bytes(self.out.rstrip(b"\x04"))


def traceback_of(lines):
    """The lines of the last complete traceback among `lines` (from 'Traceback' to its
    'SomeError: ...' line), or []."""
    for start in range(len(lines) - 1, -1, -1):
        if lines[start].startswith("Traceback (most recent call last)"):
            for end in range(start + 1, len(lines)):
                if lines[end][:1].isalpha():        # the exception line; frames are indented
                    return [line.rstrip() for line in lines[start:end + 1]]
            return []
    return []


def _message(err):
    return " ".join(str(a) for a in getattr(err, "args", ()) if a) or type(err).__name__
