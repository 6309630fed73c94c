"""Board files from the command line, and the wiring pictures kept in step with them."""

import json
import os

from hardware import board as board_file

from host_tools.builds.wiring import connections, svg
from host_tools.cli.main import main
from host_tools.device.files import ROOT, board_names, board_path


def test_wiring_pictures_match_the_board_files():
    for name in board_names():
        b = board_file.load(board_path(name))
        if b["platform"] in ("sim", "web"):
            continue
        for suffix, ky040 in (("", False), ("-ky040", True)):
            with open(os.path.join(ROOT, "boards", "wiring", name + suffix + ".svg")) as f:
                picture = f.read()
            assert picture == svg(b, ky040), "regenerate: chromawheel board wiring %s " \
                "%s-o boards/wiring/%s%s.svg" % (name, "--ky040 " if ky040 else "", name, suffix)
            # The subtitle gives the command that draws this very picture.
            assert "chromawheel board wiring %s%s -o FILE.svg" % (
                name, " --ky040" if ky040 else "") in picture
    with open(os.path.join(ROOT, "boards", "wiring", "pico-level-shifter.svg")) as f:
        assert f.read() == svg(board_file.load(board_path("pico")), level_shifter=True), \
            "regenerate: chromawheel board wiring pico --level-shifter -o " \
            "boards/wiring/pico-level-shifter.svg"


def test_every_picture_draws_the_capacitor_polarised():
    # an electrolytic the wrong way round can fail: each picture with the ring's 1000 uF draws
    # its straight plate (+, marked) to 5V and its curved plate to GND
    import glob
    import xml.etree.ElementTree as ET
    pictures = sorted(glob.glob(os.path.join(ROOT, "boards", "wiring", "*.svg")))
    assert len(pictures) >= 8
    for path in pictures:
        root = ET.parse(path).getroot()
        caps = [e for e in root.iter() if e.get("data-part") == "capacitor"]
        assert len(caps) == 1, path
        assert caps[0].get("data-polarised") == "+ to 5V"
        tags = [child.tag.split("}")[1] for child in caps[0]]
        assert tags.count("path") == 1 and tags.count("line") == 1, (path, tags)
        plus = [e for e in root.iter() if e.get("data-part") == "capacitor-plus"]
        assert [e.text for e in plus] == ["+"], path
        # the straight plate is the one on the 5V lead's side (above the curved one)
        line = [c for c in caps[0] if c.tag.endswith("}line")][0]
        curve = [c for c in caps[0] if c.tag.endswith("}path")][0]
        assert float(line.get("y1")) < float(curve.get("d").split()[2]), path


def test_the_level_shifter_sits_on_the_data_line():
    # 74AHCT125: the board's data pin to 1A (pin 2), VCC (pin 14) to 5 V, OE and the unused
    # inputs to GND; 1Y (pin 3) through the 330 ohm to DIN, drawn as a link between the parts.
    import xml.etree.ElementTree as ET
    b = board_file.load(board_path("pico"))
    wires = connections(b, level_shifter=True)
    assert ("GP16 (pin 21)", "shifter", "1A (pin 2)", "data") in wires
    assert ("VBUS (5 V) (pin 40)", "shifter", "VCC (pin 14)", "power") in wires
    assert not [w for w in wires if w[1:3] == ("ring", "DIN")]        # no direct data wire
    picture = ET.fromstring(svg(b, level_shifter=True))
    links = [e for e in picture.iter() if e.get("data-part") == "link"]
    assert len(links) == 3                    # and the optocoupler's two to MIDI IN
    texts = [e.text for e in picture.iter() if e.text]
    assert "1Y (pin 3)" in texts and "DIN" in texts and "330 \u03a9" in texts
    # the chip from above, notch up: every OE (1, 4, 10, 13) and the unused inputs 2A, 3A, 4A
    # (5, 9, 12) tied to GND (pin 7) by the rails; 2Y, 3Y, 4Y (6, 8, 11) not connected; 1A,
    # 1Y and VCC in their wires' colours (TI SN74AHCT125 pinout)
    (dip,) = [e for e in picture.iter() if e.get("data-part") == "dip14"]
    assert [e for e in dip.iter() if e.get("data-part") == "notch"]
    pins = {int(e.get("data-pin")): e.get("stroke") for e in dip.iter() if e.get("data-pin")}
    assert sorted(pins) == list(range(1, 15))
    ties = sorted(int(e.get("data-tie")) for e in dip.iter() if e.get("data-tie"))
    names = dict(enumerate(("1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A", "3OE",
                            "4Y", "4A", "4OE", "VCC"), 1))
    assert ties == sorted(n for n, name in names.items() if name.endswith("OE")
                          or name in ("2A", "3A", "4A", "GND")) == [1, 4, 5, 7, 9, 10, 12, 13]
    labels = [e.text for e in dip.iter() if e.text]
    for n, name in names.items():
        assert ("%d %s" % (n, name) if n <= 7 else "%s %d" % (name, n)) in labels
    assert labels.count("n.c.") == 3
    assert pins[2] == pins[3] == "#2e9e44" and pins[14] == "#d62728"


def test_the_board_outline_puts_each_wired_pad_in_its_place():
    import xml.etree.ElementTree as ET
    picture = ET.fromstring(svg(board_file.load(board_path("pico"))))
    pads = {e.get("data-pad"): e.get("fill") for e in picture.iter() if e.get("data-pad")}
    assert len(pads) == 40                                 # both rows of the Pico's header
    assert pads["pin 21"] == "#2e9e44" and pads["pin 40"] == "#d62728"   # GP16 data, VBUS
    assert pads["pin 23"] == "#222222" and pads["pin 4"] == "#bbb"     # GND wired, GP2 not
    assert pads["pin 1"] == pads["pin 2"] == "#7f3fbf"                 # MIDI OUT's TX, IN's RX


def test_pico_wiring():
    # The Pico's pinout: GP16 is physical pin 21, GP17 22, GP18 24 (GND at 23 between them),
    # VBUS 40, 3V3(OUT) 36.
    b = board_file.load(board_path("pico"))
    wires = connections(b)
    assert ("GP16 (pin 21)", "ring", "DIN", "data") in wires
    assert ("VBUS (5 V) (pin 40)", "ring", "5V", "power") in wires
    assert ("GP17 (pin 22)", "encoder", "A (CLK)", "a") in wires
    assert ("GP18 (pin 24)", "encoder", "B (DT)", "b") in wires
    picture = svg(b)
    # 330 on DIN, 100 on the piezo, and the jacks' four (test_the_midi_jacks_are_wired_...)
    assert picture.count('data-part="resistor"') == 6
    assert "330 \u03a9" in picture and 'data-part="capacitor"' in picture
    # The KY-040 module: + to 3.3 V, no separate common or switch leg.
    wires = connections(b, ky040=True)
    assert ("3V3(OUT) (pin 36)", "encoder", "+ (3.3 V)", "logic") in wires
    assert [w[2] for w in wires if w[1] == "encoder"] == ["CLK", "DT", "SW", "+ (3.3 V)", "GND"]


def test_other_boards_name_their_places():
    esp32 = connections(board_file.load(board_path("esp32")))
    assert ("GPIO13 (J2-15)", "ring", "DIN", "data") in esp32      # DevKitC V4, J2 pin 15
    qtpy = connections(board_file.load(board_path("qtpy_rp2040")))
    assert [w[0] for w in qtpy if w[1] == "ring"][0].endswith("(left %d)" % (
        ["A0", "A1", "A2", "A3"].index(board_file.load(board_path("qtpy_rp2040"))["ring"]["pin"])
        + 1))
    # The OLED on the STEMMA QT socket: the cable carries 3.3 V and GND, no wire from a pad.
    assert [w[0] for w in qtpy if w[1] == "display"] == [
        "SDA1 (STEMMA QT)", "SCL1 (STEMMA QT)", "3V (STEMMA QT)", "GND (STEMMA QT)"]


def test_ground_wires_go_to_the_pins_the_tables_give():
    # boards/README.md's Pico table: ring GND 38, encoder C and switch 23, OLED 8, piezo 18.
    wires = connections(board_file.load(board_path("pico")))
    grounds = {(part, pad): pin for pin, part, pad, kind in wires if kind == "ground"}
    assert grounds == {("ring", "GND"): "GND (pin 38)", ("encoder", "C (common)"): "GND (pin 23)",
                       ("encoder", "SW (other leg)"): "GND (pin 23)",
                       ("display", "GND"): "GND (pin 8)", ("buzzer", "\u2212"): "GND (pin 18)",
                       ("midi_out", "Sleeve (pin 2)"): "GND (pin 3)",
                       ("opto", "5 (GND)"): "GND (pin 3)"}


def test_the_midi_jacks_are_wired_by_the_3_3_v_electrical_specification():
    # MIDI 1.0 Electrical Specification Update (CA-033, 2014), TRS Type A (tip pin 5, ring
    # pin 4, sleeve pin 2): OUT is TX through 10 ohm to the tip and 3.3 V through 33 ohm to
    # the ring; IN is the ring through 220 ohm into the optocoupler's LED and out of it to the
    # tip, its sleeve unconnected; the H11L1's output, pulled up to 3.3 V by 470 ohm, is RX.
    import xml.etree.ElementTree as ET

    from host_tools.builds.wiring import LINKS, RESISTORS
    for name, tx, rx, power in (("pico", "GP0 (pin 1)", "GP1 (pin 2)", "3V3(OUT) (pin 36)"),
                                ("qtpy_rp2040", "MISO (right 5)", "RX (right 7)", "3V (right 3)"),
                                ("esp32", "GPIO17 (J3-11)", "GPIO16 (J3-12)", "3V3 (J2-1)")):
        b = board_file.load(board_path(name))
        wires = {(part, pad): (pin, kind) for pin, part, pad, kind in connections(b)
                 if part in ("midi_out", "opto", "midi_in")}
        assert wires[("midi_out", "Tip (pin 5)")] == (tx, "midi"), name
        assert wires[("midi_out", "Ring (pin 4)")] == (power, "logic")
        assert wires[("opto", "4 (output)")] == (rx, "midi")
        assert wires[("opto", "4 (output): pull-up")] == wires[("opto", "6 (VCC)")] == \
            (power, "logic")
        assert not [pad for part, pad in wires if part == "midi_in"]    # isolated from the board
        picture = ET.fromstring(svg(b))
        texts = [e.text for e in picture.iter() if e.text]
        assert "MIDI IN: 3.5 mm TRS socket, Type A" in texts and "Sleeve (pin 2)" in texts
        assert len([e for e in picture.iter() if e.get("data-part") == "link"]) == 2
    assert RESISTORS[("midi_out", "Tip (pin 5)")] == "10 \u03a9"
    assert RESISTORS[("midi_out", "Ring (pin 4)")] == "33 \u03a9"
    assert RESISTORS[("opto", "4 (output): pull-up")] == "470 \u03a9"
    assert LINKS[("opto", "1 (LED anode)")] == ("midi_in", "Ring (pin 4)")
    assert LINKS[("opto", "2 (LED cathode)")] == ("midi_in", "Tip (pin 5)")
    assert RESISTORS[("midi_in", "Ring (pin 4)")] == "220 \u03a9"
    # A board without jacks draws none.
    assert not [w for w in connections(dict(board_file.load(board_path("pico")), midi=None))
                if w[1] in ("midi_out", "opto")]


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
    # an ESP32 strapping pin that does not stop the boot: valid, with a warning
    with open(os.path.join(ROOT, "boards", "esp32.json")) as f:
        esp32 = json.load(f)
    esp32["ring"]["pin"] = 2
    strapped = tmp_path / "strapped.json"
    strapped.write_text(json.dumps(esp32))
    capsys.readouterr()
    assert main(["board", "validate", str(strapped)]) == 0
    out, err = capsys.readouterr()
    assert out == "%s: valid board file 'esp32' (%s), with 1 warning\n" % (strapped,
                                                                          esp32["title"])
    assert err.startswith("warning: %s: ring.pin: GPIO2 (J3-15) is a strapping pin" % strapped)
    # the button on GPIO0 (issue 49: validate warns): the board runs, but the safe-mode
    # gesture would start the bootloader
    esp32["ring"]["pin"], esp32["button"]["pin"] = 13, 0
    strapped.write_text(json.dumps(esp32))
    assert main(["board", "validate", str(strapped)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: %s: button.pin: GPIO0 (J3-14) is a strapping pin" % strapped)
    assert "the safe-mode gesture (the knob held while plugging in) would not start" in err
    # a CircuitPython board of one's own names no pinout: said, not drawn wrong
    with open(os.path.join(ROOT, "boards", "qtpy_rp2040.json")) as f:
        own = json.load(f)
    own["pinout"] = None
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(own))
    capsys.readouterr()
    assert main(["board", "wiring", str(mine), "-o", str(tmp_path / "x.svg")]) == 2
    assert "names no pinout" in capsys.readouterr().err


def test_validate_refuses_pins_the_board_does_not_break_out(capsys, tmp_path):
    # The cases, each with the field, the pin and what to use instead.
    cases = (("pico", "ring", "pin", 23, "ring.pin: GP23 drives the power supply's mode"),
             ("pico", "ring", "pin", 25, "ring.pin: GP25 drives the on-board LED"),
             ("pico", "ring", "pin", 29, "ring.pin: GP29 measures VSYS"),
             ("esp32", "ring", "pin", 6, "ring.pin: GPIO6 (J3-19) is wired to the module's "
              "SPI flash"),
             ("esp32", "ring", "pin", 1, "ring.pin: GPIO1 (J3-4) is the console's TX"),
             ("esp32", "button", "pin", 34, "button.pin: GPIO34 (J2-5) is input only"),
             ("qtpy_rp2040", "encoder", "pin_a", "A4", "encoder.pin_a: 'A4' is not a pin of "
              "the QT Py"),
             ("qtpy_rp2040", "encoder", "pin_b", "A3", "encoder.pin_b: A3 (GPIO26, left 4) is "
              "not next to encoder.pin_a A0 (GPIO29, left 1): rotaryio needs A and B on "
              "consecutive GPIOs"))
    for name, section, field, pin, start in cases:
        with open(os.path.join(ROOT, "boards", name + ".json")) as f:
            obj = json.load(f)
        obj[section][field] = pin
        if (section, field) == ("encoder", "pin_b"):      # A0 and A3, as the issue found
            obj["encoder"]["pin_a"], obj["button"]["pin"], obj["ring"]["pin"] = "A0", "A1", "A2"
        path = tmp_path / ("%s.json" % name)
        path.write_text(json.dumps(obj))
        capsys.readouterr()
        assert main(["board", "validate", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: %s: %s" % (path, start)), err
        assert "; use " in err, err


def test_validate_refuses_a_midi_pin_that_is_not_a_uart_pin_of_the_board(capsys, tmp_path):
    # The jacks' TX and RX must be pins of one UART of the board (the RP2040's UART pin map,
    # datasheet 1.4.3; an ESP32 routes any UART to any pin, but UART0 is the console and an
    # input-only pin cannot drive MIDI OUT), each problem with what to use instead.
    cases = (("pico", {"tx": 2}, "midi.tx: GP2 is not a TX pin of UART0 (0, 12, 16, 28)"),
             ("pico", {"rx": 12}, "midi.rx: GP12 is not an RX pin of UART0 (1, 13, 17, 29)"),
             ("qtpy_rp2040", {"tx": "SCK"}, "midi.tx: SCK (GPIO6, right 6) is not a TX pin "
              "of the RP2040's UARTs; use SDA (GPIO24, left 5)"),
             ("qtpy_rp2040", {"rx": "MOSI"}, "midi.rx: MOSI (GPIO3, right 4) is not an RX pin "
              "of the RP2040's UARTs; use SCL (GPIO25, left 6)"),
             ("qtpy_rp2040", {"tx": "SDA", "rx": "A0"}, "midi.rx: A0 (GPIO29, left 1) is an "
              "RX pin of UART0, midi.tx SDA (GPIO24, left 5) a TX pin of UART1: TX and RX must "
              "be one UART's"),
             ("esp32", {"tx": 34}, "midi.tx: GPIO34 (J2-5) is input only, with no pull-up or "
              "pull-down: it cannot drive MIDI OUT; use "),
             ("esp32", {"uart": 0}, "midi.uart: UART0 is the console"))
    for name, change, start in cases:
        with open(os.path.join(ROOT, "boards", name + ".json")) as f:
            obj = json.load(f)
        obj["midi"].update(change)
        if change.get("rx") == "A0":                  # the button elsewhere: A0 is free
            obj["button"]["pin"] = "SCK"
        path = tmp_path / ("%s.json" % name)
        path.write_text(json.dumps(obj))
        capsys.readouterr()
        assert main(["board", "validate", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: %s: %s" % (path, start)), err


def test_validate_says_what_is_wrong_with_broken_json_and_a_platform(capsys, tmp_path):
    path = tmp_path / "b.json"
    path.write_text('{"board": "x",\n "platform": "rp2",\n}\n')
    assert main(["board", "validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: %s: not valid JSON at line 3, column 1 " % path), err
    assert ": : " not in err
    path.write_text('{"board": "x", "platform": "rp2040", "ring": {"pin": 16}, '
                    '"encoder": {"driver": "pio", "pin_a": 2, "pin_b": 3}, "button": {"pin": 4}}')
    assert main(["board", "validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: %s: platform: 'rp2040' is not a platform (rp2, esp32, "
                          "circuitpython, sim, web): a Pico" % path), err
    assert "()" not in err and err.count("\n") == 1


def test_the_wiring_picture_draws_the_ring_as_it_is_mapped(tmp_path):
    # 24 LEDs, C at LED 5: the sketch fills LEDs 5 and 6, the two that show C.
    import xml.etree.ElementTree as ET
    with open(os.path.join(ROOT, "boards", "pico.json")) as f:
        obj = json.load(f)
    obj["ring"].update(count=24, led_at_c=5)
    picture = ET.fromstring(svg(board_file.parse(obj)))
    dots = [e for e in picture.iter() if e.get("data-led") is not None]
    assert len(dots) == 24
    assert [int(e.get("data-led")) for e in dots if e.get("fill") == "#333"] == [5, 6]
