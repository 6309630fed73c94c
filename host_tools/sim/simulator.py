"""The simulator: the unmodified firmware on the MicroPython unix port with board `sim`.

The host lays out a flash folder (the same files deploy sends), starts `micropython` in it the
way a board boots (boot.py, then main.py), and talks to hardware/sim.py over stdin/stdout:
knob and button commands in, ring frames (raw wire bytes) and console lines out.

Scripted runs use virtual time, so they replay identically; the terminal UI uses real time."""

import json
import os
import shutil
import subprocess
import tempfile

from core import midi
from core.parse import NoteError, midi_note
from hardware import board as board_file
from hardware.ring import sector_leds
from hardware.sim import (
    DISPLAY_MARK,
    FRAME_MARK,
    JACKS_MARK,
    MARK,
    MIDI_MARK,
    TONE_MARK,
    TONE_SIZE,
)

from host_tools.device.files import board_path, build_flash, merge_settings
from host_tools.errors import UserError
from host_tools.sim import sound_file
from host_tools.sim.display_image import DisplayImage
from host_tools.tools import micropython_path

BOOT = "exec(open('boot.py').read())\nexec(open('main.py').read())"
TURN_GAP_MS = 20          # more than a 60 fps frame: each turn gets its own frame
SCRIPT_TIMEOUT_S = 120


# A script's first step comes this long after the boot frame (with the button held through
# power-up: at once), on every runner (this one, emulate --script, the page's ?script=): the
# optional parts (OLED, piezo) are built after the first frame, one a rested pass, and a
# detent during a build waits for it, so by then a script's turns are shown as they come.
SCRIPT_START_MS = 300

def parse_heap(text):
    """'48k', '1m', '65536' -> bytes, for micropython -X heapsize."""
    if text is None:
        return None
    value = text.strip().lower()
    scale = 1
    if value.endswith("k"):
        scale, value = 1024, value[:-1]
    elif value.endswith("m"):
        scale, value = 1024 * 1024, value[:-1]
    if not value.isdigit() or int(value) * scale < 16 * 1024:
        raise UserError("--heap %r: expected a size such as 48k (at least 16k)" % text)
    return int(value) * scale


# ---- the script language --------------------------------------------------------------------

def gestures(button):
    """Button gestures as timed press/release commands, from the board's own timings."""
    settle = button["debounce_ms"] + 20
    return {
        "click": ["press", "wait %d" % settle, "release",
                  "wait %d" % (button["double_ms"] + settle)],
        "double": ["press", "wait %d" % settle, "release", "wait %d" % settle,
                   "press", "wait %d" % settle, "release", "wait %d" % settle],
        "long": ["press", "wait %d" % (button["long_ms"] + settle), "release",
                 "wait %d" % settle],
    }


WAIT_LIMIT_MS = 3600000       # an hour of virtual time in one step (every 10 ms is a loop tick)


def compile_script(text, button):
    """'cw 3; click; ccw 1; double; long; wait 200' -> protocol lines. UserError names the
    step that cannot be read."""
    lines = []
    named = gestures(button)
    steps = [s.strip() for s in text.replace("\n", ";").split(";")]
    for index, step in enumerate(steps):
        if not step:
            continue
        words = step.split()
        verb = words[0].lower()
        where = "--script step %d %r" % (index + 1, step)
        if verb in ("cw", "ccw"):
            count = _number(words, where, default=1)
            for _ in range(count):
                lines.append("turn %d" % (1 if verb == "cw" else -1))
                lines.append("wait %d" % TURN_GAP_MS)
        elif verb in named and len(words) == 1:
            lines.extend(named[verb])
        elif verb == "wait":
            lines.append("wait %d" % _number(words, where, limit=WAIT_LIMIT_MS))
        elif verb in ("press", "release") and len(words) == 1:
            lines.append(verb)
        elif verb in ("note-on", "note-off") and len(words) > 1:
            lines.append("midi " + _note_messages(verb, words[1:], where))
        elif verb == "pedal" and len(words) == 2 and words[1] in ("down", "up"):
            lines.append("midi b040%02x" % (127 if words[1] == "down" else 0))
        elif verb == "jacks" and len(words) == 2 and len(words[1]) % 2 == 0 and \
                words[1].strip("0123456789abcdefABCDEF") == "":
            lines.append("jacks " + words[1].lower())
        else:
            raise UserError("%s: expected cw N, ccw N, click, double, long, press, release, "
                            "wait MS, note-on NOTES, note-off NOTES, pedal down|up or jacks "
                            "HEX" % where)
    return lines


def _note_messages(verb, names, where):
    """'note-on C4 E4 G4' -> the MIDI bytes in hex (channel 1; note-on velocity 100, note-off
    64), sent to the wheel's MIDI input as one batch."""
    status = "90" if verb == "note-on" else "80"
    velocity = "%02x" % (midi.VELOCITY if verb == "note-on" else midi.RELEASE)
    out = []
    for name in names:
        try:
            out.append(status + "%02x" % midi_note(name) + velocity)
        except NoteError as err:
            raise UserError("%s: %s" % (where, err)) from None
    return "".join(out)


def _number(words, where, default=None, limit=100000):
    if len(words) == 1 and default is not None:
        return default
    if len(words) != 2 or not words[1].isdigit() or int(words[1]) > limit:
        raise UserError("%s: expected a whole number up to %d" % (where, limit))
    return int(words[1])


# ---- frames ---------------------------------------------------------------------------------

def decode_frame(ring, wire):
    """Wire bytes -> (wheel: 12 [r,g,b] C first, leds: count [r,g,b] in wire order). A sector
    reads its first LED (hardware/ring.py's sector_leds: they all show it)."""
    order = ring["order"]
    bpp = len(order)
    leds = []
    for led in range(ring["count"]):
        chunk = wire[led * bpp:(led + 1) * bpp]
        leds.append([chunk[order.index(c)] for c in "RGB"])
    wheel = [leds[row[0]] for row in sector_leds(ring)]
    return wheel, leds


class Firmware:
    """A running simulator process and the parser of what it prints."""

    def __init__(self, flash, heap=None, board="sim", reset_cause="power"):
        self.board = board_file.load(board_path(board))
        ring = self.board["ring"]
        self.frame_size = ring["count"] * len(ring["order"])
        display = self.board["display"]
        self.page_size = display["width"] if display else 0
        args = [micropython_path()]
        if heap:
            args += ["-X", "heapsize=%d" % heap]
        env = dict(os.environ, CHROMAWHEEL_RESET_CAUSE=reset_cause)   # firmware/ports/sim.py
        self.proc = subprocess.Popen(args + ["-c", BOOT], cwd=flash, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self._buffer = b""

    def send(self, lines):
        self.proc.stdin.write(("\n".join(lines) + "\n").encode())
        self.proc.stdin.flush()

    def finish(self, lines, timeout=None):
        """Send the last lines and wait for the process to end: its (stdout, stderr) bytes.
        After `timeout` seconds (default SCRIPT_TIMEOUT_S) it is stopped, and a UserError
        quotes the end of what it printed."""
        timeout = timeout or SCRIPT_TIMEOUT_S
        try:
            return self.proc.communicate(("\n".join(lines) + "\n").encode(), timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        console = [value for kind, value in self.feed(out) if kind == "console"]
        raise UserError("simulator: no end after %d s; it printed: %s"
                        % (timeout, _last_words(console, err)))

    def feed(self, data):
        """Parse output bytes into events: ("frame", wire bytes), ("console", text),
        ("display", (first page, last page, bytes)), ("tone", (ticks_ms, freq_hz, duty)),
        ("midi", the bytes the wheel sent on USB MIDI out), ("jacks", the bytes it sent on
        its MIDI OUT jack) and ("mark", None): the host's mark came back."""
        self._buffer += data
        events = []
        while self._buffer:
            if self._buffer.startswith(MARK):
                events.append(("mark", None))
                self._buffer = self._buffer[len(MARK):]
                continue
            if self._buffer.startswith(FRAME_MARK):
                need = len(FRAME_MARK) + self.frame_size + 1
                if len(self._buffer) < need:
                    break
                events.append(("frame", self._buffer[len(FRAME_MARK):need - 1]))
                self._buffer = self._buffer[need:]
                continue
            if self._buffer.startswith(DISPLAY_MARK):
                if len(self._buffer) < len(DISPLAY_MARK) + 2:
                    break
                first, last = self._buffer[2], self._buffer[3]
                need = len(DISPLAY_MARK) + 2 + (last - first + 1) * self.page_size + 1
                if len(self._buffer) < need:
                    break
                events.append(("display", (first, last, self._buffer[4:need - 1])))
                self._buffer = self._buffer[need:]
                continue
            if self._buffer[:2] in (MIDI_MARK, JACKS_MARK):
                if len(self._buffer) < len(MIDI_MARK) + 1:
                    break
                need = len(MIDI_MARK) + 1 + self._buffer[2] + 1
                if len(self._buffer) < need:
                    break
                events.append(("midi" if self._buffer[:2] == MIDI_MARK else "jacks",
                               self._buffer[3:need - 1]))
                self._buffer = self._buffer[need:]
                continue
            if self._buffer.startswith(TONE_MARK):
                need = len(TONE_MARK) + TONE_SIZE + 1
                if len(self._buffer) < need:
                    break
                e = self._buffer[2:need - 1]
                events.append(("tone", (int.from_bytes(e[0:4], "little"),
                                        int.from_bytes(e[4:6], "little"),
                                        int.from_bytes(e[6:8], "little"))))
                self._buffer = self._buffer[need:]
                continue
            if FRAME_MARK[:1] == self._buffer[:1] and len(self._buffer) < len(FRAME_MARK):
                break
            end = self._buffer.find(b"\n")
            if end < 0:
                break
            events.append(("console", self._buffer[:end].decode("utf-8", "replace")))
            self._buffer = self._buffer[end + 1:]
        return events


def run_script(script, frames_path=None, heap=None, board="sim", flash=None, hold=False,
               reset_cause="power", uptime_ms=0, wav_path=None, display_svg=None,
               meldset=None, settings=None):
    """Run a script without a terminal. Returns (frames, console lines); each frame is
    {"wheel", "leds", "console"} ("console": the lines printed while it was the frame shown;
    the firmware prints a state's line once the ring shows it; lines before the first frame
    are the first frame's), also written as JSON lines to frames_path. On a board with a
    display or a buzzer a frame also has "display" (the text on it once the frame is shown)
    and "tones" ([freq_hz, ms] that start after this frame and before the next); wav_path gets
    what the buzzer played, display_svg the last picture on the display. reset_cause:
    how the board started, "power" (a power-up) or "reset" (a reset or a watchdog).
    uptime_ms: where the virtual clock starts, as if the board had run that long (its ticks
    wrap every 2**30 like a real port's: ticks_us after 17.9 minutes, ticks_ms after 12.4
    days). meldset: a set (shipped name or file) installed and chosen before power-up.
    settings: a dict of settings (settings.json's keys) the board starts with."""
    commands = compile_script(script, board_file.load(board_path(board))["button"])
    own_flash = flash is None
    flash = flash or tempfile.mkdtemp(prefix="chromawheel-sim-")
    try:
        build_flash(flash, board, meldset=meldset)
        if settings:
            merge_settings(flash, settings)
        firmware = Firmware(flash, heap, board, reset_cause)
        # The boot frame shows before the first command (a real user cannot be faster).
        prelude = ["clock virtual %d" % uptime_ms] + (["press"] if hold else
                                                     ["wait %d" % SCRIPT_START_MS])
        out, err = firmware.finish(prelude + commands + ["wait 50", "quit"])
        frames, console, image, tones = _collect(firmware, out)
    finally:
        if own_flash:
            shutil.rmtree(flash, ignore_errors=True)
    if wav_path:
        sound_file.write_wav(wav_path, tones)
    if display_svg:
        if image is None:
            raise UserError("--display-svg: board %s has no display" % board)
        with open(display_svg, "w") as f:
            f.write(image.svg())
    if frames_path:
        with open(frames_path, "w") as f:
            for frame in frames:
                f.write(json.dumps(frame) + "\n")
    status = firmware.proc.returncode
    if status:
        raise UserError("simulator: the firmware stopped with status %d: %s" % (
            status, _last_words(console, err)))
    return frames, console


def _last_words(console, err):
    """The end of what the firmware printed: MicroPython prints an uncaught exception on
    stdout, after the console lines; the unix port's own errors go to stderr."""
    tail = (console + err.decode("utf-8", "replace").strip().splitlines())[-4:]
    return " | ".join(tail) or "no message"


def midi_messages(data):
    """The MIDI bytes the wheel sent, as messages: [[144, 60, 100], ...] (a frame's "midi")."""
    parser = midi.Parser()
    messages = []
    for byte in data:
        status = parser.feed(byte)
        if status:
            length = 2 if 0xC0 <= status < 0xE0 else 3
            messages.append([status, parser.data1, parser.data2][:length])
    return messages


def _joined(lines, line):
    return lines + "\n" + line if lines else line


def table_state(line):
    """The table modes' state in a console line, for the frames: "hand" (twelve card counts, C
    first) from the hand mode's 'hand: C E E G ...', with "held" (the MELD card ids held, in
    order; None for any) and "table" (the melds on the table, [{"seat": 1-4, "id", "notes"}])
    from its '; held: P5 maj' and '; table: P2 maj C-E-G, P1 5 G-D'; "score" ({"game",
    "players", "round", "totals", "current"}) from 'score: original, 2 players, round 1 of 3,
    totals 0 70, P2 to play' (the score mode, and wherever a meld is credited)."""
    from core.parse import NoteError, pc_of
    state = {}
    if line.startswith("hand: "):
        counts = [0] * 12
        for word in line[6:].split(";")[0].split(" (")[0].split():
            try:
                counts[pc_of(word.split("/")[0])] += 1
            except NoteError:
                break
        state["hand"] = counts
        held = _segment(line, "; held: ")
        if held is not None:
            state["held"] = None if held == "any" else held.split()
        table = _segment(line, "; table: ")
        if table is not None:
            state["table"] = [] if table == "none" else [_table_meld(m)
                                                         for m in table.split(", ")]
    at = line.find("score: ")
    if at >= 0:
        parts = line[at + 7:].split(";")[0].split(", ")
        try:
            totals = [int(t) for t in parts[3].split()[1:]]
            turn = parts[4].split()[0]
            state["score"] = {"game": parts[0], "players": int(parts[1].split()[0]),
                              "round": int(parts[2].split()[1]), "totals": totals,
                              "current": int(turn[1:]) - 1 if turn.startswith("P") else None}
        except (IndexError, ValueError):
            pass
    return state


def is_link_line(line):
    """A line of the table link's (its state, what another seat did, a broken link): the
    mode's state the frames show stays what the mode last said."""
    return line.startswith("link") or (line[:1] == "P" and line[1:2].isdigit()
                                       and line[2:3] in (" ", ":"))


def link_state(line):
    """The frames' "link" ({"seat", "members", "entries", "digest"}) from the table link's
    line, 'link: P2; members P1 P2; 17 entries; digest 0a1b2c3d4e' (firmware/link.py), or
    None for any other line."""
    if not line.startswith("link: ") or "; members " not in line:
        return None
    try:
        seat, members, entries, digest = line[6:].split("; ")
        return {"seat": None if seat == "no seat" else int(seat[1:]),
                "members": [int(m[1:]) for m in members.split()[1:] if m != "none"],
                "entries": int(entries.split()[0]), "digest": digest.split()[1]}
    except (IndexError, ValueError):
        return None


def state_after(state, line):
    """The frames' table state after a console line: "hand" and "score" as the mode last said
    them (table_state), "link" as the link last said it (link_state: once said, every frame
    after has it)."""
    if is_link_line(line):
        new = dict(state)
    else:
        new = table_state(line)
        if "link" in state:
            new["link"] = state["link"]
    link = link_state(line)
    if link is not None:
        new["link"] = link
    return new


def _segment(line, marker):
    """The text after `marker` up to the next '; ', or None."""
    at = line.find(marker)
    if at < 0:
        return None
    return line[at + len(marker):].split("; ")[0]


def _table_meld(text):
    """'P2 maj C-E-G' -> {"seat": 2, "id": "maj", "notes": ["C", "E", "G"]} ('*': a meld
    entered as a score item, no card, no notes)."""
    words = text.split(" ")
    notes = words[2] if len(words) > 2 else ""
    return {"seat": int(words[0][1:]), "id": "" if words[1] == "*" else words[1],
            "notes": notes.split("-") if notes else []}


def _set_table(frame, table):
    for key in ("hand", "score", "held", "table"):
        if key in table:
            frame[key] = table[key]
        else:
            frame.pop(key, None)
    if "link" in table:
        frame["link"] = table["link"]


def _frame(board, wire, console, sent, sent_jacks, image):
    """A frame of the run: the ring's wire bytes decoded, with what came before it."""
    wheel, leds = decode_frame(board["ring"], wire)
    frame = {"wheel": wheel, "leds": leds, "console": console, "midi": sent}
    if image is not None:
        frame["display"] = image.rows()
    if board["buzzer"]:
        frame["tones"] = []
    if board["midi"]:
        frame["jacks"] = sent_jacks
    return frame


def _collect(firmware, out):
    """(frames, console lines, the display image or None, tones) from the run's output;
    tones: [start ticks_ms, freq_hz, ms, duty] in the order played."""
    board = firmware.board
    image = DisplayImage(board["display"]) if board["display"] else None
    frames = []
    console = []
    since = []
    sent = []                        # MIDI messages before the first frame: the first frame's
    sent_jacks = []                  # (and on the jacks)
    tones = []
    tone_frames = []                 # the frame each tone follows
    table = {}                       # the table's state: "hand", "score", "link" (state_after)
    events = [event for event in firmware.feed(out) if event[0] != "mark"]
    for kind, value in events:
        if kind == "console":
            console.append(value)
            table = state_after(table, value)
            if frames:
                _set_table(frames[-1], table)
            if frames:               # the line of the frame the ring shows (printed after it)
                frames[-1]["console"] = _joined(frames[-1]["console"], value)
            else:                    # printed before the first frame: the first frame's
                since.append(value)
        elif kind in ("midi", "jacks"):
            (frames[-1][kind] if frames else sent if kind == "midi" else sent_jacks).extend(
                midi_messages(value))
        elif kind == "display":
            image.write(*value)
            if frames:
                frames[-1]["display"] = image.rows()
        elif kind == "tone":
            ticks, freq, duty = value
            if tones and tones[-1][2] is None:          # the previous tone ends here
                tones[-1][2] = (ticks - tones[-1][0]) % (1 << 30)
            if freq:
                tones.append([ticks, freq, None, duty])
                tone_frames.append(max(len(frames) - 1, 0))
        else:
            frames.append(_frame(board, value, "\n".join(since), sent, sent_jacks, image))
            _set_table(frames[-1], table)
            since = []
            sent = []
            sent_jacks = []
    played = [(t, i) for t, i in zip(tones, tone_frames) if t[2] is not None]
    for tone, index in played:
        if frames:
            frames[index]["tones"].append([tone[1], tone[2]])
    return frames, console, image, [t for t, _ in played]
