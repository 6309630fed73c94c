"""USB MIDI through the emulated RP2040's USB, on the stock firmwares: the emulated computer's
MIDI host (host_tools/emulator/rp2040js/midi_host.cjs) finds the Audio/MIDIStreaming interface
in the device's real configuration descriptor and plays event packets on its bulk endpoints;
CircuitPython 10.2.1 has usb_midi built in, MicroPython 1.28 gets the project's driver on
machine.USBDevice (hardware/mp_usb_midi.py), which makes the device leave the bus and come
back with MIDI beside its serial REPL. Times are the emulator's; the wall clock only bounds
the waits. The descriptors are read by the host's own walk (midi_host.cjs walk(), reported
beside the bytes: pico.usb_walks), the one reader of them; the tests check what it found."""

import contextlib

import pytest
from mpremote.transport_serial import SerialTransport

from host_tools.device.link import DeviceLink
from host_tools.emulator import circuitpy_drive, emulate
from host_tools.emulator.rp2040 import EmulatedPico, compiled, image, put_on_ram_disk
from waiting import wait_until

pytestmark = pytest.mark.usefixtures("emulator")


AUDIO, AUDIO_CONTROL, MIDI_STREAMING = 1, 1, 3          # USB-MIDI 1.0, appendix A
CDC, CDC_ACM, CDC_DATA = 2, 2, 10
NOTE_ON = bytes.fromhex("903c64")            # C4, velocity 100, channel 1


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
        wait_until(lambda: qtpy.usb_up, what="USB configured")
        transport = SerialTransport(qtpy.port, baudrate=115200, timeout=2)
        try:
            transport.enter_raw_repl(soft_reset=False, timeout_overall=60)
            assert transport.exec("import usb_midi\nprint(usb_midi.ports)") == \
                b"(<PortIn>, <PortOut>)\r\n"
            transport.exec_raw_no_follow(ECHO)
            qtpy.send("midi " + NOTE_ON.hex(), "wait 5", "midi 803c00b07b00")
            qtpy.wait_done()
            played = NOTE_ON + bytes.fromhex("803c00b07b00")
            wait_until(lambda: len(received(qtpy)) >= len(played), what="the echo")
        finally:
            transport.close()
    assert received(qtpy) == played
    # Its names as the host reads them (boot.py's usb_midi.set_names would change them).
    assert [(what, name) for _, what, name in qtpy.usb_names][:2] == \
        [("product", "QT Py RP2040"), ("midi", "CircuitPython MIDI")]
    assert not [e for e in qtpy.events if e.startswith("?")]


# -- MicroPython 1.28: the project's driver on machine.USBDevice ---------------------------

START = """import sys
sys.path.insert(0, '/ram')
import time
from mp_usb_midi import UsbMidi
midi = UsbMidi()
heard = []
midi.on_receive = lambda: heard.append(time.ticks_us()) if not heard else None
print(midi.start())
"""


@contextlib.contextmanager
def driver_started(tmp_path):
    """An emulated Pico (stock MicroPython 1.28), the driver compiled onto its RAM disk and
    started from a program running in the raw REPL: (pico, link, the program's answer)."""
    pico = EmulatedPico(board=bare_board("pico"))
    files = compiled(["hardware/mp_usb_midi.py"], str(tmp_path))
    with pico:
        wait_until(lambda: pico.usb_up, what="USB configured")
        with DeviceLink(pico.port) as link:
            put_on_ram_disk(link, [("/ram/mp_usb_midi.mpy", files[0][1])])
            yield pico, link, link.run(START)


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    with driver_started(tmp_path_factory.mktemp("midi")) as found:
        yield found


def test_start_re_enumerates_with_midi_and_the_repl_answers_through_the_same_port(started):
    pico, link, said = started
    assert said == "True\r\n"                 # the host configured MIDI within start()
    # It left the bus once and came back: two enumerations, the second with MIDI.
    assert len(pico.usb_down) == 1 and len(pico.usb_up) == 2
    assert pico.usb_up[0] < pico.usb_down[0] < pico.usb_up[1]
    (_, cdc_only), (_, with_midi) = pico.usb_configs
    (_, walked_cdc), (_, walked) = pico.usb_walks
    assert [k[:2] for k in walked_cdc.interfaces.values()] == [(CDC, CDC_ACM), (CDC_DATA, 0)]
    assert walked_cdc.midi is None
    found = walked.interfaces
    assert len(with_midi) == with_midi[2] | with_midi[3] << 8      # wTotalLength
    assert with_midi[4] == 4 == len(found)                         # bNumInterfaces
    assert with_midi[:len(cdc_only)][9:] == cdc_only[9:]           # MicroPython's CDC kept
    assert [k[:2] for k in found.values()][:2] == [(CDC, CDC_ACM), (CDC_DATA, 0)]
    assert found[2][:2] == (AUDIO, AUDIO_CONTROL) and not found[2][3]
    assert found[3][:2] == (AUDIO, MIDI_STREAMING)
    assert found[3][3] == [(0x03, 2, 64), (0x83, 2, 64)]          # bulk OUT and IN
    # The host plays MIDI on those two (the notes below travel on them).
    assert walked.midi == {"interface": 3, "in": 3, "out": 3}
    # The REPL still answers, on the same port, after the device came back.
    assert link.run("print(6 * 7)") == "42\r\n"
    # The host read the names: MicroPython's product name before, ours with MIDI.
    names = wait_until(lambda: len(pico.usb_names) >= 5 and pico.usb_names, what="the names")
    assert [(what, name) for ns, what, name in names if ns < pico.usb_down[0]] == \
        [("product", "Board in FS mode")]
    assert [(what, name) for ns, what, name in names if ns > pico.usb_up[1]] == \
        [("product", "ChromaWheel"), ("midi", "ChromaWheel"), ("jack", "ChromaWheel"),
         ("jack", "ChromaWheel")]
    # About 50 ms off the bus (mp_usbd_runtime.c), then enumerated again within milliseconds.
    assert 50e6 <= pico.usb_up[1] - pico.usb_down[0] < 100e6


def test_a_note_on_from_the_host_is_read_by_readinto(started):
    pico, link, _ = started
    # "done" with the note, in one write: it answers at the instant the note went (sent
    # alone, it runs when it arrives, maybe after the board's next slice)
    pico.send("midi 903c64", "done")
    pico.wait_done(sent=True)
    sent_ns = int([e for e in pico.events if e.startswith("E ")][-1].split()[1])
    got = link.run("import time\n"
                   "buf = bytearray(16)\n"
                   "n = 0\n"
                   "t = time.ticks_ms()\n"
                   "while not n and time.ticks_diff(time.ticks_ms(), t) < 2000:\n"
                   "    n = midi.readinto(buf)\n"
                   "print(bytes(buf[:n]).hex(), heard[0], midi.readinto(buf))")
    data, heard_us, again = got.split()
    assert bytes.fromhex(data) == NOTE_ON and again == "0"
    # on_receive ran (from the TinyUSB task) within a millisecond of the host's note-on:
    # the device's ticks_us is the emulator's clock (mod 2**30 us).
    latency_ns = (int(heard_us) * 1000 - sent_ns) % (2 ** 30 * 1000)
    assert latency_ns < 1e6, latency_ns
    print("host note-on to on_receive: %d ns" % latency_ns)


def chord(notes, velocity, on=True):
    return b"".join(bytes((0x90 if on else 0x80, n, velocity if on else 0)) for n in notes)


def test_a_chord_and_the_previous_chords_note_offs_reach_the_host_whole(started):
    pico, link, _ = started
    before = len(received(pico))
    # A triad after a triad, then a 12-note chord after it: 24 messages, 96 bytes of packets.
    triad = chord((60, 64, 67), 0, on=False) + chord((62, 65, 69), 100)
    twelve = chord((62, 65, 69), 0, on=False) + chord(range(48, 60), 90) + \
        chord(range(48, 60), 0, on=False)
    assert link.run("print(midi.write(bytes.fromhex('%s')), midi.write(bytes.fromhex('%s')))"
                    % (triad.hex(), twelve.hex())) == "%d %d\r\n" % (len(triad), len(twelve))
    wait_until(lambda: len(received(pico)) >= before + len(triad + twelve), what="the chords")
    assert received(pico)[before:] == triad + twelve


HEAP_LOCKED = """import micropython, gc, time
out = bytes.fromhex('%s')
buf = bytearray(16)
gc.collect()
before = gc.mem_alloc()
micropython.heap_lock()
try:
    wrote = midi.write(out)
    t = time.ticks_ms()
    n = 0
    while not n and time.ticks_diff(time.ticks_ms(), t) < 5000:
        n = midi.readinto(buf)
finally:
    micropython.heap_unlock()
print(wrote, n, gc.mem_alloc() - before)
"""


def test_readinto_and_write_allocate_nothing(started):
    """With the heap locked (an allocation raises MemoryError): write() queues, the scheduled
    submit and the transfer callbacks send it, the host's note-on is received and read."""
    pico, link, _ = started
    before = len(received(pico))
    notes = chord((60, 64, 67), 80)
    link.transport.exec_raw_no_follow(HEAP_LOCKED % notes.hex())
    wait_until(lambda: received(pico)[before:] == notes, what="the chord")
    pico.send("midi 903c64")                  # the device waits for it with the heap locked
    out, err = link.transport.follow(timeout=60)
    assert not err, err
    wrote, n, grown = out.split()
    assert (int(wrote), int(n)) == (len(notes), 3)
    assert int(grown) == 0


def test_a_soft_reset_leaves_the_serial_port_alone_on_the_bus(tmp_path):
    with driver_started(tmp_path) as (pico, link, said):
        assert said == "True\r\n"
        assert len(pico.usb_configs) == 2
        link.close()
        # Ctrl-D in the raw REPL: a soft reset. MicroPython prints "soft reboot", then
        # mp_usbd_deinit() drops the runtime device and clears the CDC's unsent bytes
        # (ports/rp2/main.c, shared/tinyusb/mp_usbd_runtime.c): the first handshake may
        # miss that line, and connect() tries again, as machine.USBDevice's docs say.
        link.connect(soft_reset=True)
        assert link.run("print(6 * 7)") == "42\r\n"
        wait_until(lambda: len(pico.usb_up) == 3, what="the third enumeration")
    # The runtime device is gone: the device left the bus again and came back CDC only.
    assert len(pico.usb_down) == 2 and pico.usb_configs[2][1] == pico.usb_configs[0][1]
    assert not [ns for ns, _ in pico.midi]


def test_stop_gives_the_bus_back_to_the_repl_alone_and_typed_bytes_wait_for_it(tmp_path):
    with driver_started(tmp_path) as (pico, link, said):
        assert said == "True\r\n"
        transport = link.transport
        # stop(), and the next command typed (in emulated time) the moment the board is off
        # the bus: the host holds those bytes and hands them over once the port is back.
        pico.send("offbus", "serial " + b"print(6 * 7)\x04".hex())
        transport.exec_raw_no_follow("midi.stop()\nprint(midi.connected)")
        assert transport.follow(timeout=30) == (b"False\r\n", b"")
        assert transport.read_until(1, b">", timeout=30).endswith(b">")
        assert transport.read_until(2, b"OK", timeout=30).endswith(b"OK")
        assert transport.follow(timeout=30) == (b"42\r\n", b"")
        assert link.run("print(midi.write(b'\\x90\\x3c\\x64'))") == "0\r\n"
    assert len(pico.usb_configs) == 3 and pico.usb_configs[2][1] == pico.usb_configs[0][1]
    assert pico.usb_names[-1][1:] == ("product", "Board in FS mode")


# Every kind of message: program change, running status, a real-time byte inside a note-on
# (it goes out first, as on a MIDI wire), SysEx, MTC quarter frame, song position, tune
# request, pitch bend.
MIXED = bytes.fromhex("c005" "903c64" "3e64" "90f8" "4064" "f07e7f0901f7" "f101" "f20102"
                      "f6" "e00040")
AS_SENT = bytes.fromhex("c005" "903c64" "903e64" "f8" "904064" "f07e7f0901f7" "f101"
                        "f20102" "f6" "e00040")


def test_every_kind_of_message_goes_both_ways(started):
    pico, link, _ = started
    before = len(received(pico))
    assert link.run("print(midi.write(bytes.fromhex('%s')))" % MIXED.hex()) == \
        "%d\r\n" % len(MIXED)
    wait_until(lambda: len(received(pico)) >= before + len(AS_SENT) - 1, what="the messages")
    # Running status expanded (USB-MIDI packets carry whole messages), all else as written.
    assert received(pico)[before:] == AS_SENT
    # The host packs the same way; the device passes all but the SysEx on.
    expected = AS_SENT.replace(bytes.fromhex("f07e7f0901f7"), b"")
    pico.send("midi " + MIXED.hex())
    pico.wait_done()
    got = link.run("buf = bytearray(64)\n"
                   "n = 0\n"
                   "t = time.ticks_ms()\n"
                   "while n < %d and time.ticks_diff(time.ticks_ms(), t) < 2000:\n"
                   "    n += midi.readinto(memoryview(buf)[n:])\n"
                   "print(bytes(buf[:n]).hex())" % len(expected))
    assert bytes.fromhex(got.strip()) == expected
