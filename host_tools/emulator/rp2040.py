"""The stock MicroPython rp2 firmware in an emulated RP2040 (npm rp2040js under Node), its USB
serial port on a pseudo-terminal: mpremote and host_tools.device.link talk to it as to a Pico.

What it is: the real rp2 port (32-bit, ticks wrapping at 2**30, the rp2 `machine`), booted
from the vendored UF2 and boot ROM (host_tools/emulator/images, see PROVENANCE.md there), with
the flash chip modelled at the boot ROM's flash routines (rp2040js/flash.cjs: littlefs works and
survives power cycles), the ring's WS2812 line decoded and the knob and button driven on
their pins (rp2040js/board.cjs), the PIO on the emulated clock at each state machine's clock
divider with its delay cycles (rp2040js/pio_timing.cjs), the board's OLED answering on its
I2C bus (through the RP2040's I2C block, and on the pins to a bit-banged transfer such as
CircuitPython's probe of its address) and its piezo read off the PWM pin (rp2040js/parts.cjs),
and resets that power the chip up again. What it lacks: core 1; I2C timing on the I2C block
(a transfer through it takes no emulated time).

The same chip runs stock CircuitPython (a QT Py RP2040 UF2, `uf2=`), its CIRCUITPY drive a
FAT in the flash image (host_tools/emulator/circuitpy_drive.py); the board file's pins are
then GPIO numbers (host_tools/emulator/emulate.py maps CircuitPython's pin names)."""

import hashlib
import json
import os
import pty
import select
import shutil
import subprocess
import sys
import threading
import time
import tty

from host_tools import IN_CHECKOUT, cache, tools
from host_tools.emulator.parts import part_events
from host_tools.errors import UserError

HERE = os.path.dirname(os.path.abspath(__file__))
JS = os.path.join(HERE, "rp2040js")        # the Node side: rp2040js and the harness
IMAGES = {
    "bootrom": ("rp2040-bootrom-b1.bin",
                "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"),
    "uf2": ("micropython-v1.28.0-RPI_PICO.uf2",
            "e8b60ebb52112c7a1dac9944837949751e143b94cbf1dd48d8bcc4049b6f4d31"),
    "circuitpython_qtpy": ("circuitpython-10.2.1-adafruit_qtpy_rp2040.uf2",
                           "2d101650a0c5b1f8a77f913bbbaef37079124cfe9b5e75e59bb870eee8aa7ffa"),
}


# littlefs on a RAM block device, mounted at /ram: where files go while the emulator has no
# flash model (it costs the heap its size).
RAM_DISK = """
import vfs

class RamDisk:
    def __init__(self, blocks, size=512):
        self.size = size
        self.data = bytearray(blocks * size)

    def readblocks(self, block, buf, offset=0):
        at = block * self.size + offset
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, block, buf, offset=0):
        at = block * self.size + offset
        self.data[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.size
        if op == 5:
            return self.size
        if op == 6:
            return 0

_disk = RamDisk(%d)
vfs.VfsLfs2.mkfs(_disk)
vfs.mount(vfs.VfsLfs2(_disk), '/ram')
"""


def put_on_ram_disk(link, files):
    """Mount a RAM disk big enough for `files` ((path under /ram, bytes)) and copy them."""
    size = sum(len(data) for _, data in files)
    link.run(RAM_DISK % (size * 5 // 4 // 512 + 48))
    for path, data in files:
        link.makedirs(path)
        link.transport.fs_writefile(path, data)


def compiled(rels, tmp, under="/ram/"):
    """(`under`REL as .mpy, bytes) for repository files REL, compiled with mpy-cross as a
    Pico's deploy compiles them (machine code for its Cortex-M0+: host_tools/device/native.py)."""
    from host_tools.device import native
    from host_tools.device.files import ROOT, compile_mpy
    out = []
    for rel in rels:
        target = os.path.join(tmp, rel.replace("/", "_") + ".mpy")
        compile_mpy(os.path.join(ROOT, rel), rel, target, arch=native.arch_of("rp2"))
        with open(target, "rb") as f:
            out.append((under + rel[:-3] + ".mpy", f.read()))
    return out


def flash_holding(path, files, uf2=None):
    """Write to `path` a flash image: the stock MicroPython UF2 (or `uf2`) with `files` [(path
    on the drive, bytes)] on its littlefs drive, laid out on the laptop as `make uf2` lays out
    a drive (host_tools/builds/littlefs_uf2.py): a Pico booted from it has them, and nothing
    crossed its serial port (53 KB there cost some 5 CPU seconds of emulated USB)."""
    from host_tools.builds import littlefs_uf2
    flash = flash_with_uf2(uf2 or image("uf2"))
    drive = littlefs_uf2.drive_image(files)
    flash[littlefs_uf2.STORAGE_BASE:littlefs_uf2.STORAGE_BASE + len(drive)] = drive
    with open(path, "wb") as f:
        f.write(flash)


class UsbWalk:
    """What the emulated computer's USB host found walking a configuration descriptor
    (rp2040js/midi_host.cjs walk()): `interfaces` {number: (class, subclass, iInterface,
    [(endpoint address, attributes, max packet size)])}, and `midi` {"interface", "in", "out"}
    (the MIDIStreaming interface and the endpoint numbers the host plays MIDI on) or None."""

    def __init__(self, interfaces, midi):
        self.interfaces = interfaces
        self.midi = midi


def _walked(found):
    return UsbWalk({int(number): (klass, subclass, name, [tuple(e) for e in endpoints])
                    for number, (klass, subclass, name, endpoints)
                    in found["interfaces"].items()}, found["midi"])


FLASH_SIZE = 2 * 1024 * 1024          # rp2040js/flash.cjs: the Pico's W25Q16JV
CUT_STATUS = 5                        # rp2040js/flash.cjs: the harness cut the power
OFF_STATUS = 6                        # rp2040js/pico.cjs "off MS": powered up again later
# The events that carry emulated times, and where (the words after the letter): moved onto the
# table's clock for a board that started later than the table (EmulatedPico.offset).
# The harness's events (rp2040js/pico.cjs, board.cjs, parts.cjs, flash.cjs): letter -> (words,
# the EmulatedPico method that keeps it).
_EVENTS = {"F": (7, "_frame"), "K": (2, "_detent"), "S": (3, "_serial"), "I": (3, "_oled"),
           "T": (4, "_piezo"), "W": (6, "_flash"), "X": (2, "_cut"), "U": (2, "_usb_up"),
           "D": (2, "_usb_down"), "N": (4, "_usb_name"), "C": (4, "_usb_config"),
           "M": (3, "_midi"), "J": (3, "_jack"), "O": (3, "_off"), "Z": (2, "_reset")}
_TIMED = {"F ": (1, 6), "K ": (1,), "S ": (1,), "I ": (1,), "T ": (1,), "W ": (1,),
          "X ": (1,), "U ": (1,), "D ": (1,), "N ": (1,), "C ": (1,), "M ": (1,), "J ": (1,),
          "O ": (1,), "Z ": (1,), "E ": (1,)}


def flash_with_uf2(uf2_path):
    """A flash image (bytearray): the UF2's 512-byte blocks, each up to 256 bytes for an XIP
    address from 0x10000000, on an erased chip (what rp2040js/pico.cjs loads)."""
    flash = bytearray(b"\xff" * FLASH_SIZE)
    with open(uf2_path, "rb") as f:
        uf2 = f.read()
    for at in range(0, len(uf2) - 511, 512):
        block = uf2[at:at + 512]
        if block[:8] != b"UF2\nWQ]\x9e":
            raise UserError("%s: block %d is not a UF2 block" % (uf2_path, at // 512))
        offset = int.from_bytes(block[12:16], "little") - 0x10000000
        size = int.from_bytes(block[16:20], "little")
        if not 0 <= offset <= FLASH_SIZE - size:
            raise UserError("%s: block %d lies outside the flash" % (uf2_path, at // 512))
        flash[offset:offset + size] = block[32:32 + size]
    return flash


def image(name):
    """Path of a vendored image, checked against its recorded SHA-256."""
    filename, sha256 = IMAGES[name]
    path = os.path.join(HERE, "images", filename)
    with open(path, "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() != sha256:
            raise UserError("%s: not the recorded image (SHA-256 differs)" % path)
    return path


def node_path():
    node = shutil.which("node")
    if node is None:
        raise UserError("the RP2040 emulator needs Node.js 18 or newer and npm (Debian: "
                        "apt-get install nodejs npm; elsewhere: nodejs.org)")
    return node


def node_modules():
    """The folder holding the harness's npm packages (rp2040js, pinned by its lock file): in a
    checkout, installed there by make setup; in an installed tool, installed once into the
    user's cache by npm on first use."""
    if IN_CHECKOUT:
        folder = os.path.join(JS, "node_modules")
        if not os.path.isdir(os.path.join(folder, "rp2040js")):
            raise UserError("the RP2040 emulator is not installed (run: make setup)")
        return folder
    with open(os.path.join(JS, "package-lock.json"), "rb") as f:
        lock = f.read()
    home = cache("npm", "rp2040js-" + hashlib.sha256(lock).hexdigest()[:12])
    folder = os.path.join(home, "node_modules")
    if os.path.exists(os.path.join(folder, ".installed")):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise UserError("the RP2040 emulator needs npm to install its packages once (Debian: "
                        "apt-get install npm)")
    os.makedirs(home, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(os.path.join(JS, name), os.path.join(home, name))
    sys.stderr.write("installing the emulator's npm packages into %s (once)\n" % home)
    proc = tools.run([npm, "ci", "--prefix", home, "--silent", "--no-audit", "--no-fund"],
                     "npm ci in " + home, 600, text=True)
    if proc.returncode:
        said = (proc.stderr or proc.stdout).strip().splitlines()
        raise UserError("npm ci in %s failed: %s" % (home, said[-1] if said else "no message"))
    open(os.path.join(folder, ".installed"), "w").close()
    return folder


class EmulatedPico:
    """A context manager: a powered emulated Pico; `port` is its serial device (a pty that
    stays while the board resets, as a USB port comes back).

    flash_image: the flash kept in that file: written through on every erase and program, so
    power_cut() at any moment keeps what the chip had, and the next power-up boots from it.
    board: the ChromaWheel board file (dict): its ring pin is decoded into `frames`
    ([emulated ns, wire bytes, timing faults]) and `send()` turns the knob and presses the
    button (host_tools/emulator/rp2040js/board.cjs); the computer's USB MIDI host plays
    `send("midi HEX")` to the board and collects what it sends in `midi` ([(emulated ns, raw
    MIDI bytes)], rp2040js/midi_host.cjs). A watchdog reset or machine.reset() powers the
    chip up again at once, with the watchdog's reason set, as a real reset does. A power cut
    (power_cut(), or one cut_during() armed) takes the port away, as unplugging a board does:
    what the laptop has open on it fails at once (EIO), not after its read timeouts; power_up()
    brings a new one (`port` names it)."""

    def __init__(self, flash_image=None, board=None, held=False, uf2=None):
        self.flash_image = flash_image
        self.uf2 = uf2                  # another UF2 (CircuitPython, a frozen build), used
                                        # when flash_image does not exist yet
        self.board = board
        self.held = held                        # the button held at the next power-up
        self.proc = None
        self.port = None
        self.said = bytearray()
        self.frames = []              # [ns of the last bit's fall, wire bytes, faults, bit
                                      #  period min, max, ns of the first bit's rise]
        self.detents = []             # emulated ns of each knob edge that completes a detent
        self.serial = []              # [(emulated ns, bytes the board sent on its USB serial)]
        self.parts = []               # [(emulated ns, "oled", I2C write) | (ns, "piezo", Hz)]
        self.flash_ops = []           # [(emulated ns, "erase" | "program", offset, bytes, ns)]
        self.cut_at = None            # emulated ns of a power cut armed by cut_during()
        self.usb_up = []              # emulated ns at which the USB host configured the chip
        self.usb_down = []            # emulated ns at which the chip left the bus (pull-up off)
        self.midi = []                # [(emulated ns, raw MIDI bytes the board sent over USB)]
        self.usb_names = []           # [(emulated ns, "product" | "midi" | "jack", the name)]:
                                      #  what the device calls itself, read at each enumeration
        self.usb_configs = []         # [(emulated ns, the configuration descriptor the USB host
                                      #  read)]: one an enumeration
        self.usb_walks = []           # [(emulated ns, UsbWalk)]: what the USB host found in
                                      #  each of those descriptors (rp2040js/midi_host.cjs
                                      #  walk(), the one reader of them)
        self.jacks = []               # [(emulated ns, a byte the board sent on its MIDI OUT)]
        self.offs = []                # [(emulated ns, the table ns it comes back at)]: "off"
        self.wire = None              # {"in_fd", "out_fd", "byte_ns"}: its jacks cabled to
                                      #  other boards' (rp2040js/wire.cjs; host_tools/
                                      #  emulator/table.py), the fds kept open by the host
        self.later = []               # [[commands]]: sent at each power-up after an "off"
        self.offset = 0               # the table's ns at which this run's clock started: event
                                      #  times are the table's (a board powered up again later
                                      #  runs on the table's clock)
        self.events = []
        self.resets = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._retired = []            # pipes of a powered-off run, for the bridge to close
        self._master = self._slave = None
        self._ports = 0               # ports opened so far: which one a dying run had
        self._hang_up = False         # power_cut() asks the bridge to take the port away
        self._reset_at = None         # the table's ns of the last watchdog reset (cabled)

    def __enter__(self):
        self._open_port()
        self._start(reset_reason=0)
        self._thread = threading.Thread(target=self._bridge, daemon=True)
        self._thread.start()
        return self

    def _open_port(self):
        master, slave = pty.openpty()
        tty.setraw(slave)
        with self._lock:
            # The slave is kept open here: the port outlives the chip's resets (as a USB
            # port comes back), not a power cut.
            self._master, self._slave = master, slave
            self._ports += 1
            self.port = os.ttyname(slave)

    def _drop_port(self, which):
        """(the bridge's thread, the one that reads and writes the pty) The port goes (if
        `which` is still the one open): the laptop's reads and writes on it fail from now on."""
        with self._lock:
            if which != self._ports:
                return
            fds = [fd for fd in (self._master, self._slave) if fd is not None]
            self._master = self._slave = None
            self._hang_up = False
        for fd in fds:
            os.close(fd)

    def _start(self, reset_reason):
        args = [node_path(), os.path.join(JS, "pico.cjs"), image("bootrom"),
                self.uf2 or image("uf2")]
        fds = ()
        self._events_in = self._commands_out = None
        if self.flash_image or self.board:
            args.append(self.flash_image or "")
        if self.board:
            ring, encoder, button = self.board["ring"], self.board["encoder"], self.board["button"]
            events_r, events_w = os.pipe()
            commands_r, commands_w = os.pipe()
            config = {"ring": ring["pin"], "encoder": [encoder["pin_a"], encoder["pin_b"]],
                      "button": button["pin"], "ppd": encoder["pulses_per_detent"],
                      "reset": reset_reason, "held": self.held,
                      "parts": part_events(self.board), "events_fd": events_w,
                      "commands_fd": commands_r}
            config.update(self._jacks_config())
            args.append(json.dumps(config))
            fds = (events_w, commands_r)
            self._events_in, self._commands_out = events_r, commands_w
        env = dict(os.environ, NODE_PATH=node_modules())
        cables = tuple(self.wire[end] for end in ("in_fd", "out_fd")
                       if self.wire and self.wire.get(end) is not None)
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
            stderr=None if os.getenv("CHROMAWHEEL_EMULATOR_DEBUG") else subprocess.DEVNULL,
            pass_fds=fds + cables)
        for fd in fds:
            os.close(fd)
        self._partial = b""

    def _jacks_config(self):
        """The MIDI jacks for the harness: the UART on its GPIOs, and the cables to other
        boards with the table's time this run starts at."""
        midi = self.board.get("midi")
        if not midi or not isinstance(midi.get("tx"), int):
            return {}
        config = {"uart": {"uart": midi["uart"], "tx": midi["tx"], "rx": midi["rx"]}}
        if self.wire is not None:
            config["wire"] = dict(self.wire, offset=self.offset)
        return config

    def send(self, *lines):
        """Knob and button commands (turn N, press, release, wait MS; midi HEX: raw MIDI bytes
        from the computer over USB), run in emulated time, in order."""
        os.write(self._commands_out, ("\n".join(lines) + "\n").encode())

    def wait_done(self, timeout=120, sent=False, answers=1):
        """Block until every command sent so far has run (in emulated time); the emulated time
        (ns) they were done at. The board runs on meanwhile: what it does after that time
        reaches the host a little earlier or later from run to run. `sent`: a "done" went
        with the commands (the first answer counts): one sent now would run when it arrives,
        if the board has finished them by then, at an emulated time that hangs on the wall
        clock's. `answers`: wait for that many "done" answers (sent with the commands), still
        returning the first's time."""
        marker = 0 if sent else len(self.events)
        if not sent:
            self.send("done")
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self._lock:
                done = [e for e in self.events[marker:] if e.startswith("E ")]
            if len(done) >= answers:
                return int(done[0].split()[1])
            time.sleep(0.02)
        raise UserError("the emulated board did not finish its knob commands in %d s; it "
                        "said: %s" % (timeout, bytes(self.said[-300:]).decode("utf-8", "replace")))

    def cut_during(self, operation, fraction):
        """The power goes `fraction` of the way through the flash operation `operation` (0:
        the next) counted from when the command runs, among the knob commands."""
        self.send("cut %d %r" % (operation, fraction))

    def wait_power_cut(self, timeout=300):
        """Block until a cut armed by cut_during() has happened; False if it did not."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() == CUT_STATUS:
                self._wait_cut_event()
                return True
            time.sleep(0.05)
        return False

    def _wait_cut_event(self):
        """Let the bridge read the events the harness wrote before it stopped."""
        for _ in range(200):
            if self.cut_at is not None:
                return
            time.sleep(0.05)

    def power_cut(self):
        """The power goes, now: the flash keeps what it had (it is written through), and the
        port goes with it."""
        self.proc.kill()
        self.proc.wait()
        with self._lock:
            self._hang_up = self._master is not None
        deadline = time.time() + 10
        while self._hang_up and self._thread.is_alive() and time.time() < deadline:
            time.sleep(0.01)

    def power_up(self):
        # The old pipes are closed by the bridge thread, which may be selecting on them now:
        # closed here, their numbers could go to a file this thread opens next (the boot ROM),
        # and the bridge would read that file's bytes as events.
        with self._lock:
            self._retired += [fd for fd in (self._events_in, self._commands_out)
                              if fd is not None]
            gone = self._master is None
        if gone:
            self._open_port()
        self._start(reset_reason=0)

    def __exit__(self, *exc):
        self._stop.set()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._thread.join(timeout=2)
        for fd in [self._master, self._slave, self._events_in, self._commands_out] \
                + self._retired:
            if fd is not None:
                os.close(fd)

    def _bridge(self):
        """Bytes between the pty (the laptop's side) and the emulator's USB serial; frames
        from the ring pin; a reset of the chip powers it up again."""
        while not self._stop.is_set():
            with self._lock:
                retired, self._retired = self._retired, []
                hang_up = self._hang_up
                which = self._ports
            for fd in retired:
                os.close(fd)
            if hang_up:
                self._drop_port(which)
            master = self._master                 # None while the power is off
            proc = self.proc
            device = proc.stdout.fileno()
            watched = [device] + ([master] if master is not None else []) \
                + ([self._events_in] if self._events_in else [])
            try:
                ready, _, _ = select.select(watched, [], [], 0.05)
            except (OSError, ValueError):
                continue                          # a power cut closed a descriptor
            if self._events_in is not None and self._events_in in ready:
                self._read_events()
            if device in ready:
                data = os.read(device, 4096)
                if data:
                    self.said += data
                    if master is not None:
                        os.write(master, data)
                elif not self._restart_after_reset(proc, which):
                    time.sleep(0.05)              # powered off: wait for power_up()
            if master is not None and master in ready:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    data = b""
                if data and proc.poll() is None:
                    try:
                        proc.stdin.write(data)
                        proc.stdin.flush()
                    except (BrokenPipeError, ValueError):
                        pass                      # lost with the reset, as on a real USB port

    def _restart_after_reset(self, proc, port):
        status = proc.wait()
        if status == CUT_STATUS:
            if self._events_in is not None:
                self._read_events()
            self._drop_port(port)                 # the cut took the USB port too
        if self._stop.is_set() or proc is not self.proc or status not in (3, 4, OFF_STATUS):
            return False
        if self._events_in is not None:
            self._read_events()
            os.close(self._events_in)
            os.close(self._commands_out)
        if status == OFF_STATUS:                  # "off MS": back at the table's time it said
            self.offset = self.offs[-1][1]
            self._start(reset_reason=0)
            if self.later:                        # what it is to do after this power-up
                self.send(*self.later.pop(0))
            return True
        self.resets += 1
        if self.wire is not None and self._reset_at is not None:
            self.offset = self._reset_at          # cabled: the chip is back at once
        self._start(reset_reason=2 if status == 3 else 1)
        return True

    def _read_events(self):
        try:
            data = os.read(self._events_in, 65536)
        except OSError:
            return
        self._partial += data
        *lines, self._partial = self._partial.split(b"\n")
        with self._lock:
            for line in lines:
                text = self._on_table_time(line.decode())
                self.events.append(text)
                words = text.split()
                kind = _EVENTS.get(words[0] if words else "")
                if kind is not None and len(words) == kind[0]:
                    getattr(self, kind[1])(words)

    # One a kind of event (_EVENTS): its words into the lists above.
    def _frame(self, words):
        _, ns, wire, faults, shortest, longest, first = words
        self.frames.append([int(ns), bytes.fromhex(wire), int(faults), int(shortest),
                            int(longest), int(first)])

    def _detent(self, words):
        self.detents.append(int(words[1]))

    def _serial(self, words):
        self.serial.append((int(words[1]), bytes.fromhex(words[2])))

    def _oled(self, words):
        self.parts.append((int(words[1]), "oled", bytes.fromhex(words[2])))

    def _piezo(self, words):
        self.parts.append((int(words[1]), "piezo", int(words[2])))

    def _flash(self, words):
        self.flash_ops.append((int(words[1]), words[2], int(words[3]), int(words[4]),
                               int(words[5])))

    def _cut(self, words):
        self.cut_at = int(words[1])

    def _usb_up(self, words):
        self.usb_up.append(int(words[1]))

    def _usb_down(self, words):
        self.usb_down.append(int(words[1]))

    def _usb_name(self, words):
        self.usb_names.append((int(words[1]), words[2],
                               bytes.fromhex(words[3]).decode("utf-8", "replace")))

    def _usb_config(self, words):
        self.usb_configs.append((int(words[1]), bytes.fromhex(words[2])))
        self.usb_walks.append((int(words[1]), _walked(json.loads(words[3]))))

    def _midi(self, words):
        self.midi.append((int(words[1]), bytes.fromhex(words[2])))

    def _jack(self, words):
        self.jacks.append((int(words[1]), int(words[2], 16)))

    def _off(self, words):
        self.offs.append((int(words[1]), int(words[2])))

    def _reset(self, words):
        self._reset_at = int(words[1])

    def _on_table_time(self, text):
        """An event with its times on the table's clock (this run's started at `offset`)."""
        if not self.offset or text[:2] not in _TIMED:
            return text
        words = text.split(" ")
        for at in _TIMED[text[:2]]:
            words[at] = str(int(words[at]) + self.offset)
        return " ".join(words)

