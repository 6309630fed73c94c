"""USB MIDI through the emulated RP2040's USB, on the stock firmwares: the emulated computer's
MIDI host (host_tools/emulator/rp2040js/midi_host.cjs) finds the Audio/MIDIStreaming interface
in the device's real configuration descriptor and plays event packets on its bulk endpoints;
CircuitPython 10.2.1 has usb_midi built in, MicroPython 1.28 gets the project's driver on
machine.USBDevice (hardware/mp_usb_midi.py), which makes the device leave the bus and come
back with MIDI beside its serial REPL. Times are the emulator's; the wall clock only bounds
the waits."""

import time

import pytest
from mpremote.transport_serial import SerialTransport

from host_tools.emulator import circuitpy_drive, emulate
from host_tools.emulator.rp2040 import EmulatedPico, image

pytestmark = pytest.mark.board

NOTE_ON = bytes.fromhex("903c64")            # C4, velocity 100, channel 1


def wait_for(what, condition, timeout=60):
    """Poll (bounded) until condition() is true: the emulator runs on its own clock."""
    deadline = time.time() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError("the emulated board did not get there in %d s: %s"
                                 % (timeout, what))
        time.sleep(0.02)


def received(board):
    """The raw MIDI bytes the board has sent, in order."""
    return b"".join(data for _, data in list(board.midi))


def bare_board(name):
    """The board's knob and ring pins (the command and event pipes), no OLED or piezo."""
    return dict(emulate.wired(name, emulate.load_board(name)), display=None, buzzer=None)


ECHO = """import usb_midi
port_in, port_out = usb_midi.ports
buf = bytearray(64)
while True:
    n = port_in.readinto(buf)
    if n:
        port_out.write(buf[:n])
"""


def test_circuitpython_usb_midi_echoes_what_the_host_plays(tmp_path):
    flash = str(tmp_path / "qtpy.img")
    circuitpy_drive.make_flash(flash, image("circuitpython_qtpy"), [])       # no code.py
    with EmulatedPico(flash, bare_board("qtpy_rp2040")) as qtpy:
        wait_for("USB configured", lambda: qtpy.usb_up)
        transport = SerialTransport(qtpy.port, baudrate=115200, timeout=2)
        try:
            transport.enter_raw_repl(soft_reset=False, timeout_overall=60)
            assert transport.exec("import usb_midi\nprint(usb_midi.ports)") == \
                b"(<PortIn>, <PortOut>)\r\n"
            transport.exec_raw_no_follow(ECHO)
            qtpy.send("midi " + NOTE_ON.hex(), "wait 5", "midi 803c00b07b00")
            qtpy.wait_done()
            played = NOTE_ON + bytes.fromhex("803c00b07b00")
            wait_for("the echo", lambda: len(received(qtpy)) >= len(played))
        finally:
            transport.close()
    assert received(qtpy) == played
    assert not [e for e in qtpy.events if e.startswith("?")]
