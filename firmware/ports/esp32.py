"""The ESP32 on MicroPython: the knob on the pulse counter (PCNT, machine.Encoder), or on pin
interrupts (the board file's encoder driver)."""

# The port's interface (firmware/ports/__init__.py), much of it what the MicroPython ports
# share (pyproject.toml lets these names be imported for the importer's sake).
from firmware.ports.micropython import (
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
