"""What the rp2 and esp32 ports share on MicroPython: `machine`'s pins, NeoPixel, PWM, the
watchdog, the reset cause, records as files on littlefs."""

import hardware.clock
from hardware import mp_devices
from hardware.ring import Ring

from firmware.devices import REST_PERIOD_MS, Hardware
from firmware.records import FileRecords


def build_with(board, encoder):
    """The board's devices around the knob's driver, which each port picks."""
    ring = Ring(board["ring"], mp_devices.NeoPixelOutput(board["ring"]))
    # the button's edges stamped with the knob's count (the decoder's, where the driver has
    # one: not the ESP32's pulse counter)
    button = mp_devices.PinButton(board["button"], getattr(encoder, "decoder", None))
    hw = Hardware(board, ring, encoder, button, hardware.clock, records=FileRecords())
    if hasattr(encoder, "wake"):        # its interrupt wakes a pass: the loop may rest longer
        hw.rest_period_ms = REST_PERIOD_MS  # (the ESP32's pulse counter wakes nothing)
    return hw


def irq_encoder(config):
    return mp_devices.IrqEncoder(config)


def knob_wake(callback):
    return mp_devices.ScheduledWake(callback)


# USB MIDI: a port that has it defines midi_port(hw) (rp2); one that has not, None (the menu
# leaves the item out).
midi_port = None


def jacks_port(hw):
    """Serial MIDI on the board's jacks (its board file's "midi": the UART and pins)."""
    from hardware.mp_uart_midi import UartMidi
    return UartMidi(hw.board["midi"])


def i2c_scan(config):
    """The display's bus scanned once, before its driver makes the bus of its own."""
    import machine
    return machine.I2C(config["i2c"], scl=machine.Pin(config["scl"]),
                       sda=machine.Pin(config["sda"])).scan()


def display_panel(config, hw):
    from hardware import mp_parts
    return mp_parts.Ssd1306Panel(config)


def tone_output(config, hw):
    from hardware import mp_parts
    return mp_parts.PwmTone(config)


def watchdog():
    return mp_devices.Watchdog()


def reset_cause():
    import machine
    return "power" if machine.reset_cause() == machine.PWRON_RESET else "reset"


def restart():
    import machine
    machine.reset()
