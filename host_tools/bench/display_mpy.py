"""Run by `make bench` under the MicroPython unix port (the project root on sys.path, see
__main__.py): the OLED path with the MicroPython boards' driver (hardware/mp_parts.py) and a
model of the chip at the I2C boundary. Per display change: the time to lay the line out and
draw it, the bytes and transfers on the bus. Prints one JSON line."""

import gc
import json
import sys

from ssd1306_model import MicroPythonPin, Ssd1306Chip, micropython_i2c

chip = Ssd1306Chip()


class Machine:
    Pin = MicroPythonPin
    I2C = micropython_i2c(chip)


sys.modules["machine"] = Machine()

from hardware.clock import ticks_diff, ticks_us
from hardware.mp_parts import Ssd1306Panel
from hardware.oled import TextDisplay

from firmware.screen import layout

LINES = ["%s major triad (maj): %s" % (n, n) for n in ("C", "Db", "D", "Eb", "E", "F")] + [
    "C diminished seventh (dim7): C Eb Gb Bbb", "C minor triad (min): C Eb G",
    "Eb major pentatonic: Eb F G Bb C", "meld check: cursor A; cards C E G A; C 6: 70 pts",
]

config = {"i2c": 0, "sda": 4, "scl": 5, "freq": 400000, "address": 60, "width": 128,
          "height": 64, "rotation": 0}
panel = Ssd1306Panel(config)
display = TextDisplay(panel, 128, 64)
bytes0, transfers0, runs0 = chip.data_bytes, chip.transfers, chip.data_transfers
changes = 0
elapsed = 0
gc.collect()
for _ in range(20):
    for line in LINES:
        t0 = ticks_us()
        display.show(layout(line))                # row by row, as the app draws it
        elapsed += ticks_diff(ticks_us(), t0)
        changes += 1
data = chip.data_bytes - bytes0
transfers = chip.transfers - transfers0
runs = chip.data_transfers - runs0
# On the wire: every transfer is a start, the address byte, its bytes (9 clocks each with
# the ACK) and a stop; a command transfer carries 0x80 and the command, a data transfer 0x40
# and the pixels.
commands = transfers - runs
clocks = 9 * (transfers + 2 * commands + runs + data) + 2 * transfers
print(json.dumps({"changes": changes, "us_per_change": elapsed / changes,
                  "data_bytes_per_change": data / changes,
                  "transfers_per_change": transfers / changes,
                  "bus_us_per_change_400k": clocks * 1000000 / 400000 / changes,
                  "full_screen_bus_us_400k": (9 * (1024 + 2) + 2) * 1000000 / 400000}))
