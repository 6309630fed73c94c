"""The virtual board: the MicroPython unix port on a pseudo-terminal, a folder as its flash.

mpremote talks to it as to a board: it opens the port (a pty), interrupts, enters the raw REPL,
soft-resets, copies files, runs code. What the unix port does not do the way a board does, the
bridge here adds:
- a soft reset (Ctrl-D at the REPL) ends the unix process: the bridge starts a new one, prints
  `soft reboot`, runs boot.py (and main.py unless the raw REPL was active) and returns to the
  REPL mode the client was in;
- `machine.reset()` (mpremote's `reset`) restarts the interpreter and runs boot.py and main.py,
  through a `machine` module placed on the interpreter's path, outside the flash;
- the simulated knob, button and ring are reached through FIFOs (hardware/sim.py), so a host
  can spin the knob and read frames while mpremote owns the serial port.
"""

import fcntl
import os
import select
import shutil
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
RESET_CAUSE_VARIABLE = "CHROMAWHEEL_RESET_CAUSE"
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


# What an interpreter the bridge starts runs before its REPL.
BOOT_AND_MAIN = ("boot.py", "main.py")    # a power-up, a reset, a soft reset at the REPL
BOOT_ONLY = ("boot.py",)                  # a soft reset in the raw REPL (mpremote's)
NOTHING = ()                              # after a Ctrl-C the unix port died of


def _launcher(files):
    """What the interpreter runs before its REPL: boot.py, then main.py, as a board does."""
    # The board's machine (the shim) is there before boot.py, as a chip's built-in is: the
    # firmware's start keeps what sys.modules already holds (firmware/start.py).
    return ("import machine\n"
            "import os\n"
            "def _run(name):\n"
            "    try:\n"
            "        os.stat(name)\n"
            "    except OSError:\n"
            "        return\n"
            "    exec(open(name).read(), {'__name__': '__main__'})\n"
            + "".join("_run(%r)\n" % f for f in files) + "del _run, os, machine\n")


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
        # Held open read-write by us, so the device never blocks opening them or sees EOF.
        self._commands = os.open(self.link + ".in", os.O_RDWR)
        self._frames = os.open(self.link + ".out", os.O_RDWR | os.O_NONBLOCK)
        self._client, client_side = os.openpty()
        tty.setraw(client_side)
        self._client_side = client_side          # kept open: the port survives reconnects
        self.port = os.ttyname(client_side)
        self.proc = None
        self._device = None
        self.raw_repl = False
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
        device, device_side = os.openpty()
        # Bytes as a UART carries them (no \n -> \r\n translation, no echo), but Ctrl-C still
        # raises SIGINT, which is how the unix port interrupts a running program.
        tty.setraw(device_side)
        attrs = termios.tcgetattr(device_side)
        attrs[3] |= termios.ISIG
        termios.tcsetattr(device_side, termios.TCSANOW, attrs)

        def controlling_terminal():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)     # Ctrl-C reaches it as SIGINT

        env = dict(os.environ)
        env["MICROPYPATH"] = ":%s:.frozen" % self.runtime
        env[LINK_VARIABLE] = self.link
        env[RESET_CAUSE_VARIABLE] = cause        # "power" or "reset": see firmware/ports/sim.py
        args = [micropython_path()]
        if self.heap:
            args += ["-X", "heapsize=%d" % self.heap]
        self.proc = subprocess.Popen(args + ["-i", "-c", _launcher(files)], cwd=self.flash,
                                     stdin=device_side, stdout=device_side,
                                     stderr=device_side, env=env, close_fds=True,
                                     preexec_fn=controlling_terminal)
        os.close(device_side)
        if self._device is not None:
            os.close(self._device)
        self._device = device

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
        if code == HARD_RESET_EXIT or self._power_cut:
            cause = "power" if self._power_cut else "reset"
            if self._power_cut:
                self._drop_pending_input()
            self._power_cut = False
            self.raw_repl = False
            self._spawn(BOOT_AND_MAIN, cause=cause)
            return
        if code == 0:                    # Ctrl-D at the REPL, or machine.soft_reset()
            self._to_client(b"MPY: soft reboot\r\n")
            self._spawn(BOOT_ONLY if self.raw_repl else BOOT_AND_MAIN, cause="reset")
        else:
            # No reset: the unix port died of a Ctrl-C that came while it had no handler for
            # it (SIGINT's default while it starts, or between a program and its REPL), or of
            # an error of its own. A board's interpreter never stops: the Ctrl-C stopped what
            # ran and the REPL follows, nothing run again (rebooting into main.py here left
            # mpremote's Ctrl-A, sent next, to a running app: mpremote then waited for ever).
            self._spawn(NOTHING, cause="reset")
        if self.raw_repl:
            os.write(self._device, b"\r\x01")

    def _drop_pending_input(self):
        """Bytes the laptop sent that the board had not read when the power went are lost with
        it (the USB device disappears), as on a real board: they never reach the next boot."""
        while select.select([self._client], [], [], 0)[0]:
            try:
                if not os.read(self._client, 4096):
                    return
            except OSError:
                return

    # ---- the bridge ---------------------------------------------------------------------

    def _to_client(self, data):
        with self._lock:
            self.transcript += data
        try:
            os.write(self._client, data)
        except OSError:
            pass

    def _bridge(self):
        while not self._stop.is_set():
            watched = [self._client, self._frames]
            if self._device is not None:
                watched.append(self._device)
            ready, _, _ = select.select(watched, [], [], 0.02)
            if self._client in ready:
                try:
                    data = os.read(self._client, 4096)
                except OSError:
                    data = b""
                if data:
                    # Ctrl-A enters the raw REPL, Ctrl-B leaves it: that decides what a soft
                    # reset runs. (Code sent in the raw REPL never carries these bytes.)
                    for byte in data:
                        if byte == 1:
                            self.raw_repl = True
                        elif byte == 2:
                            self.raw_repl = False
                    try:
                        os.write(self._device, data)
                    except OSError:
                        pass
            if self._device in ready:
                try:
                    data = os.read(self._device, 4096)
                except OSError:
                    data = b""
                if data:
                    self._to_client(data)
            if self._frames in ready:
                self._read_frames()
            code = self.proc.poll()
            if code is not None and not self._stop.is_set():
                self._drain_device()
                self._restart(code)

    def _drain_device(self):
        while True:
            ready, _, _ = select.select([self._device], [], [], 0)
            if not ready:
                return
            try:
                data = os.read(self._device, 4096)
            except OSError:
                return
            if not data:
                return
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
        raise TimeoutError("no matching frame within %.1f s" % timeout)

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
        for fd in (self._device, self._client, self._client_side, self._commands, self._frames):
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


