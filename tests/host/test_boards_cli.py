"""Board files from the command line, and the wiring pictures kept in step with them."""

import json
import os

from hardware import board as board_file
from host_tools.cli.main import main
from host_tools.device.files import ROOT, board_names, board_path
from host_tools.builds.wiring import connections, svg


def test_wiring_pictures_match_the_board_files():
    for name in board_names():
        b = board_file.load(board_path(name))
        if b["platform"] in ("sim", "web"):
            continue
        with open(os.path.join(ROOT, "boards", "wiring", name + ".svg")) as f:
            assert f.read() == svg(b), "regenerate: chromawheel board wiring %s -o " \
                                        "boards/wiring/%s.svg" % (name, name)


def test_pico_wiring():
    b = board_file.load(board_path("pico"))
    assert ("GP16", "ring", "DIN (via 330 \u03a9)", "data") in connections(b)
    assert ("GP17", "encoder", "A (CLK)", "a") in connections(b)


def test_board_commands(capsys, tmp_path):
    assert main(["board", "list", "--json"]) == 0
    assert [b["board"] for b in json.loads(capsys.readouterr().out)] == [
        "esp32", "pico", "qtpy_rp2040", "sim", "web"]
    assert main(["board", "validate", "pico"]) == 0
    bad = tmp_path / "bad.json"
    bad.write_text('{"board": "x", "platform": "rp2", "ring": {"pin": 99}, '
                   '"encoder": {"driver": "pio", "pin_a": 2, "pin_b": 3}, "button": {"pin": 4}}')
    capsys.readouterr()
    assert main(["board", "validate", str(bad)]) == 2
    assert capsys.readouterr().err == (
        "error: %s: ring.pin: expected a GPIO number 0-29, got 99\n" % bad)
    # The RP2040 has GPIO 0-29: a Pico pin 30 is refused, an ESP32 pin 33 is fine.
    bad.write_text('{"board": "x", "platform": "rp2", "ring": {"pin": 30}, '
                   '"encoder": {"driver": "pio", "pin_a": 2, "pin_b": 3}, "button": {"pin": 4}}')
    assert main(["board", "validate", str(bad)]) == 2
    assert capsys.readouterr().err == (
        "error: %s: ring.pin: expected a GPIO number 0-29, got 30\n" % bad)
    assert main(["board", "wiring", "sim", "-o", str(tmp_path / "x.svg")]) == 2
