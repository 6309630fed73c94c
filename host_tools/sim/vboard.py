"""The virtual board: the MicroPython unix port on a pseudo-terminal, a folder as its flash.

mpremote talks to it as to a board: it opens the port (a pty), interrupts, enters the raw REPL,
soft-resets, copies files, runs code. The unix port ends where a board's interpreter goes on (a
soft reset, a reset, a Ctrl-C between a program and its REPL): the bridge here is the chip
around it, and keeps what a board keeps across those:
- the port: one pty for the board's life; what the host sends while an interpreter ends and the
  next starts waits for the next (nothing is lost, nothing goes to one that is ending);
- the REPL's mode (friendly or raw), read from what the interpreter printed on entering it, not
  guessed from the bytes the host sent (bytes an interpreter never read change nothing). A soft
  reset runs boot.py, then main.py only from the friendly REPL, and comes back to the mode it
  left, as MicroPython's pyexec does on a board (ports/rp2/main.c);
- Ctrl-C: it stops the program running (and clears the input waiting, as a board's USB serial
  does) or is a key at the REPL; one the interpreter never acted on (it was ending) stops the
  next one's boot instead. The unix port raises the KeyboardInterrupt from inside its signal
  handler, wherever the interpreter is (a board raises it where the VM checks): one raised
  while it held a lock of its own (a new name being interned, say) left the lock taken, and the
  interpreter hung at its next use. So the bridge signals it while it waits in a system call
  (a sleep, a poll) where it can, and an interpreter found hung on its own lock is replaced by
  a fresh one at the REPL, as the Ctrl-C would have left it;
- `machine.reset()` (mpremote's `reset`) restarts the interpreter and runs boot.py and main.py,
  through a `machine` module placed on the interpreter's path, outside the flash;
- the simulated knob, button and ring are reached through FIFOs (hardware/sim.py), so a host
  can spin the knob and read frames while mpremote owns the serial port.
"""

import fcntl
import os
import select
import shutil
import signal
import subprocess
import tempfile
import termios
import threading
import time
import tty

from hardware import board as board_file
from hardware.sim import FRAME_MARK, LINK_VARIABLE

from host_tools.device.files import board_path
from host_tools.sim.simulator import decode_frame
from host_tools.tools import micropython_path

HARD_RESET_EXIT = 77
# How long a Ctrl-C waits for the program to sleep in a system call before it is sent anyway
# (a program that never sleeps); how long an interpreter may wait on its own lock before it is
# taken for hung (it runs one thread: nothing else would release it).
SAFE_POINT_S = 3.0
HUNG_S = 2.0
RESET_CAUSE_VARIABLE = "CHROMAWHEEL_RESET_CAUSE"
UP_VARIABLE = "CHROMAWHEEL_VBOARD_UP"
MACHINE_SHIM = '''"""machine for the virtual board: a board's reset, which the unix port lacks."""


PWRON_RESET = 1
HARD_RESET = 2
SOFT_RESET = 5


def reset():
    raise SystemExit(%d)


def reset_cause():
    import os
    return PWRON_RESET if os.getenv("CHROMAWHEEL_RESET_CAUSE") == "power" else HARD_RESET


def soft_reset():
    raise SystemExit(0)


def unique_id():
    return b"vboard01"


def idle():
    pass
''' % HARD_RESET_EXIT

# What the REPLs print on entering (shared/runtime/pyexec.c): the mode the interpreter is in.
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
FRIENDLY_BANNER = b'Type "help()" for more information.\r\n'
CTRL_A, CTRL_C = b"\x01", b"\x03"

# What an interpreter the bridge starts runs before its REPL.
BOOT_AND_MAIN = ("boot.py", "main.py")    # a power-up, a reset, a soft reset at the friendly REPL
BOOT_ONLY = ("boot.py",)                  # a soft reset in the raw REPL (mpremote's)
NOTHING = ()                              # after a Ctrl-C the unix port died of


def _launcher(files):
    """What the interpreter runs before its REPL: boot.py, then main.py, as a board does. It
    first says it is up: from then on a Ctrl-C reaches MicroPython's handler (before, the
    Python that hosts the unix port would only note it)."""
    # The board's machine (the shim) is there before boot.py, as a chip's built-in is: the
    # firmware's start keeps what sys.modules already holds (firmware/start.py).
    return ("import machine\n"
            "import os\n"
            "with open(os.getenv(%r), 'w') as up:\n"
            "    up.write('.')\n"
            "def _run(name):\n"
            "    try:\n"
            "        os.stat(name)\n"
            "    except OSError:\n"
            "        return\n"
            "    exec(open(name).read(), {'__name__': '__main__'})\n" % UP_VARIABLE
            + "".join("_run(%r)\n" % f for f in files) + "del _run, os, machine, up\n")


def _raw_port(fd):
    """A UART's bytes (raw: no echo, no translation), ISIG kept but no key raising a signal:
    ISIG on marks "running a program" (the unix port's REPL turns it off while it reads a line:
    ports/unix/unix_mphal.c), and the bridge delivers Ctrl-C itself."""
    tty.setraw(fd)
    attrs = termios.tcgetattr(fd)
    attrs[3] |= termios.ISIG
    for key in (termios.VINTR, termios.VQUIT, termios.VSUSP):
        attrs[6][key] = 0                        # _POSIX_VDISABLE
    termios.tcsetattr(fd, termios.TCSANOW, attrs)
    return attrs


def _between_interrupts(data):
    """(bytes, then a Ctrl-C?) pieces of data, in order."""
    pieces = data.split(CTRL_C)
    return [(piece, at < len(pieces) - 1) for at, piece in enumerate(pieces)]


def _waiting_in(pid):
    """What process `pid` is waiting in: "a lock" (a futex), "a system call" (any other sleep:
    a poll, a sleep, a read), or None (running, or /proc is not there to say)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        with open("/proc/%d/wchan" % pid) as f:
            channel = f.read()
    except (OSError, IndexError):
        return None
    if state != "S":
        return None
    return "a lock" if channel.startswith("futex") else "a system call"


def _read(fd):
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def _unread(fd):
    """What waits to be read on fd, without blocking."""
    data = b""
    while select.select([fd], [], [], 0)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


class VirtualBoard:
    def __init__(self, flash, board="sim", heap=None):
        self.flash = os.path.abspath(flash)
        os.makedirs(self.flash, exist_ok=True)
        self.board = board_file.load(board_path(board))
        ring = self.board["ring"]
        self.frame_size = ring["count"] * len(ring["order"])
        self.heap = heap
        self.runtime = tempfile.mkdtemp(prefix="chromawheel-vboard-")
        with open(os.path.join(self.runtime, "machine.py"), "w") as f:
            f.write(MACHINE_SHIM)
        self.link = os.path.join(self.runtime, "link")
        os.mkfifo(self.link + ".in")
        os.mkfifo(self.link + ".out")
        os.mkfifo(os.path.join(self.runtime, "up"))
        # Held open read-write by us, so the device never blocks opening them or sees EOF.
        self._commands = os.open(self.link + ".in", os.O_RDWR)
        self._frames = os.open(self.link + ".out", os.O_RDWR | os.O_NONBLOCK)
        self._up = os.open(os.path.join(self.runtime, "up"), os.O_RDWR | os.O_NONBLOCK)
        self._client, client_side = os.openpty()
        tty.setraw(client_side)
        self._client_side = client_side          # kept open: the port survives reconnects
        self.port = os.ttyname(client_side)
        # The board's side of its serial port: one pty whatever the interpreters do.
        self._device, self._device_side = os.openpty()
        self._port_mode = _raw_port(self._device_side)
        self.proc = None
        self.raw_repl = False                    # the REPL's mode, as the interpreter said it
        self._said_tail = b""
        self._restoring_raw = False
        self._launched = False                   # the interpreter said it is up
        self._ready = False                      # ... and is in the mode the board is in
        self._held = b""                         # what the host sent that waits for that
        self._unacted_interrupt = False          # a Ctrl-C sent that it has not yet acted on
        self._interrupt_since = None             # a Ctrl-C waiting for a safe point: since when
        self._locked_since = None                # the interpreter waits on a lock: since when
        self._signalled = False                  # this interpreter was sent a Ctrl-C
        self.resets = 0
        self._power_cut = False
        # A power cut and a restart the bridge thread is making must not interleave: a cut
        # between the restart's reading of the flag and its spawn was lost (the board went on
        # in the boot it was making, a maintenance boot say).
        self._power = threading.Lock()
        self.transcript = bytearray()            # everything the device said on the port
        self.frames = []                         # decoded wheels, in order
        self._frame_buffer = b""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None

    # ---- the interpreter ----------------------------------------------------------------

    def _spawn(self, files, cause):
        # The mode a killed interpreter left the port in (its REPL's) is not the next one's.
        termios.tcsetattr(self._device_side, termios.TCSANOW, self._port_mode)

        def controlling_terminal():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        env = dict(os.environ)
        env["MICROPYPATH"] = ":%s:.frozen" % self.runtime
        env[LINK_VARIABLE] = self.link
        env[RESET_CAUSE_VARIABLE] = cause        # "power" or "reset": see firmware/ports/sim.py
        env[UP_VARIABLE] = os.path.join(self.runtime, "up")
        args = [micropython_path()]
        if self.heap:
            args += ["-X", "heapsize=%d" % self.heap]
        self._launched = self._ready = self._signalled = False
        self._restoring_raw = self.raw_repl      # (its friendly banner does not change that)
        self.proc = subprocess.Popen(args + ["-i", "-c", _launcher(files)], cwd=self.flash,
                                     stdin=self._device_side, stdout=self._device_side,
                                     stderr=self._device_side, env=env, close_fds=True,
                                     preexec_fn=controlling_terminal)

    def start(self):
        """Power on: boot.py then main.py; returns the port for mpremote."""
        self._spawn(BOOT_AND_MAIN, cause="power")
        self._thread = threading.Thread(target=self._bridge, daemon=True)
        self._thread.start()
        return self.port

    def power_cycle(self):
        """Cut the power and restore it: whatever the interpreter was doing, it starts over
        from boot.py and main.py, as after a power-up."""
        with self._power:
            self._power_cut = True
            if self.proc is not None and self.proc.poll() is None:
                self.proc.kill()

    def _restart(self, code):
        with self._power:
            self._restart_now(code)

    def _restart_now(self, code):
        self.resets += 1
        _unread(self._up)                        # the ended interpreter's word, not the next's
        # What the ended one never read is the next one's, behind a Ctrl-C it never acted on
        # (one that came as it reset, meant for what runs after).
        unacted = self._unacted_interrupt and code != -signal.SIGINT \
            or self._interrupt_since is not None
        self._held = (CTRL_C if unacted else b"") + _unread(self._device_side) + self._held
        self._unacted_interrupt = False
        self._interrupt_since = self._locked_since = None
        if self._power_cut:
            self._drop_pending_input()
            self._power_cut = False
            self.raw_repl = False
            self._spawn(BOOT_AND_MAIN, cause="power")
        elif code == HARD_RESET_EXIT:
            self.raw_repl = False
            self._spawn(BOOT_AND_MAIN, cause="reset")
        elif code == 0:                  # Ctrl-D at a REPL, or machine.soft_reset()
            self._to_client(b"MPY: soft reboot\r\n")
            self._spawn(BOOT_ONLY if self.raw_repl else BOOT_AND_MAIN, cause="reset")
        else:
            # No reset: the unix port died of a Ctrl-C that came while it had no handler for
            # it (between a program and its REPL), or of an error of its own. A board's
            # interpreter never stops: the Ctrl-C stopped what ran and the REPL follows,
            # nothing run again, in the mode it was in.
            self._spawn(NOTHING, cause="reset")

    def _drop_pending_input(self):
        """Bytes the laptop sent that the board had not read when the power went are lost with
        it (the USB device disappears), as on a real board: they never reach the next boot."""
        self._held = b""
        _unread(self._client)

    def _at_repl(self):
        """Whether the interpreter is reading a line at its REPL (not running a program)."""
        return not termios.tcgetattr(self._device_side)[3] & termios.ISIG

    def _running_program(self):
        return self._launched and self.proc.poll() is None and not self._at_repl()

    # ---- the bridge ---------------------------------------------------------------------

    def _to_client(self, data):
        with self._lock:
            self.transcript += data
        try:
            os.write(self._client, data)
        except OSError:
            pass

    def _to_device(self, data):
        try:
            os.write(self._device, data)
        except OSError:
            pass

    def _bridge(self):
        while not self._stop.is_set():
            watched = [self._up, self._device, self._frames, self._client]
            pending = self._interrupt_since is not None
            ready, _, _ = select.select(watched, [], [], 0.002 if pending else 0.02)
            if self._up in ready:
                _unread(self._up)
                self._launched = True
            if self._device in ready:
                self._from_device(_read(self._device))
            if self._frames in ready:
                self._read_frames()
            if self._client in ready:
                self._take(_read(self._client))
            self._tend()

    def _tend(self):
        """The interpreter's state, after each turn of the bridge: restarted when it ended,
        handed the host's bytes once it can take them."""
        code = self.proc.poll()
        if code is not None:
            if not self._stop.is_set():
                self._from_device(_unread(self._device))     # its last words first
                self._restart(code)
            return
        if self._unacted_interrupt and self._at_repl():
            self._unacted_interrupt = False      # the program stopped: the REPL reads
        if self._interrupt_since is not None:
            self._interrupt_at_a_safe_point()
            return
        self._replace_if_hung()
        if self._launched and not self._ready:
            if self._restoring_raw:
                # A new unix port starts at the friendly REPL: the board's was raw. Ctrl-A
                # once it reads, ahead of what the host sent.
                if not self._at_repl():
                    return
                self._to_device(CTRL_A)
            held, self._held, self._ready = self._held, b"", True
            self._take(held)

    def _take(self, data):
        """The host's bytes, in order: to the interpreter when it can take them, else held
        for it; each Ctrl-C acted on where it falls."""
        for piece, interrupt in _between_interrupts(data):
            if self._ready and self._interrupt_since is None:
                self._to_device(piece)
            else:
                self._held += piece
            if interrupt:
                self._interrupt()

    def _interrupt(self):
        if self._running_program():
            # As a board's USB serial does: the input waiting is cleared, the program stopped
            # (what the host sends next waits for that).
            self._held = b""
            termios.tcflush(self._device_side, termios.TCIFLUSH)
            if self._interrupt_since is None:
                self._interrupt_since = time.monotonic()
                self._interrupt_at_a_safe_point()
        elif self._ready:
            self._to_device(CTRL_C)              # a key at the REPL
        else:
            self._held = CTRL_C                  # for the next interpreter, once it is up

    def _interrupt_at_a_safe_point(self):
        waited = time.monotonic() - self._interrupt_since
        if self._at_repl():                      # the program ended meanwhile: a key
            self._to_device(CTRL_C)
        elif _waiting_in(self.proc.pid) == "a system call" or waited > SAFE_POINT_S:
            os.kill(self.proc.pid, signal.SIGINT)
            self._unacted_interrupt = self._signalled = True
        else:
            return
        self._interrupt_since = None
        held, self._held = self._held, b""
        self._take(held)

    def _replace_if_hung(self):
        """An interpreter that was interrupted and now waits on a lock (its own, left taken by
        the interrupt: it runs one thread) never goes on: it is ended, and the REPL follows
        (_restart_now)."""
        if not self._signalled or _waiting_in(self.proc.pid) != "a lock":
            self._locked_since = None
        elif self._locked_since is None:
            self._locked_since = time.monotonic()
        elif time.monotonic() - self._locked_since > HUNG_S:
            self._locked_since = None
            self._unacted_interrupt = False      # it acted on it: hung
            self.proc.kill()

    def _from_device(self, data):
        if not data:
            return
        said = self._said_tail + data
        raw, friendly = said.rfind(RAW_BANNER), said.rfind(FRIENDLY_BANNER)
        if raw != friendly:
            self.raw_repl = raw > friendly
        self._said_tail = said[-len(FRIENDLY_BANNER):]
        self._to_client(data)

    def _read_frames(self):
        try:
            self._frame_buffer += os.read(self._frames, 65536)
        except BlockingIOError:
            return
        need = len(FRAME_MARK) + self.frame_size + 1
        while len(self._frame_buffer) >= need:
            start = self._frame_buffer.find(FRAME_MARK)
            if start < 0:
                self._frame_buffer = b""
                return
            if len(self._frame_buffer) - start < need:
                self._frame_buffer = self._frame_buffer[start:]
                return
            wire = self._frame_buffer[start + len(FRAME_MARK):start + need - 1]
            wheel, _ = decode_frame(self.board["ring"], wire)
            with self._lock:
                self.frames.append(wheel)
            self._frame_buffer = self._frame_buffer[start + need:]

    # ---- the knob, the button and the ring, from the host -------------------------------

    def send(self, *commands):
        """Sim commands (`turn 1`, `press`, `release`, `wait 100`) to the running firmware."""
        os.write(self._commands, ("\n".join(commands) + "\n").encode())

    def wait_for_frame(self, predicate=lambda wheel: True, timeout=10.0, after=None):
        """The first frame (from index `after`, default: any new one) that satisfies predicate."""
        start = len(self.frames) if after is None else after
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self._lock:
                frames = self.frames[start:]
            for wheel in frames:
                if predicate(wheel):
                    return wheel
            time.sleep(0.02)
        raise TimeoutError("no matching frame within %.1f s; the board said: %s"
                           % (timeout, self.said()[-500:]))

    def said(self):
        with self._lock:
            return bytes(self.transcript).decode("utf-8", "replace")

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._device, self._device_side, self._client, self._client_side,
                   self._commands, self._frames, self._up):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        shutil.rmtree(self.runtime, ignore_errors=True)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()


def lit_sectors(wheel):
    return [i for i, rgb in enumerate(wheel) if any(rgb)]


