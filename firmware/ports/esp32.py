"""The ESP32 on MicroPython: the knob on the pulse counter (PCNT, machine.Encoder), or on pin
interrupts (the board file's encoder driver)."""

from firmware.ports.micropython import (  # noqa: F401
    build_with,
    display_panel,
    i2c_scan,
    irq_encoder,
    jacks_port,
    knob_wake,
    midi_port,
    reset_cause,
    restart,
    tone_output,
    watchdog,
)


def build(board):
    config = board["encoder"]
    if config["driver"] == "pcnt":
        from hardware.esp32_encoder import PcntEncoder
        return build_with(board, PcntEncoder(config))
    return build_with(board, irq_encoder(config))
