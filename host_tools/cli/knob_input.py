"""Knob and button steps typed on standard input (cw 1, ccw 1, click, double, long) for a board
that runs in the background (the virtual board, the emulated Pico), until Ctrl-C."""

import select
import sys

from host_tools.sim.simulator import compile_script


def serve(send, button, show):
    """Read lines from stdin, send their protocol lines with send(*lines); call show() about
    ten times a second (to print what changed). A typo is answered, never fatal."""
    reading = True
    try:
        while True:
            ready = select.select([sys.stdin] if reading else [], [], [], 0.1)[0]
            if ready:
                line = sys.stdin.readline()
                if not line:
                    reading = False              # stdin closed: keep serving the board
                elif line.strip():
                    try:
                        send(*compile_script(line, button))
                    except Exception as err:     # a typo must not stop the board
                        print("? %s" % err)
            show()
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
