"""The simulator in a terminal: the ring drawn as a circle in true colour with the note names,
keys for the knob and the button, the firmware's console below."""

import math
import os
import select
import sys
import time

from host_tools.sim.display_image import DisplayImage
from host_tools.sim.simulator import Firmware, decode_frame, gestures

NAMES = ("C", "C#/Db", "D", "D#/Eb", "E", "F", "F#/Gb", "G", "G#/Ab", "A", "A#/Bb", "B")
KEYS_HELP = ("keys: \u2192 or ] turn clockwise   \u2190 or [ anticlockwise   space click   "
             "d double press   l long press   q quit")
ROWS = 17
COLUMNS = 60


def display_colour(rgb, gamma):
    """LED drive levels -> screen colour: undo the LED gamma so dim notes stay visible."""
    return [int(255 * (v / 255) ** (1 / gamma) + 0.5) if v else 0 for v in rgb]


def draw_ring(wheel, gamma, columns=COLUMNS):
    """Lines of text, each `columns` wide on the screen: 12 coloured dots on a circle, C at
    the top, clockwise."""
    grid = [[" "] * columns for _ in range(ROWS)]
    cx, cy, rx, ry = columns // 2, ROWS // 2, 17 * columns // COLUMNS, 6.5
    for sector in range(12):
        angle = 2 * math.pi * sector / 12
        x = int(round(cx + rx * math.sin(angle)))
        y = int(round(cy - ry * math.cos(angle)))
        r, g, b = display_colour(wheel[sector], gamma)
        lit = any(wheel[sector])
        dot = "\x1b[38;2;%d;%d;%dm\u2b24\x1b[0m" % (r, g, b) if lit else \
            "\x1b[38;5;238m\u25cb\x1b[0m"
        grid[y][x] = dot
        label = NAMES[sector]
        lx = int(round(cx + (rx + 7) * math.sin(angle))) - len(label) // 2
        ly = int(round(cy - (ry + 1.6) * math.cos(angle)))
        if 0 <= ly < ROWS:
            for i, ch in enumerate(label):
                if 0 <= lx + i < columns:
                    grid[ly][lx + i] = ch
    return ["".join(row) for row in grid]


def render_text_frame(wheel, gamma, console_lines, display_lines=()):
    """The ring, the display under it (boards with one), then the console."""
    display = ["  " + line for line in display_lines]
    return draw_ring(wheel, gamma) + display + [""] + console_lines


def run(flash, heap=None, board="sim"):
    """Interactive: raw keys in, ring and console redrawn on every frame."""
    import termios
    import tty
    firmware = Firmware(flash, heap, board)
    ring = firmware.board["ring"]
    gamma = ring["gamma"]
    named = gestures(firmware.board["button"])
    wheel = [[0, 0, 0]] * 12
    console = []
    display = firmware.board["display"]
    image = DisplayImage(display) if display else None
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?1049h\x1b[?25l")
        keys = b""
        while firmware.proc.poll() is None:
            ready, _, _ = select.select([fd, firmware.proc.stdout], [], [], 0.1)
            changed = False
            if firmware.proc.stdout in ready:
                data = os.read(firmware.proc.stdout.fileno(), 65536)
                if not data:
                    break
                for kind, value in firmware.feed(data):
                    if kind == "frame":
                        wheel, _ = decode_frame(ring, value)
                    elif kind == "display":
                        image.write(*value)
                    elif kind == "console":
                        console = (console + [value])[-8:]
                    changed = True
            if fd in ready:
                keys += os.read(fd, 32)
                keys, commands, done = _keys(keys, named)
                if commands:
                    firmware.send(commands)
                if done:
                    firmware.send(["quit"])
                    break
            if changed:
                lines = render_text_frame(wheel, gamma, console,
                                          image.terminal_lines() if image else ())
                out.write("\x1b[H\x1b[2J" + "\r\n".join(lines) + "\r\n\r\n" + KEYS_HELP)
                out.flush()
        firmware.proc.wait(timeout=5)
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        if firmware.proc.poll() is None:
            firmware.proc.kill()
    for line in console[-3:]:
        print(line)


def _keys(data, named):
    """(unused bytes, protocol commands, quit?) for the keys typed so far."""
    commands = []
    while data:
        if data.startswith(b"\x1b[C") or data[:1] == b"]":
            commands.append("turn 1")
            data = data[3:] if data[:1] == b"\x1b" else data[1:]
        elif data.startswith(b"\x1b[D") or data[:1] == b"[":
            commands.append("turn -1")
            data = data[3:] if data[:1] == b"\x1b" else data[1:]
        elif data[:1] == b"\x1b" and len(data) < 3:
            break
        elif data[:1] in (b" ", b"\n", b"\r"):
            commands += named["click"]
            data = data[1:]
        elif data[:1] == b"d":
            commands += named["double"]
            data = data[1:]
        elif data[:1] == b"l":
            commands += named["long"]
            data = data[1:]
        elif data[:1] in (b"q", b"\x03", b"\x04"):
            return b"", commands, True
        else:
            data = data[1:]
    return data, commands, False


def demo(frames, gamma, pause=0.08, out=sys.stdout):
    """No terminal to read keys from: replay scripted frames as text, one after another."""
    for frame in frames:
        display = frame.get("display")
        boxed = ["\u2502 " + row for row in display] if display is not None else ()
        lines = render_text_frame(frame["wheel"], gamma, frame["console"].splitlines()[-2:],
                                  boxed)
        out.write("\n".join(lines) + "\n\n")
        out.flush()
        time.sleep(pause)


TABLE_COLUMNS = 44                    # a ring's width with four side by side (176 columns)
TABLE_KEYS_HELP = ("keys: 1-4 choose the wheel   \u2192 ] \u2190 [ turn   space click   "
                   "d double   l long   q quit")


def run_table(flashes, heap=None, board="sim"):
    """Interactive, several wheels: their rings side by side, what each sends on its MIDI
    jacks handed to the others at once (a bus, in real time), the keys acting on the wheel
    chosen with 1-4."""
    import termios
    import tty
    firmwares = [Firmware(flash, heap, board) for flash in flashes]
    gamma = firmwares[0].board["ring"]["gamma"]
    named = gestures(firmwares[0].board["button"])
    wheels = [[[0, 0, 0]] * 12 for _ in firmwares]
    consoles = [[] for _ in firmwares]
    chosen = 0
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    streams = {f.proc.stdout.fileno(): k for k, f in enumerate(firmwares)}
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?1049h\x1b[?25l")
        keys = b""
        while all(f.proc.poll() is None for f in firmwares):
            ready, _, _ = select.select([fd] + list(streams), [], [], 0.1)
            changed = False
            for stream in ready:
                if stream == fd:
                    continue
                k = streams[stream]
                data = os.read(stream, 65536)
                if not data:
                    return
                changed = _table_events(firmwares, k, data, wheels, consoles) or changed
            if fd in ready:
                keys += os.read(fd, 32)
                keys, chosen, commands, done = _table_keys(keys, named, chosen, len(firmwares))
                if commands:
                    firmwares[chosen].send(commands)
                if done:
                    for firmware in firmwares:
                        firmware.send(["quit"])
                    break
                changed = True
            if changed:
                out.write("\x1b[H\x1b[2J" + "\r\n".join(
                    _table_screen(wheels, consoles, chosen, gamma)) + "\r\n\r\n" +
                    TABLE_KEYS_HELP)
                out.flush()
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        for firmware in firmwares:
            if firmware.proc.poll() is None:
                firmware.proc.kill()


def _table_events(firmwares, k, data, wheels, consoles):
    """Wheel k's output: its frames and lines kept, what it sent on its jacks to the others."""
    changed = False
    for kind, value in firmwares[k].feed(data):
        if kind == "frame":
            wheels[k], _ = decode_frame(firmwares[k].board["ring"], value)
        elif kind == "console":
            consoles[k] = (consoles[k] + [value])[-6:]
        elif kind == "jacks":
            for other, firmware in enumerate(firmwares):
                if other != k:
                    firmware.send(["jacks " + bytes(value).hex()])
            continue
        else:
            continue
        changed = True
    return changed


def _table_keys(data, named, chosen, count):
    """(unused bytes, the wheel chosen, commands for it, quit?)."""
    if data[:1].isdigit() and 1 <= int(data[:1]) <= count:
        return data[1:], int(data[:1]) - 1, [], False
    data, commands, done = _keys(data, named)
    return data, chosen, commands, done


def _table_screen(wheels, consoles, chosen, gamma):
    """The rings side by side, each titled, the chosen one marked; each one's last lines."""
    rings = [draw_ring(wheel, gamma, TABLE_COLUMNS) for wheel in wheels]
    titles = "".join((("[wheel %d]" if k == chosen else " wheel %d ") % (k + 1)).center(
        TABLE_COLUMNS) for k in range(len(wheels)))
    lines = [titles] + ["".join(row) for row in zip(*rings)]
    for k, console in enumerate(consoles):
        lines += ["%d: %s" % (k + 1, line) for line in console[-3:]]
    return lines
