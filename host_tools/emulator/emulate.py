"""`chromawheel emulate`: the firmware on the real MicroPython rp2 port in the emulated RP2040,
deployed with the same deploy as a Pico gets (real mpremote transport), its ring decoded off
the WS2812 pin, the knob and button driven on their pins (host_tools/emulator/rp2040.py).

The first run for a board deploys onto a fresh flash image (about half a minute: the emulator
runs at about a tenth of a Pico's speed) and keeps it in build/emulator/, named by a hash of
everything deployed; later runs start from a copy of it."""

import hashlib
import json
import os
import shutil
import tempfile
import time

from hardware import board as board_file

from host_tools.device import deploy
from host_tools.device.files import ROOT, board_path
from host_tools.errors import UserError
from host_tools.emulator.rp2040 import EmulatedPico, image
from host_tools.sim.simulator import compile_script, decode_frame

CACHE = os.path.join(ROOT, "build", "emulator")
BOOT_TIMEOUT_S = 60
STARTED = ("meld set ", "safe mode")


def load_board(name):
    board = board_file.load(board_path(name))
    if board["platform"] != "rp2":
        raise UserError("board %s is not an rp2 build: the emulator is an RP2040" % name)
    return board


def _payload_key(name):
    digest = hashlib.sha256()
    for path, data in deploy.payload(name, compiled=True):
        digest.update(path.encode() + b"\0" + data)
    with open(image("uf2"), "rb") as f:
        digest.update(f.read())
    return digest.hexdigest()[:16]


def deployed_image(name, progress=print):
    """A flash image with the firmware deployed for board `name` (cached); its path."""
    load_board(name)
    path = os.path.join(CACHE, "%s-%s.img" % (name, _payload_key(name)))
    if os.path.exists(path):
        return path
    os.makedirs(CACHE, exist_ok=True)
    fresh = path + ".new"
    if os.path.exists(fresh):
        os.remove(fresh)
    progress("deploying the firmware onto a fresh emulated Pico (once for this firmware)")
    with EmulatedPico(fresh, load_board(name)) as pico:
        report = deploy.deploy(pico.port, name, progress=lambda line: None)
    progress("deployed %d files in %.1f s" % (report["files"], report["seconds"]))
    os.replace(fresh, path)
    return path


def wait_started(pico, timeout=BOOT_TIMEOUT_S):
    """Wait for the firmware's first line (the set it loaded, or safe mode) and a frame."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = _said(pico)
        complete = text[:text.rfind("\n") + 1]         # a line still arriving does not count
        if [s for s in STARTED if s in complete] and pico.frames:
            return
        time.sleep(0.05)
    raise UserError("the emulated board did not start in %d s; it said: %s"
                    % (timeout, _said(pico)[-300:]))


def _said(pico):
    """What the board printed, from the timed copy that comes in order with the frames and the
    knob's "done" (the pty copy may lag behind them)."""
    return b"".join(data for _, data in pico.serial).decode("utf-8", "replace")


def frames_of(pico, ring, since_ns=0):
    """The run as the simulator writes it: {"wheel", "leds", "console"} a frame, the console
    lines printed since the previous frame; plus "ns" (emulated time) and "faults" (WS2812
    timing faults on the wire)."""
    timeline = [(ns, 1, data) for ns, data in pico.serial if ns >= since_ns]
    timeline += [(f[0], 0, f) for f in pico.frames if f[0] >= since_ns]
    timeline.sort(key=lambda item: (item[0], item[1]))
    frames = []
    text = ""
    for ns, kind, value in timeline:
        if kind == 1:
            text += value.decode("utf-8", "replace")
            continue
        lines = text.replace("\r", "").split("\n")
        text = lines.pop()                      # a line still being printed waits
        wheel, leds = decode_frame(ring, value[1])
        frames.append({"wheel": wheel, "leds": leds, "console": "\n".join(
            line for line in lines if line), "ns": ns, "faults": value[2]})
    return frames


def console_lines(pico):
    """The complete lines the board printed."""
    text = _said(pico).replace("\r", "")
    return [line for line in text[:text.rfind("\n") + 1].split("\n") if line]


def run_script(script, frames_path=None, board="pico", flash=None, hold=False,
               progress=print):
    """Boot the deployed firmware (from `flash`, a kept image, else a copy of the cached
    deployed one), run the script on the pins once it has started, return (frames, console
    lines)."""
    config = load_board(board)
    commands = compile_script(script, config["button"])
    own = flash is None
    if own:
        folder = tempfile.mkdtemp(prefix="chromawheel-emulate-")
        flash = os.path.join(folder, "flash.img")
        shutil.copyfile(deployed_image(board, progress), flash)
    try:
        with EmulatedPico(flash, config, held=hold) as pico:
            wait_started(pico)
            pico.send(*(commands + ["wait 50"]))
            pico.wait_done(timeout=600)
            frames = frames_of(pico, config["ring"])
            console = console_lines(pico)
    finally:
        if own:
            shutil.rmtree(folder, ignore_errors=True)
    if frames_path:
        with open(frames_path, "w") as f:
            for frame in frames:
                f.write(json.dumps(frame) + "\n")
    return frames, console
