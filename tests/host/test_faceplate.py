"""The printable faceplate (chromawheel board faceplate): drawn at 1:1 in mm, its labels where
the board file's ring lights each sector, checked against the board file by hand-worked angles
and by the LEDs the ring mapping lights."""

import json
import math
import os
import xml.etree.ElementTree as ET

import pytest

from hardware import board as board_file
from hardware.ring import sector_leds

from host_tools.cli.main import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = ("pico", "qtpy_rp2040", "esp32", "sim")


def face(tmp_path, board):
    out = tmp_path / "face.svg"
    assert main(["board", "faceplate", board, "-o", str(out)]) == 0
    return ET.parse(str(out)).getroot()


def elements(root, attribute):
    return {int(e.get(attribute)): e for e in root.iter() if e.get(attribute) is not None}


def angle_of(element, centre, x="x", y="y"):
    """Degrees clockwise from the top, of an element's point around the centre."""
    dx, dy = float(element.get(x)) - centre, centre - float(element.get(y))
    return math.degrees(math.atan2(dx, dy)) % 360


def variant(tmp_path, name, count, led_at_c=None):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        obj = json.load(f)
    obj["ring"]["count"] = count
    if led_at_c is not None:
        obj["ring"]["led_at_c"] = led_at_c
    path = tmp_path / ("%s-%d.json" % (name, count))
    path.write_text(json.dumps(obj))
    return str(path)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_face_is_drawn_at_one_to_one(tmp_path, name):
    root = face(tmp_path, name)
    width, height = root.get("width"), root.get("height")
    assert width.endswith("mm") and height.endswith("mm")
    assert root.get("viewBox") == "0 0 %s %s" % (width[:-2], height[:-2])   # 1 unit, 1 mm
    centre = float(width[:-2]) / 2
    hole = [e for e in root.iter() if e.get("data-hole") == "shaft"][0]
    assert (float(hole.get("cx")), float(hole.get("cy"))) == (centre, centre)
    assert float(hole.get("r")) * 2 == 7.2                # an EC11's M7 bushing
    # one cutting instruction: the dashed circle, its diameter printed; no corner marks
    cuts = [e for e in root.iter() if e.get("data-cut")]
    assert [e.get("data-cut") for e in cuts] == ["face"]
    texts = " ".join(e.text or "" for e in root.iter())
    diameter = 2 * float(cuts[0].get("r"))
    assert "Cut along the dashed circle (%.1f mm across)." % diameter in texts
    # the scale bar: 20 mm of the SVG's millimetres, labelled
    bar = [e for e in root.iter() if e.get("data-part") == "scale"][0]
    assert bar[0].get("d").split()[3:5] == ["h", "20"] and "20 mm" in texts


@pytest.mark.parametrize("name", SHIPPED)
def test_the_labels_line_up_with_the_board_files_leds(tmp_path, name):
    root = face(tmp_path, name)
    centre = float(root.get("width")[:-2]) / 2
    ring = board_file.load(os.path.join(ROOT, "boards", name + ".json"))["ring"]
    labels = elements(root, "data-pc")
    leds = elements(root, "data-led")
    assert sorted(labels) == list(range(12)) and len(leds) == ring["count"]
    step = 1 if ring["direction"] == "cw" else -1
    for pc in range(12):
        # 12 LEDs: the note pc sits 30 degrees a semitone clockwise from C, over LED
        # led_at_c + pc in the ring's direction (sim: LED 3 at C, anticlockwise).
        assert abs(angle_of(labels[pc], centre) - 30 * pc) < 0.05, (name, pc)
        led = leds[(ring["led_at_c"] + step * pc) % 12]
        assert abs(angle_of(led, centre, "cx", "cy") - 30 * pc) % 360 < 0.05, (name, pc)
    assert labels[0].text == "C" and labels[3].text == "D\u266f/E\u266d"


def test_bigger_rings_put_each_label_over_its_leds(tmp_path):
    # 24 LEDs from LED 5, clockwise: C is LEDs 5 and 6 (0 and 15 degrees): its label at 7.5.
    root = face(tmp_path, variant(tmp_path, "pico", 24, led_at_c=5))
    centre = float(root.get("width")[:-2]) / 2
    labels = elements(root, "data-pc")
    leds = elements(root, "data-led")
    assert abs(angle_of(leds[5], centre, "cx", "cy")) < 0.05
    assert abs(angle_of(leds[6], centre, "cx", "cy") - 15) < 0.05
    assert abs(angle_of(labels[0], centre) - 7.5) < 0.05
    assert abs(angle_of(labels[6], centre) - 187.5) < 0.05
    # 16 LEDs, anticlockwise from LED 3 (the simulator's): each label over the one LED that
    # lights its sector; E is offset 5 (5 x 22.5 = 112.5 degrees), LED 3 - 5 = 14.
    root = face(tmp_path, variant(tmp_path, "sim", 16))
    centre = float(root.get("width")[:-2]) / 2
    labels = elements(root, "data-pc")
    leds = elements(root, "data-led")
    ring = board_file.load(variant(tmp_path, "sim", 16))["ring"]
    assert sector_leds(ring)[4] == [14]
    assert abs(angle_of(labels[4], centre) - 112.5) < 0.05
    assert abs(angle_of(leds[14], centre, "cx", "cy") - 112.5) < 0.05
    # 60 LEDs: a face for a 158 mm ring, five LEDs a sector, the label mid-sector.
    root = face(tmp_path, variant(tmp_path, "esp32", 60))
    assert float(root.get("width")[:-2]) > 158
    centre = float(root.get("width")[:-2]) / 2
    assert abs(angle_of(elements(root, "data-pc")[1], centre) - 42) < 0.05


def test_a_sixteen_led_face_marks_its_four_dark_leds(tmp_path):
    root = face(tmp_path, variant(tmp_path, "pico", 16))
    dark = sorted(int(e.get("data-dark")) for e in root.iter() if e.get("data-dark"))
    ring = board_file.load(variant(tmp_path, "pico", 16))["ring"]
    lit = {led for leds in sector_leds(ring) for led in leds}
    assert dark == sorted(set(range(16)) - lit) == [2, 6, 10, 14]   # boards/README.md
    assert "A crossed-out LED stays dark" in " ".join(e.text or "" for e in root.iter())
    root = face(tmp_path, "pico")                                   # 12: none dark
    assert not [e for e in root.iter() if e.get("data-dark")]


def test_ring_diameter_draws_a_generic_ring(tmp_path, capsys):
    out = tmp_path / "face.svg"
    assert main(["board", "faceplate", variant(tmp_path, "pico", 16), "--ring-diameter", "50",
                 "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ring_mm"] == [50.0, 37.0] and report["cut_mm"] == 50 + 2 * 19
    root = ET.parse(str(out)).getroot()
    circles = [float(e.get("r")) for e in root.iter() if e.tag.endswith("circle")
               and e.get("stroke") == "#999"]
    assert sorted(circles) == [18.5, 25.0]
    assert main(["board", "faceplate", "pico", "--ring-diameter", "50,60", "-o", str(out)]) == 2
    assert "--ring-diameter 50,60: the ring's outer diameter" in capsys.readouterr().err


def test_rings_the_wheel_cannot_use_and_the_web_board_are_refused(tmp_path, capsys):
    assert main(["board", "faceplate", variant(tmp_path, "pico", 13), "-o",
                 str(tmp_path / "x.svg")]) == 2
    assert "ring.count: 13 LEDs" in capsys.readouterr().err
    assert main(["board", "faceplate", "web", "-o", str(tmp_path / "x.svg")]) == 2
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("count", (16, 24, 60))
def test_shipped_boards_validate_with_bigger_rings(tmp_path, capsys, count):
    for name in SHIPPED + ("web",):
        assert main(["board", "validate", variant(tmp_path, name, count)]) == 0, name
    capsys.readouterr()
