"""Every board file is valid; bad ones are refused with the field named."""

from hardware import board

from expect import raises, repo_path


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


def test_a_colour_order_in_lower_case_is_the_same_order():
    obj = good()
    for given, read in (("grb", "GRB"), ("Rgb", "RGB"), ("grbw", "GRBW")):
        obj["ring"]["order"] = given
        assert board.parse(obj)["ring"]["order"] == read
    obj["ring"]["order"] = "grx"
    assert problems(obj) == [
        "ring.order: 'grx' is not one of RGB, RBG, GRB, GBR, BRG, BGR, RGBW, GRBW, BRGW, WRGB"]
    obj["ring"]["order"] = 3
    assert problems(obj)[0].startswith("ring.order: 3 is not one of RGB")


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


def test_the_midi_jacks_are_on_a_uart_of_the_board():
    obj = good()
    obj["midi"] = {"uart": 0, "tx": 0, "rx": 1}
    assert problems(obj) == [] and board.parse(obj)["midi"]["ma"] == 15
    assert board.parse(good())["midi"] is None                 # the jacks are optional
    obj["midi"] = {"uart": 0, "tx": 6, "rx": 5}
    assert problems(obj) == [
        "midi.tx: GP6 is not a TX pin of UART0 (0, 12, 16, 28)",
        "midi.rx: GP5 is not an RX pin of UART0 (1, 13, 17, 29)",
    ]
    obj["midi"] = {"uart": 1, "tx": 8, "rx": 8}
    assert problems(obj) == ["midi.rx: pin 8 is already midi.tx",
                             "midi.rx: GP8 is not an RX pin of UART1 (5, 9, 21, 25)"]
    obj["midi"] = {"tx": 8, "rx": 9}
    assert problems(obj) == ["midi.uart: missing: the UART the jacks are on (0 or 1)"]
    obj["midi"] = {"uart": 2, "tx": 8, "rx": 9}
    assert problems(obj) == ["midi.uart: the RP2040 has UART0 and UART1, not UART2"]
    obj["platform"], obj["encoder"]["driver"] = "esp32", "pcnt"
    assert problems(obj) == []
    obj["midi"]["uart"] = 0
    assert problems(obj) == ["midi.uart: UART0 is the console (the REPL and deploy): use 1 "
                             "or 2"]
    obj = good()
    obj["platform"], obj["encoder"]["driver"] = "circuitpython", "rotaryio"
    obj["ring"]["pin"], obj["encoder"]["pin_a"], obj["encoder"]["pin_b"] = "A3", "A1", "A2"
    obj["button"]["pin"] = "A0"
    obj["midi"] = {"uart": 1, "tx": "MISO", "rx": "RX"}
    assert problems(obj) == ["midi.uart: CircuitPython picks the UART from the pins: leave "
                             "it out"]


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
