"""Emulated boards at one table: MIDI cables from one board's OUT jack to another's IN, each
board in its own emulator process (host_tools/emulator/rp2040.py), the bytes at 31,250 baud in
emulated time and the boards' clocks kept in step by the cables themselves
(rp2040js/wire.cjs: a board runs no further ahead of the board cabled into it than one byte's
time), so a run of several boards is the same every time, however loaded the machine is.

A cable is a socket pair the host makes and keeps open: a board powered off and on again (its
process ended and a new one started) finds its cables where it left them."""

import contextlib
import os
import socket

BYTE_NS = 320000                      # 10 bits at 31,250 baud: the cables' lookahead


class Cable:
    """A MIDI cable: what the board at its OUT end sends, the board at its IN end hears."""

    def __init__(self):
        self._out, self._in = socket.socketpair()

    def ends(self):
        return self._out.fileno(), self._in.fileno()

    def close(self):
        self._out.close()
        self._in.close()


def cable(sender, receiver, cables):
    """A cable from `sender`'s MIDI OUT to `receiver`'s MIDI IN (EmulatedPico, not yet
    entered), kept in `cables` (closed by the caller once the boards are off)."""
    made = Cable()
    out_fd, in_fd = made.ends()
    for pico, end, fd in ((sender, "out_fd", out_fd), (receiver, "in_fd", in_fd)):
        if pico.wire is None:
            pico.wire = {"in_fd": None, "out_fd": None, "byte_ns": BYTE_NS}
        pico.wire[end] = fd
    cables.append(made)
    return made


def ring(picos, cables):
    """The boards in a ring: each one's OUT to the next one's IN, the last back to the first."""
    for k, pico in enumerate(picos):
        cable(pico, picos[(k + 1) % len(picos)], cables)


# ---- a scripted round on cabled boards ---------------------------------------------------------

# The script starts at this table time (every board has started before: a board that has not
# is an error, named; the QT Py, the slower, starts at 3.0 s, its link a second later: each
# emulated second before the script costs both boards CPU), and a step's knob edges take this
# much more than the simulator's script says (4 edges a detent, 1 ms and 80 us of bounce each:
# board.cjs).
START_NS = 4000000000
EDGE_NS = 1100000
END_MS = 50


def _step_ns(lines, ppd):
    """How long a step's commands take on the emulated board (the turns' edges included)."""
    waits = sum(int(line.split()[1]) for line in lines if line.startswith("wait "))
    turns = sum(abs(int(line.split()[1])) for line in lines if line.startswith("turn "))
    return waits * 1000000 + turns * ppd * EDGE_NS


def timelines(script, count, button, ppd):
    """Each board's commands as segments, one a power-up (an `off` step ends one), every
    step's commands after an `until` at the table's time it starts; and the script's end."""
    from host_tools.emulator.emulate import SETTLE_MS
    from host_tools.sim.simulator import compile_script
    from host_tools.sim.table import parse_script
    segments = [[["started", "until %d" % START_NS]] for _ in range(count)]
    now = START_NS
    for wheel, step in parse_script(script, count):
        words = step.split()
        current = segments[wheel][-1]
        if words[0] == "off" and len(words) == 2 and words[1].isdigit():
            current += ["until %d" % now, "off %s" % words[1]]
            segments[wheel].append([])
        elif words[0] == "cable" and len(words) == 2 and words[1] in ("on", "off"):
            current += ["until %d" % now, step]
        else:
            lines = compile_script(step, button)
            current += ["until %d" % now] + lines
            now += _step_ns(lines, ppd)
    end = now + END_MS * 1000000
    for wheel in range(count):
        # The second "done" lets the events told late (a tone's end) arrive: emulate.run_script.
        segments[wheel][-1] += ["until %d" % end, "done", "wait %d" % SETTLE_MS, "done"]
    return segments, end


def run_script(script, boards, settings=None, progress=print, flashes=None):
    """The boards (names) cabled in a ring, each from a copy of its deployed image (or
    `flashes`), wheel K on seat K with the link on the jacks unless `settings` (one for all)
    says otherwise, the script's steps on their wheels in the table's time (`K: off MS`
    powers wheel K off for MS ms, `K: cable off` / `cable on` pulls and puts back its OUT
    cable): each board's (frames, console)."""
    import shutil
    import tempfile

    from host_tools.emulator import emulate
    from host_tools.errors import UserError
    from host_tools.sim.table import wheel_settings
    configs = [emulate.load_board(name) for name in boards]
    folder = tempfile.mkdtemp(prefix="chromawheel-table-")
    cables = []
    try:
        if flashes is None:
            flashes = []
            for k, name in enumerate(boards):
                flashes.append(os.path.join(folder, "wheel%d.img" % (k + 1)))
                shutil.copyfile(emulate.deployed_image(name, progress), flashes[-1])
        for k, name in enumerate(boards):
            emulate.put_settings(name, flashes[k], wheel_settings(k + 1, settings), progress)
        picos = [emulate.emulated(name, flash) for name, flash in zip(boards, flashes)]
        ring(picos, cables)
        segments, end = timelines(script, len(boards), configs[0]["button"],
                                  configs[0]["encoder"]["pulses_per_detent"])
        with contextlib.ExitStack() as stack:
            for pico, parts in zip(picos, segments):
                stack.enter_context(pico)
                pico.later = parts[1:]
                pico.send(*parts[0])
            for pico in picos:
                pico.wait_done(timeout=3600, sent=True, answers=2)
            late = [e for pico in picos for e in pico.events if e.startswith("? until")]
            if late:
                raise UserError("a board was not ready for the script: %s (a board that had "
                                "not started %d s after power-up?)" % (late[0],
                                                                      START_NS // 10 ** 9))
            return [(emulate.frames_of(pico, config["ring"], until_ns=end),
                     emulate.console_lines(pico)) for pico, config in zip(picos, configs)]
    finally:
        for made in cables:
            made.close()
        shutil.rmtree(folder, ignore_errors=True)
