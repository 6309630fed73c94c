"""Serial MIDI on the jacks, on the real ports in the emulated RP2040: the chip's UART as the
PL011 is (host_tools/emulator/rp2040js/uart.cjs: FIFOs, the baud rate the firmware sets in
emulated time, its interrupts), a device playing into MIDI IN at 31,250 baud and what the
board sends on MIDI OUT timed as it leaves the pin. MicroPython 1.28 on the Pico
(machine.UART on UART0, GP0/GP1: hardware/mp_uart_midi.py) and CircuitPython 10.2.1 on the QT
Py (busio.UART on MISO/RX, UART1: hardware/cp_parts.py). Times are the emulator's; the wall
clock only bounds the waits."""

import contextlib
import os

import pytest
from mpremote.transport_serial import SerialTransport

from host_tools import ROOT
from host_tools.device.link import DeviceLink
from host_tools.emulator import circuitpy_drive, emulate, table
from host_tools.emulator.rp2040 import EmulatedPico, compiled, image, put_on_ram_disk
from waiting import wait_until

pytestmark = pytest.mark.usefixtures("emulator")

BYTE_NS = 320000                      # 10 bits at 31,250 baud
NOTE_ON = bytes.fromhex("903c64")
TRIAD = bytes.fromhex("903c64904064904364")


def board(name):
    """The board's knob, ring and jack pins, no OLED or piezo."""
    return dict(emulate.wired(name, emulate.load_board(name)), display=None, buzzer=None)


def sent(pico, since=0):
    """The bytes the board has sent on MIDI OUT (after the first `since`)."""
    return bytes(byte for _, byte in list(pico.jacks)[since:])


def done_ns(pico):
    """The emulated time of the last "done" the knob's commands answered."""
    return int([e for e in pico.events if e.startswith("E ")][-1].split()[1])


# -- MicroPython 1.28 on the Pico: machine.UART -----------------------------------------------

START = """import sys
sys.path.insert(0, '/ram')
import time
from mp_uart_midi import UartMidi
jacks = UartMidi({"uart": 0, "tx": 0, "rx": 1})
heard = []
jacks.on_receive = lambda: heard.append(time.ticks_us())
print(jacks.uart)
"""
READ = """buf = bytearray(16)
n = 0
t = time.ticks_ms()
while not n and time.ticks_diff(time.ticks_ms(), t) < 2000:
    n = jacks.readinto(buf)
print(bytes(buf[:n]).hex(), heard[-1], jacks.readinto(buf))
"""


@contextlib.contextmanager
def micropython_jacks(tmp_path):
    pico = EmulatedPico(board=board("pico"))
    files = compiled(["hardware/mp_uart_midi.py"], str(tmp_path))
    with pico:
        wait_until(lambda: pico.usb_up, what="USB configured")
        with DeviceLink(pico.port) as link:
            put_on_ram_disk(link, [("/ram/mp_uart_midi.mpy", files[0][1])])
            yield pico, link, link.run(START)


@pytest.fixture(scope="module")
def pico_jacks(tmp_path_factory):
    with micropython_jacks(tmp_path_factory.mktemp("jacks")) as found:
        yield found


def test_the_uart_runs_at_midis_rate_on_the_board_files_pins(pico_jacks):
    _, _, said = pico_jacks
    assert said.startswith("UART(0, baudrate=31250, bits=8, parity=None, stop=1, tx=0, rx=1, "
                           "txbuf=256, rxbuf=1024, timeout=0"), said


def test_a_note_played_into_midi_in_is_read_and_wakes_a_pass_once_the_line_rests(pico_jacks):
    pico, link, _ = pico_jacks
    pico.send("jacks " + NOTE_ON.hex(), "done")       # "done" at the instant the bytes start
    pico.wait_done(sent=True)
    start = done_ns(pico)
    data, heard_us, again = link.run(READ).split()
    assert bytes.fromhex(data) == NOTE_ON and again == "0"
    # on_receive ran (IRQ_RXIDLE, scheduled) once the line had rested 32 bit times after the
    # third byte: 3 bytes of 320 us, then 1.024 ms.
    latency_ns = (int(heard_us) * 1000 - start) % (2 ** 30 * 1000)
    assert 3 * BYTE_NS + 1024000 <= latency_ns < 3 * BYTE_NS + 1024000 + 300000, latency_ns


def test_a_chord_goes_out_a_byte_every_320_us(pico_jacks):
    pico, link, _ = pico_jacks
    before = len(pico.jacks)
    assert link.run("t = time.ticks_us()\njacks.write(bytes.fromhex('%s'), 9)\n"
                    "print(time.ticks_diff(time.ticks_us(), t) < 1000)" % TRIAD.hex()) == \
        "True\r\n"                          # queued: write() waits for no byte to go
    wait_until(lambda: len(pico.jacks) >= before + len(TRIAD), what="the triad")
    times = [ns for ns, _ in pico.jacks[before:]]
    assert sent(pico, before) == TRIAD
    assert [b - a for a, b in zip(times, times[1:])] == [BYTE_NS] * (len(TRIAD) - 1)


def test_a_byte_that_finds_the_buffers_full_is_lost_not_a_crash(pico_jacks):
    # 1100 bytes while nothing reads: the ring buffer keeps 1024, the FIFO 32 more at most.
    pico, link, _ = pico_jacks
    link.run("jacks.readinto(bytearray(2048))")
    pico.send("jacks " + bytes(range(110)).hex() * 10)
    pico.send("wait 400")
    pico.wait_done()
    count = int(link.run("buf = bytearray(2048)\nprint(jacks.readinto(buf))"))
    assert 1024 <= count < 1100


# -- CircuitPython 10.2.1 on the QT Py: busio.UART --------------------------------------------

START_CP = """from hardware.cp_parts import UartMidi
jacks = UartMidi({"tx": "MISO", "rx": "RX"})
buf = bytearray(64)
print(jacks.uart.baudrate)
"""
ECHO = """while True:
    n = jacks.readinto(buf)
    if n:
        jacks.write(buf, n)
"""


def test_circuitpython_echoes_what_comes_into_midi_in_on_midi_out(tmp_path):
    flash = str(tmp_path / "qtpy.img")
    files = []
    for name in ("__init__", "cp_parts", "cp_devices", "presses", "clock", "oled", "font"):
        with open(os.path.join(ROOT, "hardware", name + ".py"), "rb") as f:
            files.append(("hardware/%s.py" % name, f.read()))
    circuitpy_drive.make_flash(flash, image("circuitpython_qtpy"), files)      # no code.py
    with EmulatedPico(flash, board("qtpy_rp2040")) as qtpy:
        wait_until(lambda: qtpy.usb_up, what="USB configured")
        transport = SerialTransport(qtpy.port, baudrate=115200, timeout=2)
        try:
            transport.enter_raw_repl(soft_reset=False, timeout_overall=60)
            assert transport.exec(START_CP) == b"31250\r\n"
            transport.exec_raw_no_follow(ECHO)
            qtpy.send("wait 50", "jacks " + TRIAD.hex())
            wait_until(lambda: len(qtpy.jacks) >= len(TRIAD), what="the echo")
        finally:
            transport.close()
    assert sent(qtpy) == TRIAD
    # a byte every 320 us while the FIFO has more, later when the echo waited for them
    times = [ns for ns, _ in qtpy.jacks]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert min(gaps) == BYTE_NS and gaps.count(BYTE_NS) >= len(TRIAD) // 2, gaps


# -- the firmware on the jacks ---------------------------------------------------------------
# (Its chord out on the jacks held against USB MIDI's, and listen hearing a keyboard on MIDI IN
# after USB MIDI's: tests/host/test_emulated_midi.py, one emulated run a board for both ports.)


# -- two boards cabled: OUT of each to IN of the other -----------------------------------------

def test_two_boards_cabled_hear_each_other_a_byte_time_after_it_ends(tmp_path):
    """A ring of two Picos (host_tools/emulator/table.py): what A sends, B reads, each byte
    whole 320 us after it started on A's pin, the two clocks in step (lockstep through the
    cables: both boards' ticks count the table's time from the same power-up)."""
    files = compiled(["hardware/mp_uart_midi.py"], str(tmp_path))
    cables = []
    a, b = EmulatedPico(board=board("pico")), EmulatedPico(board=board("pico"))
    table.ring([a, b], cables)
    try:
        with a, b:
            for pico in (a, b):
                wait_until(lambda pico=pico: pico.usb_up, what="USB configured")
            with DeviceLink(a.port) as link_a, DeviceLink(b.port) as link_b:
                for link in (link_a, link_b):
                    put_on_ram_disk(link, [("/ram/mp_uart_midi.mpy", files[0][1])])
                    link.run(START)
                link_a.run("jacks.write(bytes.fromhex('%s'), 9)" % TRIAD.hex())
                wait_until(lambda: len(a.jacks) >= len(TRIAD), what="A's triad")
                data, heard_us, _ = link_b.run(READ).split()
                link_b.run("jacks.write(buf, n)")
                wait_until(lambda: len(b.jacks) >= len(TRIAD), what="B's echo")
                data_a, _, _ = link_a.run(READ).split()
    finally:
        for made in cables:
            made.close()
    assert bytes.fromhex(data) == bytes.fromhex(data_a) == TRIAD == sent(a) == sent(b)
    # B heard the triad once its line had rested 32 bit times after A's last byte ended.
    last_end = a.jacks[-1][0]
    assert (int(heard_us) * 1000 - last_end) % (2 ** 30 * 1000) in range(1024000, 1300000)
