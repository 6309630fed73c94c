"""Every board file is valid; bad ones are refused with the field named."""

from expect import raises, repo_path

from hardware import board


def test_shipped_boards_are_valid():
    for name in ("pico", "esp32", "qtpy_rp2040", "sim"):
        b = board.load(repo_path("boards", name + ".json"))
        assert b["board"] == name
        assert b["ring"]["count"] == 12
        assert b["button"]["long_ms"] == 700       # defaults filled in


def good():
    return {"board": "t", "platform": "rp2",
            "ring": {"pin": 16}, "encoder": {"driver": "pio", "pin_a": 2, "pin_b": 3},
            "button": {"pin": 4}}


def problems(obj):
    return ["%s: %s" % p for p in board.validate(obj)[1]]


def test_defaults():
    b = board.parse(good())
    assert b["ring"]["order"] == "GRB" and b["ring"]["max_ma"] == 400
    assert b["encoder"]["pulses_per_detent"] == 4


def test_errors_name_the_field():
    obj = good()
    obj["ring"]["order"] = "GRX"
    obj["ring"]["led_at_c"] = 12
    obj["encoder"]["pin_b"] = 5
    obj["button"]["colour"] = 1
    obj["encoder"]["pulses_per_detent"] = 3
    assert problems(obj) == [
        "ring.order: 'GRX' is not one of RGB, RBG, GRB, GBR, BRG, BGR, RGBW, GRBW, BRGW, WRGB",
        "encoder.pulses_per_detent: 3 is not one of 4, 2, 1",
        "button.colour: unknown field",
        "encoder.pin_b: the PIO decoder needs B on the GPIO after A (3)",
        "ring.led_at_c: 12 is not an LED of a 12-LED ring (0 to 11)",
    ]


def test_rings_of_12_16_24_and_60_leds_and_no_other():
    for count in (12, 16, 24, 60):
        obj = good()
        obj["ring"]["count"] = count
        obj["ring"]["led_at_c"] = count - 1
        assert problems(obj) == [], count
    obj = good()
    obj["ring"]["count"] = 13
    assert problems(obj) == ["ring.count: 13 LEDs: a ring of a multiple of 12 LEDs (12, 24, "
                             "36 ... 96) or of 16 lights the 12 sectors"]


def test_platform_specific_checks():
    obj = good()
    obj["encoder"]["driver"] = "rotaryio"
    assert problems(obj) == ["encoder.driver: 'rotaryio' is not an encoder driver for "
                             "platform 'rp2' (pio, irq)"]
    obj = good()
    obj["platform"] = "circuitpython"
    obj["encoder"]["driver"] = "rotaryio"
    assert "ring.pin: expected a board pin name such as 'A0', got 16" in problems(obj)
    err = raises(board.BoardError, board.parse, [], "x.json")
    assert str(err) == "x.json: expected a JSON object"


def test_an_unknown_platform_is_named_once_with_the_ones_to_use():
    obj = good()
    obj["platform"] = "rp2040"
    assert problems(obj) == [
        "platform: 'rp2040' is not a platform (rp2, esp32, circuitpython, sim, web): a Pico or "
        "another RP2040 board running MicroPython is \"rp2\", an ESP32 \"esp32\", any board "
        "running CircuitPython \"circuitpython\""]


PINOUTS = repo_path("boards", "pinouts")


def shipped(name, **changes):
    """A shipped board file with some fields changed: ("ring", "pin") -> value."""
    import json
    with open(repo_path("boards", name + ".json")) as f:
        obj = json.load(f)
    for key, value in changes.items():
        section, field = key.split("__")
        obj[section][field] = value
    return ["%s: %s" % p for p in board.validate(obj, PINOUTS)[1]]


def test_shipped_boards_fit_their_headers():
    for name in ("pico", "esp32", "qtpy_rp2040"):
        assert shipped(name) == [], name


def test_pico_pins_not_on_the_header_are_refused_with_free_ones_named():
    assert shipped("pico", ring__pin=23) == [
        "ring.pin: GP23 drives the power supply's mode (SMPS PS), inside the board: it is not "
        "on the Pico's header; use GP0 (pin 1), GP1 (pin 2), GP2 (pin 4)"]
    assert shipped("pico", ring__pin=25)[0].startswith(
        "ring.pin: GP25 drives the on-board LED (on a Pico W: the wireless chip)")
    assert shipped("pico", buzzer__pin=29)[0].startswith("buzzer.pin: GP29 measures VSYS")


def test_esp32_flash_console_and_input_only_pins_are_refused():
    assert shipped("esp32", ring__pin=6) == [
        "ring.pin: GPIO6 (J3-19) is wired to the module's SPI flash (CLK): using it crashes the "
        "board; use GPIO4 (J3-13), GPIO13 (J2-15), GPIO14 (J2-12)"]
    assert shipped("esp32", ring__pin=1)[0].startswith(
        "ring.pin: GPIO1 (J3-4) is the console's TX (UART0, the USB serial bridge)")
    assert shipped("esp32", button__pin=34) == [
        "button.pin: GPIO34 (J2-5) is input only, with no pull-up or pull-down, so button.pull "
        "'up' cannot work: set it to \"none\" and fit 10 k\u03a9 pull-ups to 3.3 V (a KY-040 "
        "has them); use GPIO4 (J3-13), GPIO14 (J2-12), GPIO16 (J3-12)"]
    assert shipped("esp32", button__pin=34, button__pull="none") == []
    assert shipped("esp32", ring__pin=35)[0].startswith(
        "ring.pin: GPIO35 (J2-6) is input only, with no pull-up or pull-down: it cannot drive "
        "the ring")
    assert shipped("esp32", encoder__pin_a=12)[0].startswith(
        "encoder.pin_a: GPIO12 (J2-13) is a strapping pin")


def test_circuitpython_names_and_rotaryio_pairs():
    assert shipped("qtpy_rp2040", encoder__pin_a="A4") == [
        "encoder.pin_a: 'A4' is not a pin of the QT Py; use A1 (GPIO28, left 2), SDA (GPIO24, "
        "left 5), SCL (GPIO25, left 6)"]
    assert shipped("qtpy_rp2040", ring__pin="NEOPIXEL")[0].startswith(
        "ring.pin: NEOPIXEL is the board's own NeoPixel (GPIO12): it is not on the QT Py's "
        "header")
    assert shipped("qtpy_rp2040", encoder__pin_a="A0", encoder__pin_b="SDA",
                   button__pin="A1") == [
        "encoder.pin_b: SDA (GPIO24, left 5) is not next to encoder.pin_a A0 (GPIO29, left 1): "
        "rotaryio needs A and B on consecutive GPIOs (CircuitPython: \"Pins must be sequential "
        "GPIO pins\"); use a pair such as SCL/SDA, MISO/MOSI, RX/MISO, SCK/RX"]
    assert shipped("qtpy_rp2040", encoder__pin_a="D1", encoder__pin_b="D2") == []   # aliases
    assert shipped("qtpy_rp2040", display__scl="SCL")[0].startswith(
        "display.scl: SCL (GPIO25, left 6) is on I2C0, display.sda SDA1 (GPIO22, STEMMA QT) "
        "on I2C1")


def test_a_pinout_of_another_platform_or_unknown_is_named():
    assert shipped("pico", **{}) == []
    import json
    with open(repo_path("boards", "pico.json")) as f:
        obj = json.load(f)
    obj["pinout"] = "qtpy_rp2040"
    assert ["%s: %s" % p for p in board.validate(obj, PINOUTS)[1]] == [
        "pinout: 'qtpy_rp2040' is a circuitpython board's pinout, not a rp2 one's"]
    obj["pinout"] = "pico2"
    assert ["%s: %s" % p for p in board.validate(obj, PINOUTS)[1]] == [
        "pinout: 'pico2' is not a board the tools know (esp32_devkitc, pico, qtpy_rp2040); "
        "null skips the header check"]
    obj["pinout"] = None
    obj["ring"]["pin"] = 25                       # no header named: GPIO 0-29 is all it checks
    assert board.validate(obj, PINOUTS)[1] == []


def test_broken_json_says_where():
    import os
    path = repo_path("tests", "core", "_broken_board.json")
    with open(path, "w") as f:
        f.write("{'board': 'x',\n 'platform': 'rp2'}")         # single quotes
    try:
        err = raises(board.BoardError, board.load, path)
    finally:
        os.remove(path)
    text = str(err)
    assert text.startswith(path + ": not valid JSON"), text
    assert ": : " not in text and "comma after the last item" in text


def test_optional_parts_are_absent_by_default_and_filled_in():
    b = board.parse(good())
    assert b["display"] is None and b["buzzer"] is None
    obj = good()
    obj["display"] = {"sda": 8, "scl": 9}
    obj["buzzer"] = {"pin": 15}
    b = board.parse(obj)
    assert b["display"]["address"] is None and b["display"]["height"] == 64   # 0x3C or 0x3D
    assert b["display"]["rotation"] == 0 and b["display"]["freq"] == 400000
    assert b["buzzer"]["pin"] == 15
    obj["display"] = None                        # spelled out as absent
    assert board.parse(obj)["display"] is None


def test_bad_optional_parts_are_named():
    obj = good()
    obj["display"] = {"sda": 6, "scl": 7, "address": 62, "rotation": 90, "colour": 1}
    obj["buzzer"] = {"pin": 16}
    assert problems(obj) == [
        "display.colour: unknown field",
        "display.address: 62 is not an SSD1306 address: 60 (0x3C), 61 (0x3D), or null to find "
        "it at either",
        "display.rotation: 90 is not one of 0, 180",
        "buzzer.pin: pin 16 is already ring.pin",
        "display.sda: GP6 is not an SDA pin of I2C0 (0, 4, 8, 12, 16, 20, 24, 28)",
        "display.scl: GP7 is not an SCL pin of I2C0 (1, 5, 9, 13, 17, 21, 25, 29)",
    ]
    obj["display"] = {"i2c": 1, "sda": 6, "scl": 7}
    obj["buzzer"] = {"pin": 4}
    assert problems(obj) == ["buzzer.pin: pin 4 is already button.pin"]


def test_encoder_direction_is_reverse_as_a_sign():
    obj = good()
    obj["encoder"]["direction"] = -1                 # what chromawheel bringup writes
    assert board.parse(obj)["encoder"]["reverse"] is True
    obj["encoder"]["direction"] = 1
    assert board.parse(obj)["encoder"]["reverse"] is False
    obj["encoder"]["reverse"] = True
    assert problems(obj) == ["encoder.direction: 1 and encoder.reverse true disagree: keep one "
                             "(direction -1 is reverse true)"]
    obj["encoder"]["direction"] = 2
    assert problems(obj)[0].startswith("encoder.direction: 2 is not one of 1, -1")
