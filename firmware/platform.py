"""Builds the devices a board file describes. Backends are imported only for their own
platform, so the simulator never imports `machine` and a Pico never imports `rotaryio`.
Used at boot only (firmware/start.py unloads it to give its RAM back)."""

import hardware.clock
from hardware.ring import Ring

from firmware.devices import LOOP_PERIOD_MS, Hardware


def build(board):
    """The ring, the knob and the button: all that safe mode needs. On CircuitPython, the
    records (settings, crash count) go to the nvm from here on (firmware/storage.py)."""
    hw = _build_core(board)
    if board["platform"] == "circuitpython":
        from hardware import cp_devices
        nvm = cp_devices.nvm()
        if nvm is None:
            print("no microcontroller.nvm on this board: settings are kept on the drive")
        else:
            from firmware import storage
            storage.keep_records_in_nvm(nvm)
    return hw


def add_parts(hw):
    """The optional display and buzzer, for the app only: built once the boot is counted
    (firmware/crashes.py), so a part that fails this early still leads to safe mode."""
    board = hw.board
    if board["display"] is not None:
        hw.display = _optional("display", board, hw, _display)
    if board["buzzer"] is not None:
        hw.buzzer = _optional("buzzer", board, hw, _buzzer)


def _optional(part, board, hw, make):
    """An optional part that does not answer (unplugged, wrong address) is left out with a
    console line, never a failed boot: the ring and knob still work."""
    try:
        return make(board, hw)
    except ImportError as err:               # its driver library is not in lib/
        print("%s left out: %s (chromawheel deploy installs its driver in lib/)" % (part, err))
    except (OSError, ValueError, RuntimeError) as err:
        # ValueError: Adafruit's I2CDevice finds no device. RuntimeError: CircuitPython's
        # busio.I2C finds no pull-ups, as on a bus with nothing plugged in (its RP2040
        # common-hal/busio/I2C.c checks by default).
        print("%s not found (%s): running without it; check its wiring and the board "
              "file's \"%s\" section" % (part, err, part))
    return None


def _display(board, hw):
    from hardware.oled import TextDisplay
    config = board["display"]
    platform = board["platform"]
    if platform == "web":
        from hardware import web_parts
        panel = web_parts.WebPanel(config)
    elif platform == "sim":
        from hardware import sim, sim_parts
        panel = sim_parts.SimPanel(config, sim.link_streams()[1])
    elif platform == "circuitpython":
        from hardware import cp_parts
        panel = cp_parts.Ssd1306Panel(config)
    else:
        from hardware import mp_parts
        panel = mp_parts.Ssd1306Panel(config)
    return TextDisplay(panel, config["width"], config["height"])


def _buzzer(board, hw):
    from hardware.buzzer import Buzzer
    config = board["buzzer"]
    platform = board["platform"]
    if platform == "web":
        from hardware import web_parts
        return Buzzer(web_parts.WebBuzzer(hw.clock))
    if platform == "sim":
        from hardware import sim, sim_parts
        return Buzzer(sim_parts.SimBuzzer(hw.clock, sim.link_streams()[1]))
    if platform == "circuitpython":
        from hardware import cp_parts
        return Buzzer(cp_parts.PwmTone(config))
    from hardware import mp_parts
    return Buzzer(mp_parts.PwmTone(config))


def _build_core(board):
    platform = board["platform"]
    if platform == "web":                  # the browser page's pins (host_tools/web)
        from hardware import web_pins
        return web_pins.build(board)
    if platform == "sim":
        from hardware import sim
        commands, frames = sim.link_streams()
        clock = sim.SimClock()
        encoder = sim.SimEncoder(board["encoder"])
        button = sim.SimButton(board["button"])
        link = sim.SimLink(clock, encoder, button, LOOP_PERIOD_MS, commands)
        ring = Ring(board["ring"], sim.SimRingOutput(frames))
        return Hardware(board, ring, encoder, button, clock, link)
    if platform == "circuitpython":
        from hardware import cp_devices
        ring = Ring(board["ring"], cp_devices.NeoPixelOutput(board["ring"]))
        return Hardware(board, ring, cp_devices.RotaryEncoder(board["encoder"]),
                        cp_devices.PinButton(board["button"]), hardware.clock)
    from hardware import mp_devices
    driver = board["encoder"]["driver"]
    if driver == "pio":
        from hardware.rp2_pio_encoder import PioEncoder
        encoder = PioEncoder(board["encoder"])
    elif driver == "pcnt":
        from hardware.esp32_encoder import PcntEncoder
        encoder = PcntEncoder(board["encoder"])
    else:
        encoder = mp_devices.IrqEncoder(board["encoder"])
    ring = Ring(board["ring"], mp_devices.NeoPixelOutput(board["ring"]))
    return Hardware(board, ring, encoder, mp_devices.PinButton(board["button"]), hardware.clock)
