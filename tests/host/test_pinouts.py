"""The pins each board breaks out (boards/pinouts/, host_tools/builds/pinouts.py): a board
file's pins checked against its board's header, each refusal naming the field, the pin and
free pins to use instead."""

import json

from hardware import board

from host_tools.builds import pinouts
from host_tools.device.files import board_path


def shipped(name, **changes):
    """A shipped board file with some fields changed (section__field=value): its problems."""
    with open(board_path(name)) as f:
        obj = json.load(f)
    for key, value in changes.items():
        section, field = key.split("__")
        obj[section][field] = value
    return ["%s: %s" % p for p in board.validate(obj, pinouts.check)[1]]


def test_shipped_boards_fit_their_headers():
    for name in ("pico", "esp32", "qtpy_rp2040"):
        assert shipped(name) == [], name


def test_pico_pins_not_on_the_header_are_refused_with_free_ones_named():
    assert shipped("pico", ring__pin=23) == [
        "ring.pin: GP23 drives the power supply's mode (SMPS PS), inside the board: it is not "
        "on the Pico's header; use GP2 (pin 4), GP3 (pin 5), GP6 (pin 9)"]
    assert shipped("pico", ring__pin=25)[0].startswith(
        "ring.pin: GP25 drives the on-board LED (on a Pico W: the wireless chip)")
    assert shipped("pico", buzzer__pin=29)[0].startswith("buzzer.pin: GP29 measures VSYS")


def test_esp32_flash_console_and_input_only_pins_are_refused():
    assert shipped("esp32", ring__pin=6) == [
        "ring.pin: GPIO6 (J3-19) is wired to the module's SPI flash (CLK): using it crashes the "
        "board; use GPIO4 (J3-13), GPIO13 (J2-15), GPIO14 (J2-12)"]
    assert shipped("esp32", ring__pin=1)[0].startswith(
        "ring.pin: GPIO1 (J3-4) is the console's TX (UART0, the USB serial bridge)")
    # the switch's hint: a KY-040 has pull-ups on CLK and DT, none on SW
    assert shipped("esp32", button__pin=34) == [
        "button.pin: GPIO34 (J2-5) is input only, with no pull-up or pull-down, so button.pull "
        "'up' cannot work: set it to \"none\" and fit a 10 k\u03a9 pull-up to 3.3 V on it (a "
        "KY-040 module has none on SW); use GPIO4 (J3-13), GPIO14 (J2-12), GPIO18 (J3-9)"]
    assert shipped("esp32", encoder__pin_a=34, encoder__pin_b=35) == [
        "encoder.pin_a: GPIO34 (J2-5) is input only, with no pull-up or pull-down, so "
        "encoder.pull 'up' cannot work: set it to \"none\" and fit 10 k\u03a9 pull-ups to 3.3 V "
        "(a KY-040 module has them on CLK and DT); use GPIO4 (J3-13), GPIO14 (J2-12), "
        "GPIO18 (J3-9)",
        "encoder.pin_b: GPIO35 (J2-6) is input only, with no pull-up or pull-down, so "
        "encoder.pull 'up' cannot work: set it to \"none\" and fit 10 k\u03a9 pull-ups to 3.3 V "
        "(a KY-040 module has them on CLK and DT); use GPIO4 (J3-13), GPIO14 (J2-12), "
        "GPIO18 (J3-9)"]
    assert shipped("esp32", button__pin=34, button__pull="none") == []
    assert shipped("esp32", ring__pin=35)[0].startswith(
        "ring.pin: GPIO35 (J2-6) is input only, with no pull-up or pull-down: it cannot drive "
        "the ring")
    assert shipped("esp32", encoder__pin_a=12)[0].startswith(
        "encoder.pin_a: GPIO12 (J2-13) is a strapping pin")


def warned(name, **changes):
    with open(board_path(name)) as f:
        obj = json.load(f)
    for key, value in changes.items():
        section, field = key.split("__")
        obj[section][field] = value
    return ["%s: %s" % w for w in pinouts.warnings(board.parse(obj, None, pinouts.check))]


def test_esp32_strapping_pins_that_stop_the_safe_mode_gesture_are_warned_about():
    # GPIO0 low at reset starts the ROM bootloader: a button to GND there, held at power-up
    # for safe mode, would start the bootloader instead (Espressif's ESP32 datasheet,
    # "Strapping Pins"); GPIO12 high sets the flash to 1.8 V. The board runs: a warning that
    # says so, as `board validate` warns for GPIO0 as the button (issue 49)
    assert shipped("esp32", button__pin=0) == []
    assert warned("esp32", button__pin=0) == [
        "button.pin: GPIO0 (J3-14) is a strapping pin: held low at reset, it starts the "
        "ESP32's bootloader (what the BOOT button does) instead of the firmware; the button "
        "makes it low while held at power-up, so the safe-mode gesture (the knob held while "
        "plugging in) would not start the firmware; a pin that plays no part at reset keeps "
        "it: GPIO4 (J3-13), GPIO14 (J2-12), GPIO18 (J3-9)"]
    high = dict(button__pin=12, button__active_low=False, button__pull="down")
    assert shipped("esp32", **high) == []
    assert warned("esp32", **high)[0].startswith(
        "button.pin: GPIO12 (J2-13) is a strapping pin: pulled high at reset it sets the flash "
        "to 1.8 V and the board does not boot; the button makes it high while held at power-up")
    # a button that pulls GPIO0 high when pressed cannot hold it low: the plain warning
    assert "safe-mode gesture" not in warned("esp32", button__pin=0, button__active_low=False,
                                             button__pull="down")[0]


def test_esp32_strapping_pins_in_use_are_warned_about():
    assert warned("esp32") == []
    assert warned("esp32", button__pin=15) == [
        "button.pin: GPIO15 (J3-16) is a strapping pin: held low at reset, it silences the boot "
        "messages; it works with the button on it, but a pin that plays no part at reset is "
        "safer: GPIO4 (J3-13), GPIO14 (J2-12), GPIO18 (J3-9)"]
    for pin in (0, 2, 5, 12, 15):
        said = warned("esp32", ring__pin=pin)
        assert len(said) == 1 and said[0].startswith("ring.pin: GPIO%d (" % pin), said
        assert "is a strapping pin" in said[0]
    assert warned("esp32", display__sda=2)[0].startswith(
        "display.sda: GPIO2 (J3-15) is a strapping pin: held high at reset (by pull-ups, an "
        "OLED's), it keeps a flashing tool (esptool) from starting the bootloader")
    assert warned("pico") == warned("qtpy_rp2040") == []


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
        "GPIO pins\"); use a pair such as SCL/SDA"]
    assert shipped("qtpy_rp2040", encoder__pin_a="D1", encoder__pin_b="D2") == []   # aliases
    assert shipped("qtpy_rp2040", display__scl="SCL")[0].startswith(
        "display.scl: SCL (GPIO25, left 6) is on I2C0, display.sda SDA1 (GPIO22, STEMMA QT) "
        "on I2C1")


def test_a_pinout_of_another_platform_or_unknown_is_named():
    assert shipped("pico", **{}) == []
    with open(board_path("pico")) as f:
        obj = json.load(f)
    obj["pinout"] = "qtpy_rp2040"
    assert ["%s: %s" % p for p in board.validate(obj, pinouts.check)[1]] == [
        "pinout: 'qtpy_rp2040' is a circuitpython board's pinout, not a rp2 one's"]
    obj["pinout"] = "pico2"
    assert ["%s: %s" % p for p in board.validate(obj, pinouts.check)[1]] == [
        "pinout: 'pico2' is not a board the tools know (esp32_devkitc, pico, qtpy_rp2040); "
        "null skips the header check"]
    obj["pinout"] = None
    obj["ring"]["pin"] = 25                       # no header named: GPIO 0-29 is all it checks
    assert board.validate(obj, pinouts.check)[1] == []
