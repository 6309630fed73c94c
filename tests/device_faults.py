"""Fault boots, run under the MicroPython unix port in a simulator flash folder
(tests/host/test_faults.py starts it):

    micropython device_faults.py

Every case damages a file on the flash, boots the app (board, settings, meld set, a few loop
ticks) and checks that it ran and kept the last good set. Prints one JSON line."""

import json
import os
import random

from hardware import board as board_file
from hardware.ring import Ring
from hardware.sim import SimButton, SimClock, SimEncoder

from firmware.app import App
from firmware.devices import Hardware
from firmware.loop import Loop
from firmware.ports import sim as sim_port

BOARD = board_file.load("board.json")


class Frames:
    def __init__(self):
        self.count = 0

    def write(self, buf):
        self.count += 1


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def boot():
    """One power-up of the app; returns it after a few ticks (the ring must have lit)."""
    output = Frames()
    hw = Hardware(BOARD, Ring(BOARD["ring"], output), SimEncoder(BOARD["encoder"]),
                  SimButton(BOARD["button"]), SimClock(), port=sim_port)
    hw.clock.virtual = True
    app = App(hw)
    loop = Loop(app)
    for _ in range(3):
        hw.clock.advance(20)
        loop.tick(hw.clock.ticks_ms())
    hw.encoder.turn(1)
    hw.clock.advance(20)
    loop.tick(hw.clock.ticks_ms())
    assert output.count >= 2, "the ring did not show the boot and the turn"
    return app


def settings(**values):
    write("settings.json", json.dumps(values).encode())


def main():
    random.seed(20261122)
    with open("melds/jazz.cwm", "rb") as f:
        jazz = f.read()
    results = {"set_truncated": 0, "set_corrupted": 0, "settings_truncated": 0,
               "settings_corrupted": 0, "kept_last_good": 0}

    # A flashed set cut short at every length: the last good set (default) is kept.
    for n in range(len(jazz)):
        write("melds/jazz.cwm", jazz[:n])
        settings(meldset="jazz", last_good_meldset="default")
        app = boot()
        assert app.meldset_name == "default", n
        results["set_truncated"] += 1
        results["kept_last_good"] += 1

    # Random bytes changed (1 to 4 of them): refused whole, the last good set is kept.
    for case in range(300):
        damaged = bytearray(jazz)
        for _ in range(random.randint(1, 4)):
            at = random.randrange(len(damaged))
            damaged[at] = (damaged[at] + random.randint(1, 255)) % 256
        write("melds/jazz.cwm", bytes(damaged))
        settings(meldset="jazz", last_good_meldset="default")
        app = boot()
        assert app.meldset_name == "default", case
        results["set_corrupted"] += 1
        results["kept_last_good"] += 1

    # The set intact again: it loads, and a settings file cut at every byte still boots.
    write("melds/jazz.cwm", jazz)
    good = json.dumps({"meldset": "jazz", "last_good_meldset": "jazz", "brightness": 128,
                       "colours": "note", "root": 5, "kind": 1, "melds": [0, 3, 0]}).encode()
    for n in range(len(good) + 1):
        write("settings.json", good[:n])
        app = boot()
        complete = n == len(good)
        assert app.meldset_name == ("jazz" if complete else "default"), n
        if complete:      # the settings were used: root 5, then boot() turned it once
            assert app.settings["root"] == 6 and app.settings["brightness"] == 128
        results["settings_truncated"] += 1
    for case in range(300):
        damaged = bytearray(good)
        at = random.randrange(len(damaged))
        damaged[at] = random.randrange(256)
        write("settings.json", bytes(damaged))
        app = boot()
        assert app.meldset_name in ("jazz", "default"), case
        results["settings_corrupted"] += 1
    os.remove("settings.json")
    print(json.dumps(results))


main()
