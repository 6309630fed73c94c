"""`chromawheel emulate`: the firmware on a real port in the emulated RP2040, its ring decoded
off the WS2812 pin, the knob and button driven on their pins (host_tools/emulator/rp2040.py).

Two ports, each the stock upstream image (host_tools/emulator/images):
- MicroPython on a Pico (board files of platform rp2): deployed with the same deploy as a Pico
  gets (real mpremote transport) onto a fresh flash image; the first run for a board takes
  about a minute (the emulator runs at about a tenth of a Pico's speed);
- CircuitPython on a QT Py RP2040: its CIRCUITPY drive (FAT12 in the flash image) is built on
  the host from what `deploy --drive` lays out (host_tools/emulator/circuitpy_drive.py).
The deployed image is kept in build/emulator/, named by a hash of everything deployed and of
the UF2; later runs start from a copy of it.

On CircuitPython (main.c, 10.2.1), USB starts after boot.py, and the emulated host (rp2040js's
USBCDC) opens the serial port as soon as the device is configured, about 60 ms (emulated)
after code.py has started: what code.py prints before that is lost, as on a real board (the
"code.py output:" header among it). The firmware's first line comes about half a second
later (its modules are .mpy: host_tools/device/drive.py), so nothing of the firmware's is
lost. A fresh drive has no boot_out.txt: the first power-up waits 1 s before writing it, and a
kept image's later power-ups find it matching and do not."""

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import time

from core import midi
from hardware import board as board_file

from host_tools import cache
from host_tools.device import deploy
from host_tools.device.files import board_key, board_path, merged_settings
from host_tools.emulator.parts import Parts, part_events
from host_tools.emulator.rp2040 import EmulatedPico, flash_holding, flash_with_uf2, image
from host_tools.errors import UserError
from host_tools.sim.simulator import (
    SCRIPT_START_MS,
    compile_script,
    decode_frame,
    midi_messages,
    state_after,
)

CACHE = cache("emulator")
# A bound on a boot that never comes, not a measure: the emulator runs at a tenth of a Pico's
# speed or less on a loaded machine, and a board without its OLED spends 6.5 emulated
# seconds finding that out (about 90 s of wall time with two test workers and more).
BOOT_TIMEOUT_S = 300
STARTED = ("meld set ", "safe mode")
FROZEN_MARK = b"chromawheel_defaults"     # the frozen module of build_uf2.sh frozen
# run_script waits this long after the script's end for events told late: a tone's end comes
# 3 of its periods after it (rp2040js/parts.cjs), 11.5 ms for the lowest (C4, firmware/sound.py).
SETTLE_MS = 20

# CircuitPython boards the emulator runs: the image, and the GPIO behind each pin name the
# board file may use (CircuitPython 10.2.1, ports/raspberrypi/boards/adafruit_qtpy_rp2040/
# pins.c).
CIRCUITPYTHON = {
    "qtpy_rp2040": ("circuitpython_qtpy", {
        "A0": 29, "A1": 28, "A2": 27, "A3": 26, "SDA": 24, "SCL": 25, "TX": 20, "RX": 5,
        "SCK": 6, "MISO": 4, "MOSI": 3, "NEOPIXEL": 12, "BUTTON": 21, "SDA1": 22,
        "SCL1": 23}),
}
# Terminal controls, no console text: CircuitPython's status bar sets the terminal's title
# (OSC 0 ... ST) and clears the line (CSI 2K, CSI 0G) before its own messages.
TERMINAL = re.compile(r"\x1b\][^\x1b\x07]*(?:\x1b\\|\x07)|\x1b\[[0-9;]*[A-Za-z]")


def load_board(name):
    board = board_file.load(board_path(name))
    if board["platform"] == "rp2" or (board["platform"] == "circuitpython"
                                      and board["board"] in CIRCUITPYTHON):
        return board
    raise UserError("board %s cannot be emulated: the emulator is an RP2040 running MicroPython "
                    "(rp2 board files) or CircuitPython on %s"
                    % (name, ", ".join(sorted(CIRCUITPYTHON))))


def is_circuitpython(board):
    return board["platform"] == "circuitpython"


def wired(name, board):
    """The board file with GPIO numbers for the emulator's pins (a CircuitPython board file
    names its pins)."""
    if not is_circuitpython(board):
        return board
    pins = CIRCUITPYTHON[board["board"]][1]

    def gpio(part, key):
        pin = board[part][key]
        if pin not in pins:
            raise UserError("board %s: %s %s %r is no pin of the emulated board (%s)"
                            % (name, part, key, pin, ", ".join(sorted(pins))))
        return pins[pin]
    out = dict(board)
    out["ring"] = dict(board["ring"], pin=gpio("ring", "pin"))
    out["encoder"] = dict(board["encoder"], pin_a=gpio("encoder", "pin_a"),
                          pin_b=gpio("encoder", "pin_b"))
    out["button"] = dict(board["button"], pin=gpio("button", "pin"))
    if board.get("display") is not None:
        sda = gpio("display", "sda")
        # The RP2040's I2C block on those pins: GPIO 4k and 4k+1 are I2C0, 4k+2 and 4k+3
        # I2C1 (busio.I2C picks it so, and refuses pins that are not one block's SDA and SCL).
        out["display"] = dict(board["display"], sda=sda, scl=gpio("display", "scl"),
                              i2c=sda // 2 % 2)
    if board.get("buzzer") is not None:
        out["buzzer"] = dict(board["buzzer"], pin=gpio("buzzer", "pin"))
    if board.get("midi") is not None:
        # busio.UART takes the UART its pins carry (hardware/board.py: rp2040_uart)
        tx = gpio("midi", "tx")
        out["midi"] = dict(board["midi"], tx=tx, rx=gpio("midi", "rx"),
                           uart=board_file.rp2040_uart(tx, "tx"))
    return out


def firmware_image(name, uf2=None):
    """The UF2 a board runs: `uf2` (MicroPython only), else the vendored stock image."""
    board = load_board(name)
    if is_circuitpython(board):
        if uf2:
            raise UserError("--uf2 is for a MicroPython board; %s runs the stock CircuitPython "
                            "image" % name)
        return image(CIRCUITPYTHON[board["board"]][0])
    if uf2:
        if not os.path.isfile(uf2):
            raise UserError("--uf2 %s: no such file" % uf2)
        return os.path.abspath(uf2)
    return image("uf2")


def refuse_uf2_on_kept(flash, uf2):
    """--uf2 starts a fresh flash: a kept image already has its firmware."""
    if uf2 and flash and os.path.exists(flash):
        raise UserError("--uf2 runs on a fresh flash, and --flash %s exists already (it keeps "
                        "the firmware it has): name a new file, or leave --flash out" % flash)


def is_frozen(uf2):
    """Does this UF2 carry the firmware frozen in (its first boot writes the rest)?"""
    with open(uf2, "rb") as f:
        return FROZEN_MARK in f.read()


def emulated(name, flash, held=False, uf2=None, parts=True):
    """An EmulatedPico (not yet entered) for board `name` on flash image `flash`, with the
    optional parts its board file has (OLED, piezo) on their pins; `parts` False leaves them
    off (nothing on the I2C pins, not even pull-ups: a QT Py's bare STEMMA port), while the
    firmware's own board file still names them."""
    board = wired(name, load_board(name))
    if not parts:
        board = dict(board, display=None, buzzer=None)
    return EmulatedPico(flash, board, held=held, uf2=firmware_image(name, uf2))


def _payload_key(name, uf2):
    digest = hashlib.sha256()
    if is_circuitpython(load_board(name)):
        files = _drive_layout(name)
    elif is_frozen(uf2):
        files = []
    else:
        # what is deployed, and the laptop's code that lays it out or deploys it
        files = deploy.payload(name, compiled=True) + _deploy_sources()
    for path, data in files:
        digest.update(path.encode() + b"\0" + data)
    with open(uf2, "rb") as f:
        digest.update(f.read())
    return digest.hexdigest()[:16]


def _deploy_sources():
    """[(path, bytes)] of the laptop's deploy (host_tools/device) and of the drive's layout
    (host_tools/builds/littlefs_uf2.py)."""
    from host_tools.builds import littlefs_uf2
    folder = os.path.dirname(os.path.abspath(deploy.__file__))
    sources = [("host_tools/device/" + filename, os.path.join(folder, filename))
               for filename in sorted(os.listdir(folder)) if filename.endswith(".py")]
    sources.append(("host_tools/builds/littlefs_uf2.py", littlefs_uf2.__file__))
    out = []
    for path, source in sources:
        with open(source, "rb") as f:
            out.append((path, f.read()))
    return out


def deployed_image(name, progress=print, uf2=None):
    """A flash image with the firmware deployed for board `name` (cached); its path. On the
    stock MicroPython image it is built on the laptop (what `chromawheel deploy` copies, on the
    littlefs drive where the rp2 port keeps it: host_tools/builds/littlefs_uf2.py, as `make uf2`
    lays it out), in a fraction of a second; with a UF2 of one's own (its drive's place
    unknown) the firmware is deployed over the serial port, which leaves its report beside the
    image (deploy_record())."""
    firmware = firmware_image(name, uf2)
    path = os.path.join(CACHE, "%s-%s.img" % (board_key(name), _payload_key(name, firmware)))
    if os.path.exists(path):
        return path
    os.makedirs(CACHE, exist_ok=True)
    fresh = "%s.%d.new" % (path, os.getpid())     # two runs at once each make their own
    if os.path.exists(fresh):
        os.remove(fresh)
    record = deploy_onto(name, fresh, progress, uf2)
    if record is not None:
        with open(fresh + ".json", "w") as f:
            json.dump(record, f)
        os.replace(fresh + ".json", _record_path(path))
    os.replace(fresh, path)
    return path


def _record_path(image_path):
    return image_path[:-len(".img")] + ".deploy.json"


def deploy_record(image_path):
    """The deploy that made a cached image (deployed_image()) over the serial port: {"report":
    deploy's report, "resets": the chip's resets during it}; None when no deploy made it (a
    CircuitPython drive or a frozen UF2 laid out on the host)."""
    try:
        with open(_record_path(image_path)) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def _drive_layout(name):
    """[(path, bytes)]: what `deploy --drive` lays out on a CIRCUITPY drive for board `name`."""
    from host_tools.emulator import circuitpy_drive
    folder = tempfile.mkdtemp(prefix="chromawheel-drive-")
    try:
        return circuitpy_drive.laid_out(name, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def deploy_onto(name, flash, progress=print, uf2=None):
    """Make a new flash image `flash` with the firmware deployed for board `name`; what
    deploy_record() keeps of a deploy over the serial port, or None (laid out on the host)."""
    firmware = firmware_image(name, uf2)
    if is_circuitpython(load_board(name)):
        from host_tools.emulator import circuitpy_drive
        files = _drive_layout(name)
        circuitpy_drive.make_flash(flash, firmware, files)
        progress("laid out %d files on a fresh CIRCUITPY drive" % len(files))
        return
    if is_frozen(firmware):
        # The image is the whole firmware: its first boot writes main.py, boot.py, board.json.
        with open(flash, "wb") as f:
            f.write(flash_with_uf2(firmware))
        progress("a fresh flash with %s (the firmware frozen in)" % os.path.basename(firmware))
        return
    if uf2 is None:
        _lay_out_drive(name, flash, firmware)
        progress("laid out the firmware on a fresh Pico's drive")
        return
    progress("deploying the firmware onto a fresh emulated Pico (once for this firmware)")
    with emulated(name, flash, uf2=uf2) as pico:
        report = deploy.deploy(pico.port, name, progress=lambda line: progress("  " + line))
        resets = pico.resets
    progress("deployed %d files in %.1f s" % (report["files"], report["seconds"]))
    return {"report": report, "resets": resets}


def _lay_out_drive(name, flash, firmware):
    """A fresh flash: the stock UF2, and on its littlefs drive what a deploy copies (compiled),
    as `make uf2` builds it for makers to drag onto a Pico."""
    flash_holding(flash, deploy.payload(name, compiled=True), firmware)


def script_start(hold=False):
    """Knob commands that start a script where `chromawheel sim` starts it: once the firmware
    has started (its first line and frame, in emulated time), 20 ms on, or at once when the
    button was held through power-up (the simulator's prelude)."""
    return ["started"] + ([] if hold else ["wait %d" % SCRIPT_START_MS])


def wait_started(pico, timeout=BOOT_TIMEOUT_S):
    """Wait for the firmware's first line (the set it loaded, or safe mode), a frame, and
    the app's line for it, which it prints once the ring shows it (safe mode has none)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = _said(pico)
        complete = text[:text.rfind("\n") + 1]         # a line still arriving does not count
        if "safe mode" in complete and pico.frames:
            return
        if STARTED[0] in complete and pico.frames and _line_after(pico, pico.frames[0][0]):
            return
        time.sleep(0.05)
    raise UserError("the emulated board did not start in %d s; it said: %s"
                    % (timeout, _said(pico)[-300:]))


def _line_after(pico, ns):
    """Has the board finished a line after emulated time `ns`?"""
    return b"\n" in b"".join(data for at, data in pico.serial if at > ns)


def _said(pico):
    """What the board printed, from the timed copy that comes in order with the frames and the
    knob's "done" (the pty copy may lag behind them)."""
    return _text(b"".join(data for _, data in pico.serial))


def _text(data):
    return TERMINAL.sub("", data.decode("utf-8", "replace"))


def frames_of(pico, ring, since_ns=0, until_ns=None):
    """The run as the simulator writes it: {"wheel", "leds", "console"} a frame, the console
    lines printed while it was the frame shown (the first frame's: those before it too), and on
    a board whose OLED and piezo are modelled (emulator/parts.py) "display" (its text once the
    frame is shown) and "tones" ([Hz, ms] started after this frame); "midi" (the MIDI messages
    the board sent over USB while it was the frame shown), and on a board with MIDI jacks
    "jacks" (those it sent on MIDI OUT); "hand", "score" and "link" read from the console as
    the simulator reads them; plus "ns" (emulated time) and "faults" (WS2812 timing faults on
    the wire). Events after `until_ns` (when given) are left out."""
    timeline = [(ns, 1, data) for ns, data in pico.serial if ns >= since_ns]
    timeline += [(f[0], 0, f) for f in pico.frames if f[0] >= since_ns]
    frames = _Frames(pico, ring)
    if frames.parts is not None:
        timeline += [(ns, 2, (part, data)) for ns, part, data in pico.parts if ns >= since_ns]
    timeline += [(ns, 3, data) for ns, data in pico.midi if ns >= since_ns]
    timeline += [(ns, 4, byte) for ns, byte in pico.jacks if ns >= since_ns]
    if until_ns is not None:
        timeline = [item for item in timeline if item[0] <= until_ns]
    timeline.sort(key=lambda item: (item[0], item[1]))
    steps = (frames.frame, frames.serial, frames.part, frames.midi, frames.jack)
    for ns, kind, value in timeline:
        steps[kind](ns, value)
    return frames.done()


class _Frames:
    """frames_of()'s frames, built from the run's events in time order, one step a kind."""

    def __init__(self, pico, ring):
        self.ring = ring
        self.modelled = pico.board is not None and part_events(pico.board)
        self.parts = Parts(pico.board) if self.modelled else None
        self.jacks = pico.board is not None and pico.board.get("midi") is not None
        self.frames = []
        self.heard = []                       # (the frame a tone follows, its entry)
        self.raw = b""
        self.before = []                      # lines printed before the first frame
        self.sent = []                        # MIDI sent before the first frame
        self.sent_jacks = []                  # and on the jacks
        self.parser = midi.Parser()           # the jacks' bytes come one at a time
        self.table = {}                       # "hand", "score", "link" (state_after)

    def serial(self, ns, data):
        """The lines complete so far go to the frame shown (the first frame's if none yet)."""
        self.raw += data
        if b"\n" not in data:
            return
        end = self.raw.rfind(b"\n") + 1     # a line still being printed waits
        lines = [line for line in _text(self.raw[:end]).replace("\r", "").split("\n") if line]
        self.raw = self.raw[end:]
        for line in lines:                    # the simulator's frames read the same lines
            self.table = state_after(self.table, line)
        if self.frames:
            last = self.frames[-1]
            last["console"] = "\n".join(([last["console"]] if last["console"] else []) + lines)
            self._table(last)
        else:
            self.before.extend(lines)

    def _table(self, frame):
        for key in ("hand", "score", "link"):
            if key in self.table:
                frame[key] = self.table[key]
            else:
                frame.pop(key, None)

    def midi(self, ns, data):
        (self.frames[-1]["midi"] if self.frames else self.sent).extend(midi_messages(data))

    def jack(self, ns, byte):
        status = self.parser.feed(byte)
        if status:
            length = 2 if 0xC0 <= status < 0xE0 else 3
            message = [status, self.parser.data1, self.parser.data2][:length]
            (self.frames[-1]["jacks"] if self.frames else self.sent_jacks).append(message)

    def part(self, ns, value):
        part, data = value
        if part == "oled":
            self.parts.oled_write(data)
            if self.frames:
                self.frames[-1]["display"] = self.parts.rows()
        elif self.parts.piezo(ns, data):
            self.heard.append((max(len(self.frames) - 1, 0), self.parts.tones[-1]))

    def frame(self, ns, value):
        wheel, leds = decode_frame(self.ring, value[1])
        first = not self.frames
        frame = {"wheel": wheel, "leds": leds, "console": "\n".join(self.before) if first else "",
                 "midi": self.sent if first else [], "ns": ns, "faults": value[2]}
        if self.jacks:
            frame["jacks"] = self.sent_jacks if first else []
        if self.modelled and "oled" in self.modelled:
            frame["display"] = self.parts.rows()
        if self.modelled and "piezo" in self.modelled:
            frame["tones"] = []
        self._table(frame)
        self.frames.append(frame)

    def done(self):
        for index, (_, freq, ms) in self.heard:
            if ms is not None and self.frames:
                self.frames[index]["tones"].append([freq, ms])
        return self.frames


def console_lines(pico):
    """The complete lines the board printed."""
    text = _said(pico).replace("\r", "")
    return [line for line in text[:text.rfind("\n") + 1].split("\n") if line]


def drive_files(flash):
    """{path: bytes} on the CIRCUITPY drive of a CircuitPython board's flash image."""
    from host_tools.emulator import circuitpy_drive
    return circuitpy_drive.drive_of(flash)


NVM_RECORDS = "(nvm)"        # run_script's drive: the records in microcontroller.nvm


def nvm_records(flash):
    """{name: bytes} of the firmware's records in a CircuitPython board's nvm (its settings
    and crash count: firmware/nvm_records.py)."""
    from firmware.nvm_records import NvmRecords
    from firmware.records import RECORD_KEYS
    from host_tools.emulator import circuitpy_drive
    records = NvmRecords(circuitpy_drive.nvm_of(flash), RECORD_KEYS)
    found = {}
    for name in RECORD_KEYS:
        data = records.read(name)
        if data is not None:
            found[name] = data
    return found


def put_settings(name, flash, settings, progress=print):
    """These settings (settings.json's keys) into board `name`'s powered-off flash image, the
    others kept, where its firmware keeps them: CircuitPython's nvm record; on MicroPython
    settings.json on the littlefs drive, written on the host into the image (as a file copied
    while the board is off: no boot for it), or, on a flash with no drive yet, over the
    emulated USB serial (the board boots once for it, and the app stops for the link)."""
    from firmware.records import RECORD_KEYS
    from firmware.settings import SETTINGS_PATH
    if is_circuitpython(load_board(name)):
        from firmware.nvm_records import NvmRecords
        from host_tools.emulator import circuitpy_drive
        nvm = circuitpy_drive.nvm_of(flash)
        records = NvmRecords(nvm, RECORD_KEYS)
        records.write(SETTINGS_PATH, merged_settings(records.read(SETTINGS_PATH), settings))
        circuitpy_drive.put_nvm(flash, nvm)
        return
    from littlefs import LittleFSError
    try:
        with littlefs_drive(flash) as fs:
            progress("writing the settings onto the emulated board's drive")
            try:
                with fs.open(SETTINGS_PATH, "rb") as f:
                    saved = f.read()
            except FileNotFoundError:
                saved = None
            # write, then rename over the old file: what the firmware and the link do
            with fs.open(SETTINGS_PATH + ".tmp", "wb") as f:
                f.write(merged_settings(saved, settings))
            fs.rename(SETTINGS_PATH + ".tmp", SETTINGS_PATH)
        return
    except LittleFSError:
        pass              # no drive yet (a frozen UF2's first boot makes it): the board's way
    from host_tools.device.link import DeviceLink
    progress("writing the settings onto the emulated board")
    with emulated(name, flash, parts=False) as pico:
        wait_started(pico)
        with DeviceLink(pico.port) as link:
            link.write_atomic(SETTINGS_PATH, merged_settings(link.read(SETTINGS_PATH), settings))


@contextlib.contextmanager
def littlefs_drive(flash):
    """The littlefs drive of a MicroPython board's powered-off flash image `flash`, mounted on
    the host (littlefs-python, configured as the rp2 port mounts it: builds/littlefs_uf2.py);
    what is written goes back into the image when the block ends without an error. A flash
    with no drive raises littlefs.LittleFSError (never formatted here)."""
    from littlefs import LittleFS, UserContext

    from host_tools.builds import littlefs_uf2 as lfs
    with open(flash, "r+b") as f:
        f.seek(lfs.STORAGE_BASE)
        drive = bytearray(f.read(lfs.STORAGE_BYTES))
        fs = LittleFS(context=UserContext(buffer=drive), mount=False, block_size=lfs.BLOCK,
                      block_count=lfs.STORAGE_BYTES // lfs.BLOCK, read_size=lfs.READ_SIZE,
                      prog_size=lfs.PROG_SIZE, lookahead_size=lfs.LOOKAHEAD,
                      disk_version=lfs.DISK_VERSION)
        fs.mount()
        yield fs
        fs.unmount()
        f.seek(lfs.STORAGE_BASE)
        f.write(drive)


def run_script(script, frames_path=None, board="pico", flash=None, hold=False,
               progress=print, uf2=None, drive=None, parts=True, settings=None):
    """Boot the deployed firmware (from `flash`, a kept image: deployed onto a fresh one first
    if it does not exist yet; else a copy of the cached deployed one), run the script on the
    pins once it has started, return (frames, console lines). `uf2`: another MicroPython
    image. `drive`: a dict, filled with the files on a CircuitPython board's CIRCUITPY drive
    after the run, and under NVM_RECORDS the firmware's records in its nvm. `parts` False: the
    board's OLED and piezo are left off (see emulated()). `settings`: a dict of settings the
    board starts with (put_settings)."""
    config = load_board(board)
    commands = compile_script(script, config["button"])
    refuse_uf2_on_kept(flash, uf2)
    own = flash is None
    if own:
        folder = tempfile.mkdtemp(prefix="chromawheel-emulate-")
        flash = os.path.join(folder, "flash.img")
        shutil.copyfile(deployed_image(board, progress, uf2), flash)
    elif not os.path.exists(flash):
        deploy_onto(board, flash, progress, uf2)
    try:
        if settings:
            put_settings(board, flash, settings, progress)
        with emulated(board, flash, held=hold, uf2=uf2, parts=parts) as pico:
            # Sent at power-up and run on the emulated clock from the firmware's start (the
            # simulator's prelude: the boot frame, then SCRIPT_START_MS): the same frames
            # every run.
            # Its end marked with it ("done"): what the board did up to the script's end, not
            # what reached us after it, so two runs give the same frames (a tone still
            # sounding at the end has no length yet). A tone's end is told a few of its
            # periods after it (rp2040js/parts.cjs): the second "done", SETTLE_MS later, makes
            # sure every event up to the first has arrived.
            pico.send(*(script_start(hold) + commands
                        + ["wait 50", "done", "wait %d" % SETTLE_MS, "done"]))
            wait_started(pico)
            done_ns = pico.wait_done(timeout=600, sent=True, answers=2)
            frames = frames_of(pico, config["ring"], until_ns=done_ns)
            console = console_lines(pico)
        if drive is not None and is_circuitpython(config):
            drive.update(drive_files(flash))
            drive[NVM_RECORDS] = nvm_records(flash)
    finally:
        if own:
            shutil.rmtree(folder, ignore_errors=True)
    if frames_path:
        with open(frames_path, "w") as f:
            for frame in frames:
                f.write(json.dumps(frame) + "\n")
    return frames, console
