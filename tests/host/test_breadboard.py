"""The Pico build on a breadboard (host_tools/builds/breadboard.py, boards/wiring/
pico-breadboard.svg), followed as a breadboard conducts: the five holes of a column's strip
above the channel are one node, the five below another, each rail one node, a jumper joins its
two holes, the Pico joins its GND pins. Every wire of the wiring picture for the parts it draws
(wiring.connections(): the ring, the encoder, the OLED, the piezo) comes out as the same net,
through the same resistor, and no two of the Pico's signal pins share a node."""

import os
import xml.etree.ElementTree as ET

import pytest

from hardware import board as board_file

from host_tools.builds import breadboard, wiring
from host_tools.device.files import ROOT, board_path

DRAWN = ("ring", "encoder", "display", "buzzer")


class Nets:
    def __init__(self):
        self.parent = {}

    def find(self, a):
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def follow(picture):
    """(nets, series, pin_nodes): the breadboard's nets, the resistors in series [(value,
    node, node)], and {the Pico's pin label: its node}."""
    nets, series, pins = Nets(), [], {}
    for e in picture.iter():
        hole, start, end = e.get("data-hole"), e.get("data-from"), e.get("data-to")
        if e.get("data-pin"):
            pins[e.get("data-pin")] = breadboard.node(hole)
            if e.get("data-pin").startswith("GND"):          # the Pico joins its grounds
                nets.join(breadboard.node(hole), "pico:GND")
        elif e.get("data-pad") and hole:                     # a part's leg in a hole
            nets.join("pad:" + e.get("data-pad"), breadboard.node(hole))
        elif start and end and e.tag.endswith("polyline"):
            a = breadboard.node(start)
            b = "pad:" + end if ":" in end else breadboard.node(end)
            if e.get("data-via"):
                series.append((e.get("data-via"), a, b))
            else:
                nets.join(a, b)
    return nets, series, pins


def picture(name="pico"):
    return ET.fromstring(breadboard.svg(board_file.load(board_path(name))))


def test_the_breadboard_has_the_wiring_pictures_nets():
    board = board_file.load(board_path("pico"))
    nets, series, pins = follow(picture())
    drawn = [w for w in wiring.connections(board) if w[1] in DRAWN]
    assert len(drawn) == 14                   # 3 ring, 5 encoder, 4 OLED, 2 piezo
    for pin, part, pad, _ in drawn:
        pad_node = "pad:%s:%s" % (part, pad)
        resistor = wiring.RESISTORS.get((part, pad))
        if resistor is None:
            assert nets.find(pins[pin]) == nets.find(pad_node), (pin, part, pad)
            continue
        # through its resistor: one end on the pin's net, the other on the pad's
        ends = [(nets.find(a), nets.find(b)) for value, a, b in series if value == resistor]
        assert (nets.find(pins[pin]), nets.find(pad_node)) in ends, (pin, part, pad, resistor)
        assert nets.find(pins[pin]) != nets.find(pad_node)
    # no short: the signal pins used are each on a net of their own, none on GND or 5 V
    used = {pin for pin, part, _, kind in drawn if kind not in ("ground", "power", "logic")}
    assert len({nets.find(pins[p]) for p in used}) == len(used)
    ground = nets.find(pins["GND (pin 38)"])
    assert all(nets.find(pins[p]) != ground for p in used)
    assert nets.find(pins["VBUS (5 V) (pin 40)"]) != ground


def test_the_pico_sits_across_the_channel_as_its_header_is():
    # pins 1-20 along line h from column 3, 40-21 along line c: 7 holes apart, pin 1 under
    # pin 40 (the USB end), pin 20 under pin 21
    assert breadboard.pico_hole(1) == "h3" and breadboard.pico_hole(40) == "c3"
    assert breadboard.pico_hole(20) == "h22" and breadboard.pico_hole(21) == "c22"
    assert breadboard.LINES["h"] - breadboard.LINES["c"] == 7      # the Pico's 17.78 mm
    holes = [e.get("data-hole") for e in picture().iter() if e.get("data-pin")]
    assert len(set(holes)) == len(holes) >= 36       # every pin the Pico's tables name
    assert {h[0] for h in holes} == {"c", "h"}


def test_the_shipped_breadboard_picture_is_the_board_files():
    with open(os.path.join(ROOT, "boards", "wiring", "pico-breadboard.svg")) as f:
        assert f.read() == breadboard.svg(board_file.load(board_path("pico"))), \
            "regenerate: chromawheel board wiring pico --breadboard -o " \
            "boards/wiring/pico-breadboard.svg"


def test_only_a_board_on_the_picos_header_is_drawn(tmp_path, capsys):
    from host_tools.cli.main import main
    assert main(["board", "wiring", "esp32", "--breadboard", "-o", str(tmp_path / "x.svg")]) \
        == 2
    assert "--breadboard is drawn for a board on the Pico's header" in capsys.readouterr().err
    assert main(["board", "wiring", "pico", "--breadboard", "--ky040", "-o",
                 str(tmp_path / "x.svg")]) == 2
    assert not (tmp_path / "x.svg").exists()
    with pytest.raises(ValueError):
        breadboard.svg(board_file.load(board_path("qtpy_rp2040")))
