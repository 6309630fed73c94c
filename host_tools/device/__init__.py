"""Talking to a board: the serial link, deploy, the CIRCUITPY drive, what goes onto a device."""
