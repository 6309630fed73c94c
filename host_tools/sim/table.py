"""`chromawheel sim --wheels N`: N wheels at one table on one machine, each the unmodified
firmware in its own simulator (host_tools/sim/simulator.py), their MIDI jacks on one bus: what
any wheel sends on MIDI OUT, every other one hears on MIDI IN, whole messages at 31,250 baud.
(A bus, not a ring: the table link runs on either, docs/midi.md.)

Scripted, in virtual time: every wheel's clock moves in steps of STEP_MS together; between two
steps the host hands each wheel what the others sent, so a run is the same every time. A
script's steps may name their wheel, `2: cw 3` (a step without one goes to the wheel named
last, wheel 1 at first); a step's time passes for every wheel. Wheel K sits on seat K and has
the link on the jacks, unless --settings (one for all the wheels) says otherwise. `K: off MS`
cuts wheel K's power for MS ms (its process killed, its flash folder kept, a power-up after)."""

import json
import os
import select
import shutil
import tempfile
import time

from hardware import board as board_file

from host_tools.device.files import board_path, build_flash, merge_settings
from host_tools.errors import UserError
from host_tools.sim.simulator import (
    SCRIPT_START_MS,
    SCRIPT_TIMEOUT_S,
    Firmware,
    _collect,
    compile_script,
)

MAX_WHEELS = 4
STEP_MS = 10                  # a loop period: the wheels' clocks move together this much
BYTES_A_STEP = 31.25          # 31,250 baud
BURST = 256                   # a sender's line never holds more than this waiting


def parse_script(text, wheels):
    """'1: cw 3; 2: click; wait 100' -> [(wheel index, step)]; UserError names a step that
    names no wheel of the table."""
    steps = []
    current = 0
    for index, step in enumerate(s.strip() for s in text.replace("\n", ";").split(";")):
        if not step:
            continue
        head, colon, rest = step.partition(":")
        if colon and head.strip().isdigit():
            wheel = int(head.strip())
            if not 1 <= wheel <= wheels:
                raise UserError("--script step %d %r: wheel %d, and the table has wheels 1 to "
                                "%d" % (index + 1, step, wheel, wheels))
            current = wheel - 1
            step = rest.strip()
        if step:
            steps.append((current, step))
    return steps


def wheel_settings(wheel, settings):
    """Wheel `wheel` (1-based) on seat `wheel`, its link on the jacks, then --settings."""
    from firmware.settings import defaults
    known = defaults()
    out = {}
    if "seat" in known:
        out["seat"] = wheel
    if "link" in known:
        out["link"] = "jacks"
    out.update(settings or {})
    return out


class Bus:
    """The jacks of every wheel on one bus: a sender's chunks (whole messages, as its
    firmware wrote them) go out at 31,250 baud and reach every other wheel whole."""

    def __init__(self, wheels):
        self.waiting = [[] for _ in range(wheels)]      # chunks each sender has yet to send
        self.tokens = [0.0] * wheels
        self.bytes = 0                                  # sent on the bus so far

    def sent(self, wheel, chunk):
        self.waiting[wheel].append(bytes(chunk))

    def step(self):
        """What each wheel hears this step: {wheel: [chunks]}."""
        heard = {k: [] for k in range(len(self.waiting))}
        for sender, chunks in enumerate(self.waiting):
            self.tokens[sender] = min(self.tokens[sender] + BYTES_A_STEP, BURST)
            while chunks and len(chunks[0]) <= self.tokens[sender]:
                chunk = chunks.pop(0)
                self.tokens[sender] -= len(chunk)
                self.bytes += len(chunk)
                for other in heard:
                    if other != sender:
                        heard[other].append(chunk)
        return heard


class Table:
    """N simulated wheels in virtual time, their jacks on one bus."""

    def __init__(self, wheels, board="sim", heap=None, meldset=None, settings=None,
                 flashes=None):
        if not 2 <= wheels <= MAX_WHEELS:
            raise UserError("--wheels %d: a table has 2 to %d wheels" % (wheels, MAX_WHEELS))
        self.board = board
        self.own = flashes is None
        self.folder = tempfile.mkdtemp(prefix="chromawheel-table-") if self.own else None
        self.flashes = flashes or [os.path.join(self.folder, "wheel%d" % (k + 1))
                                   for k in range(wheels)]
        self.firmwares = []
        for k, flash in enumerate(self.flashes):
            os.makedirs(flash, exist_ok=True)
            build_flash(flash, board, meldset=meldset)
            merge_settings(flash, wheel_settings(k + 1, settings))
        self.button = board_file.load(board_path(board))["button"]
        self.bus = Bus(wheels)
        self.raw = [bytearray() for _ in range(wheels)]
        self.pending = [[] for _ in range(wheels)]      # lines for each wheel's next step
        self.off_until = [None] * wheels                # a wheel without power: until when
        self.now = 0
        self.heap = heap

    def start(self):
        for flash in self.flashes:
            firmware = Firmware(flash, self.heap, self.board)
            firmware.send(["clock virtual 0"])
            self.firmwares.append(firmware)

    def close(self):
        for firmware in self.firmwares:
            if firmware.proc.poll() is None:
                firmware.proc.kill()
            firmware.proc.wait()
        if self.own:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def run(self, script):
        """The script's steps in turn, each on its wheel, every wheel's time moving with them;
        then each wheel's (frames, console)."""
        steps = parse_script(script, len(self.firmwares))
        self.advance(SCRIPT_START_MS)
        for wheel, step in steps:
            words = step.split()
            if words[0] == "off" and len(words) == 2 and words[1].isdigit():
                self.power_off(wheel, int(words[1]))
                continue
            for line in compile_script(step, self.button):
                if line.startswith("wait "):
                    self.advance(int(line.split()[1]))
                elif self.off_until[wheel] is None:       # a wheel without power: nothing
                    self.pending[wheel].append(line)
        self.advance(50)
        return self.finish()

    def power_off(self, wheel, ms):
        """The wheel's power cut now (its process killed: nothing saved at the end), back
        after `ms`: a power-up on the same flash folder."""
        firmware = self.firmwares[wheel]
        firmware.proc.kill()
        firmware.proc.wait()
        self.raw[wheel] += firmware.proc.stdout.read()
        firmware._buffer = b""
        self.pending[wheel] = []
        self.bus.waiting[wheel] = []
        self.off_until[wheel] = self.now + ms

    def _power_up(self, wheel):
        self.off_until[wheel] = None
        firmware = Firmware(self.flashes[wheel], self.heap, self.board)
        firmware.send(["clock virtual 0"])
        self.firmwares[wheel] = firmware

    def advance(self, ms):
        """Every wheel's clock `ms` on, a step at a time, what each sent handed to the others
        between steps (a wheel without power hears nothing)."""
        while ms > 0:
            step = min(STEP_MS, ms)
            ms -= step
            heard = self.bus.step()
            on = []
            for k, firmware in enumerate(self.firmwares):
                if self.off_until[k] is not None:
                    if self.now < self.off_until[k]:
                        continue
                    self._power_up(k)
                    firmware = self.firmwares[k]
                lines = self.pending[k] + ["jacks " + chunk.hex() for chunk in heard[k]]
                self.pending[k] = []
                firmware.send(lines + ["wait %d" % step, "mark"])
                on.append(k)
            for k in on:
                self._until_mark(k, self.firmwares[k])
            self.now += step

    def _until_mark(self, k, firmware):
        deadline = time.time() + SCRIPT_TIMEOUT_S
        fd = firmware.proc.stdout.fileno()
        while time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if not ready:
                if firmware.proc.poll() is not None:
                    break
                continue
            data = os.read(fd, 65536)
            if not data:
                break
            self.raw[k] += data
            marked = False
            for kind, value in firmware.feed(data):
                if kind == "jacks":
                    self.bus.sent(k, value)
                elif kind == "mark":
                    marked = True
            if marked:
                return
        raise UserError("simulator: wheel %d stopped answering at %d ms (%s)" % (
            k + 1, self.now, bytes(self.raw[k][-300:]).decode("utf-8", "replace")))

    def finish(self):
        """Quit every wheel: each one's (frames, console)."""
        out = []
        for k, firmware in enumerate(self.firmwares):
            if self.off_until[k] is None:
                firmware.send(["quit"])
            rest, _ = firmware.proc.communicate(timeout=SCRIPT_TIMEOUT_S)
            self.raw[k] += rest
            firmware._buffer = b""
            frames, console, _, _ = _collect(firmware, bytes(self.raw[k]))
            out.append((frames, console))
        return out


def run_script(script, wheels, frames_dir=None, board="sim", heap=None, meldset=None,
               settings=None, flashes=None):
    """A scripted run of `wheels` wheels: [(frames, console)] a wheel; with `frames_dir`,
    wheel K's frames in frames_dir/wheelK.jsonl."""
    with Table(wheels, board, heap, meldset, settings, flashes) as table:
        results = table.run(script)
    if frames_dir:
        os.makedirs(frames_dir, exist_ok=True)
        for k, (frames, _) in enumerate(results):
            with open(os.path.join(frames_dir, "wheel%d.jsonl" % (k + 1)), "w") as f:
                for frame in frames:
                    f.write(json.dumps(frame) + "\n")
    return results
