"""The RP2040 (Raspberry Pi Pico) on MicroPython: the knob on a PIO state machine, or on pin
interrupts (the board file's encoder driver)."""

from firmware.ports.micropython import (build_with, display_panel, irq_encoder,  # noqa: F401
                                        knob_wake, reset_cause, restart, tone_output,
                                        watchdog)


def build(board):
    config = board["encoder"]
    if config["driver"] == "pio":
        from hardware.rp2_pio_encoder import PioEncoder
        return build_with(board, PioEncoder(config))
    return build_with(board, irq_encoder(config))
