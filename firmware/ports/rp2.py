"""The RP2040 (Raspberry Pi Pico) on MicroPython: the knob on a PIO state machine, or on pin
interrupts (the board file's encoder driver)."""

from firmware.ports.micropython import (build_with, display_panel, i2c_scan,  # noqa: F401
                                        irq_encoder, knob_wake, reset_cause, restart, tone_output,
                                        watchdog)


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
