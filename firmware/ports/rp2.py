"""The RP2040 (Raspberry Pi Pico) on MicroPython: the knob on a PIO state machine, or on pin
interrupts (the board file's encoder driver)."""

import sys

# The port's interface (firmware/ports/__init__.py), much of it what the MicroPython ports
# share (pyproject.toml lets these names be imported for the importer's sake).
from firmware.ports.micropython import (
    build_with,
    display_panel,
    i2c_scan,
    irq_encoder,
    jacks_port,
    knob_wake,
    reset_cause,
    restart,
    tone_output,
)

# The RP2040's watchdog CTRL register through its atomic clear alias (datasheet 2.1.2 and
# 4.7.6: WATCHDOG_BASE 0x40058000, CTRL at 0, clear alias +0x3000) and its ENABLE bit (30).
_RP2040_WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000
_WATCHDOG_ENABLE = 1 << 30


def watchdog():
    """machine.WDT, with stop(): MicroPython has no way to stop it, the RP2040 has (its CTRL
    register's ENABLE bit), so a deploy or mpremote session after Ctrl-C is not reset under
    it. (Another chip on this port keeps a watchdog that cannot stop.)"""
    from hardware import mp_devices
    rp2040 = "RP2040" in getattr(sys.implementation, "_machine", "")
    return mp_devices.Watchdog(clear_enable=(_RP2040_WATCHDOG_CTRL_CLEAR, _WATCHDOG_ENABLE)
                               if rp2040 else None)


def midi_port(hw):
    """USB MIDI beside the REPL's serial port (machine.USBDevice): the board leaves the bus
    for a moment and comes back with both. Called by the app only, never in boot.py or safe
    mode, so a soft reset or a safe-mode boot gives the serial port alone."""
    from hardware.mp_usb_midi import UsbMidi
    port = UsbMidi()
    if not port.start():          # a charger, or a computer slow to answer: MIDI waits for it
        print("midi: no computer has opened the USB MIDI port yet")
    return port


def build(board):
    config = board["encoder"]
    if config["driver"] == "pio":
        from hardware.rp2_pio_encoder import PioEncoder
        return build_with(board, PioEncoder(config))
    return build_with(board, irq_encoder(config))
