"""The hardware backends against fake platform modules: what they call, in what order, and
that their decoding is right. (The real ones need a board; the pure logic they wrap is tested
in tests/core under both interpreters.)"""

import importlib
import os
import sys
import types

import pytest


class FakePin:
    IN, OUT, PULL_UP, PULL_DOWN, IRQ_RISING, IRQ_FALLING = 0, 1, 2, 3, 4, 8
    levels = {}

    def __init__(self, number, mode=None, pull=None):
        self.number = number
        self.mode = mode
        self.pull = pull
        self.handler = None

    def value(self):
        return FakePin.levels.get(self.number, 1)

    def irq(self, handler, trigger, hard=False):
        assert hard and trigger == FakePin.IRQ_RISING | FakePin.IRQ_FALLING
        self.handler = handler


def fake_modules(monkeypatch, **modules):
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)


@pytest.fixture
def machine(monkeypatch):
    m = types.ModuleType("machine")
    m.Pin = FakePin
    m.disable_irq = lambda: 7
    m.enable_irq = lambda state: None
    written = []

    class NeoPixel:
        # micropython-lib's neopixel (frozen into the rp2 and esp32 builds): its pin and
        # 800 kHz timing, which our output passes to machine.bitstream itself.
        def __init__(self, pin, n, bpp=3, timing=1):
            self.pin, self.n, self.bpp, self.buf = pin, n, bpp, bytearray(n * bpp)
            self.timing = (400, 850, 800, 450)

    def bitstream(pin, encoding, timing, buf):
        assert encoding == 0 and timing == (400, 850, 800, 450)
        written.append(bytes(buf))

    m.bitstream = bitstream

    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel
    micropython = types.ModuleType("micropython")
    m.scheduled = []
    micropython.schedule = lambda function, arg: m.scheduled.append((function, arg))
    fake_modules(monkeypatch, machine=m, neopixel=neopixel, micropython=micropython)
    monkeypatch.delitem(sys.modules, "hardware.mp_devices", raising=False)
    monkeypatch.delitem(sys.modules, "hardware.irq_encoder", raising=False)
    m.written = written
    FakePin.levels = {}
    return m


ENCODER = {"pin_a": 17, "pin_b": 18, "pulses_per_detent": 4, "reverse": False,
           "rest_state": 3, "pull": "up", "filter_ns": 10000}


def test_micropython_neopixel_output_writes_our_buffer(machine):
    mp = importlib.import_module("hardware.mp_devices")
    out = mp.NeoPixelOutput({"pin": 16, "count": 12, "order": "GRBW"})
    buf = bytearray(range(48))
    out.write(buf)
    assert machine.written == [bytes(range(48))]


def test_a_detent_asks_for_a_pass_at_once_and_only_once_until_it_runs(machine):
    # The pin IRQ (hard) completes a detent and calls the port's knob_wake: one scheduled
    # call, however many edges follow before it runs; the pass runs when the scheduler calls.
    mp = importlib.import_module("hardware.mp_devices")
    passes = []
    FakePin.levels = {17: 1, 18: 1}
    enc = mp.IrqEncoder(ENCODER)
    enc.wake = mp.ScheduledWake(lambda: passes.append(enc.take()))
    for a, b in ((0, 1), (0, 0), (1, 0)):
        FakePin.levels = {17: a, 18: b}
        enc._a.handler(enc._a)
    assert machine.scheduled == []                  # mid-detent: nothing to show yet
    for a, b in ((1, 1), (0, 1), (1, 1)):           # the detent's last edge, a bounce
        FakePin.levels = {17: a, 18: b}
        enc._a.handler(enc._a)
    assert len(machine.scheduled) == 1
    function, arg = machine.scheduled.pop()
    function(arg)
    assert passes == [1]


def test_irq_encoder_decodes_pin_edges(machine):
    mp = importlib.import_module("hardware.mp_devices")
    FakePin.levels = {17: 1, 18: 1}
    enc = mp.IrqEncoder(ENCODER)
    for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)) * 2:      # two detents clockwise: A leads
        FakePin.levels = {17: a, 18: b}
        enc._a.handler(enc._a)
    assert enc.take() == 2 and enc.take() == 0


def test_irq_encoder_on_esp32_passes_no_hard_keyword(machine, monkeypatch):
    # ports/esp32/machine_pin.c: Pin.irq(handler, trigger, wake) and nothing else.
    class EspPin(FakePin):
        def irq(self, handler=None, trigger=FakePin.IRQ_RISING | FakePin.IRQ_FALLING,
                wake=None):
            self.handler = handler

    machine.Pin = EspPin
    monkeypatch.setattr(sys, "platform", "esp32")
    mp = importlib.import_module("hardware.mp_devices")
    enc = mp.IrqEncoder(ENCODER)
    for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)):
        FakePin.levels = {17: a, 18: b}
        enc._a.handler(enc._a)
    assert enc.take() == 1


def test_pin_button_active_low(machine):
    mp = importlib.import_module("hardware.mp_devices")
    button = mp.PinButton({"pin": 19, "active_low": True, "pull": "up"})
    FakePin.levels = {19: 0}
    assert button.pressed()
    FakePin.levels = {19: 1}
    assert not button.pressed()


def test_pin_button_stamps_each_edge_in_its_interrupt(machine):
    # both edges, a hard IRQ; each edge kept with its time and the knob's count then
    from hardware.quadrature import QuadratureDecoder
    mp = importlib.import_module("hardware.mp_devices")
    knob = QuadratureDecoder()
    button = mp.PinButton({"pin": 19, "active_low": True, "pull": "up"}, knob)
    pin = button._pin
    FakePin.levels = {19: 0}
    pin.handler(pin)
    knob.turned = 5
    FakePin.levels = {19: 1}
    pin.handler(pin)
    edges = button.edges
    taken = []
    while edges.waiting():
        slot = edges.oldest()
        taken.append((edges.levels[slot], edges.turns[slot]))
        edges.take()
    assert taken == [(1, 0), (0, 5)]


def _pio_module(monkeypatch):
    """hardware.rp2_pio_encoder on a fake rp2 whose state machine's FIFO the test fills."""
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(SHIFT_LEFT=0, JOIN_RX=1)
    rp2.asm_pio = lambda **kw: (lambda fn: ("program", kw))

    class StateMachine:
        def __init__(self, number, program, freq, in_base):
            self.fifo = []
            self.handler = None

        def irq(self, handler, hard=False):
            assert hard
            self.handler = handler

        def active(self, on):
            self.on = on

        def rx_fifo(self):
            return len(self.fifo)

        def get(self):
            return self.fifo.pop(0)

    rp2.StateMachine = StateMachine
    fake_modules(monkeypatch, rp2=rp2)
    monkeypatch.delitem(sys.modules, "hardware.rp2_pio_encoder", raising=False)
    return importlib.import_module("hardware.rp2_pio_encoder")


def test_rp2_pio_encoder_drains_the_fifo(machine, monkeypatch):
    pio = _pio_module(monkeypatch)
    enc = pio.PioEncoder(ENCODER)
    # The PIO pushes (B << 1) | A: one detent clockwise is A B = 01 00 10 11.
    for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)):
        enc._sm.fifo.append((b << 1) | a)
    enc._sm.handler(enc._sm)
    assert enc.take() == 1
    # A board file's pull-down reaches the pins (it was silently dropped).
    monkeypatch.delitem(sys.modules, "hardware.rp2_pio_encoder", raising=False)
    pins = []

    class RecordingPin(FakePin):
        def __init__(self, *args):
            pins.append(args)
            FakePin.__init__(self, *args)
    machine.Pin = RecordingPin
    importlib.import_module("hardware.rp2_pio_encoder").PioEncoder(dict(ENCODER, pull="down"))
    assert [args[2] for args in pins if len(args) == 3] == [FakePin.PULL_DOWN] * 2
    machine.Pin = FakePin


# The same wiring must turn the same way on every driver: A leading B (clockwise) is +1.
# Each fake below counts as the real driver does, so a driver that disagreed would show.
A_LEADS = ((0, 1), (0, 0), (1, 0), (1, 1))          # one detent clockwise, from rest 11
B_LEADS = ((1, 0), (0, 0), (0, 1), (1, 1))          # one detent anticlockwise


class EspEncoder:
    """machine.Encoder on ESP32 (ports/esp32/modules/machine.py): channel 0 counts A's edges,
    falling +1 and rising -1, and holds while B is low (phases=1)."""

    def __init__(self, unit, a, b, phases, filter_ns):
        assert phases == 1 and filter_ns == 10000
        self.a, self.b, self.count, self.level_a = a, b, 0, 1

    def pins(self, a, b):
        if a != self.level_a and b:
            self.count += 1 if a == 0 else -1
        self.level_a = a

    def value(self):
        return self.count


class RotaryIncrementalEncoder:
    """rotaryio on CircuitPython (shared-module/rotaryio/IncrementalEncoder.c): the state is
    (A << 1) | B, a quarter step by its transition table, a count every `divisor` quarters."""
    TRANSITIONS = (0, -1, 1, None, 1, 0, None, -1, -1, None, 0, 1, None, 1, -1, 0)

    def __init__(self, a, b, divisor):
        self.state, self.quarters, self.position, self.divisor = 3, 0, 0, divisor

    def pins(self, a, b):
        step = self.TRANSITIONS[self.state << 2 | a << 1 | b]
        self.state = a << 1 | b
        if step is None:
            return
        self.quarters += step
        if abs(self.quarters) >= self.divisor:
            self.position += 1 if self.quarters > 0 else -1
            self.quarters = 0


def _turns(machine, monkeypatch, driver, reverse):
    """(detents read after A leads twice, after B leads once) through one driver."""
    config = dict(ENCODER, reverse=reverse)
    FakePin.levels = {17: 1, 18: 1}
    if driver == "irq":
        enc = importlib.import_module("hardware.mp_devices").IrqEncoder(config)

        def level(a, b):
            FakePin.levels = {17: a, 18: b}
            enc._a.handler(enc._a)
    elif driver == "pio":
        enc = _pio_module(monkeypatch).PioEncoder(config)

        def level(a, b):
            enc._sm.fifo.append((b << 1) | a)           # in_(pins, 2): A is bit 0
            enc._sm.handler(enc._sm)
    elif driver == "pcnt":
        machine.Encoder = EspEncoder
        sys.modules.pop("hardware.esp32_encoder", None)
        enc = importlib.import_module("hardware.esp32_encoder").PcntEncoder(config)

        def level(a, b):
            FakePin.levels = {17: a, 18: b}
            enc._encoder.pins(a, b)
    else:
        enc = _circuitpython(monkeypatch).RotaryEncoder(
            dict(config, pin_a="A1", pin_b="A2"))

        def level(a, b):
            enc._encoder.pins(a, b)
    for a, b in A_LEADS * 2:
        level(a, b)
    forward = enc.take()
    for a, b in B_LEADS:
        level(a, b)
    return forward, enc.take()


@pytest.mark.parametrize("driver", ["irq", "pio", "pcnt", "rotaryio"])
def test_every_driver_turns_the_same_way(machine, monkeypatch, driver):
    assert _turns(machine, monkeypatch, driver, reverse=False) == (2, -1)
    assert _turns(machine, monkeypatch, driver, reverse=True) == (-2, 1)


def test_esp32_pcnt_takes_a_detent_only_at_rest(machine):
    # A wiggle at rest (A falls and rises, B high) reads +1 then -1 on the PCNT: read in
    # between, the wheel would step forward and back.
    machine.Encoder = EspEncoder
    sys.modules.pop("hardware.esp32_encoder", None)
    enc = importlib.import_module("hardware.esp32_encoder").PcntEncoder(ENCODER)
    FakePin.levels = {17: 0, 18: 1}
    enc._encoder.pins(0, 1)
    assert enc.take() == 0
    FakePin.levels = {17: 1, 18: 1}
    enc._encoder.pins(1, 1)
    assert enc.take() == 0


def test_esp32_without_pcnt_is_a_board_file_error(machine):
    # The ESP32-C3 has no PCNT unit, so its MicroPython has no machine.Encoder.
    from hardware.board import BoardError
    sys.modules.pop("hardware.esp32_encoder", None)
    with pytest.raises(BoardError, match='encoder.driver: "pcnt" needs machine.Encoder'):
        importlib.import_module("hardware.esp32_encoder").PcntEncoder(ENCODER)


def test_the_buzzer_is_silent_from_the_start(machine):
    # ports/esp32/machine_pwm.c: PWM(pin) with no freq or duty starts at 5 kHz, 50 % duty.
    sounds = []

    class EspPwm:
        def __init__(self, pin, freq=5000, duty_u16=32768):
            sounds.append((freq, duty_u16))

        def duty_u16(self, duty):
            sounds.append(("duty", duty))

    machine.PWM = EspPwm
    sys.modules.pop("hardware.mp_parts", None)
    importlib.import_module("hardware.mp_parts").PwmTone({"pin": 26})
    assert [s for s in sounds if s[-1]] == []          # never a moment with duty above 0


def _circuitpython(monkeypatch, written=None):
    """hardware.cp_devices on fakes of CircuitPython's board, digitalio, rotaryio (counting as
    the real one) and neopixel_write (appending to `written`)."""
    board = types.ModuleType("board")
    board.A0, board.A1, board.A2, board.A3 = "A0", "A1", "A2", "A3"

    class DigitalInOut:
        def __init__(self, pin):
            self.pin, self.value, self.pull, self.direction = pin, True, None, None

    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = DigitalInOut
    digitalio.Direction = types.SimpleNamespace(INPUT="in", OUTPUT="out")
    digitalio.Pull = types.SimpleNamespace(UP="up", DOWN="down")
    rotaryio = types.ModuleType("rotaryio")
    rotaryio.IncrementalEncoder = RotaryIncrementalEncoder
    npw = types.ModuleType("neopixel_write")
    npw.neopixel_write = lambda pin, buf: written.append((pin.pin, bytes(buf)))
    fake_modules(monkeypatch, board=board, digitalio=digitalio, rotaryio=rotaryio,
                 neopixel_write=npw)
    monkeypatch.delitem(sys.modules, "hardware.cp_devices", raising=False)
    return importlib.import_module("hardware.cp_devices")


def test_circuitpython_devices(monkeypatch):
    written = []
    cp = _circuitpython(monkeypatch, written)
    out = cp.NeoPixelOutput({"pin": "A3"})
    out.write(bytearray(b"\x01\x02"))
    assert written == [("A3", b"\x01\x02")]
    enc = cp.RotaryEncoder({"pin_a": "A1", "pin_b": "A2", "pulses_per_detent": 4,
                            "reverse": False})
    enc._encoder.position = 3
    assert enc.take() == 3 and enc.take() == 0
    button = cp.PinButton({"pin": "A0", "active_low": True, "pull": "up"})
    button._pin.value = False
    assert button.pressed() and button._pin.pull == "up"


# ---- the port modules (firmware/ports/): each offers the whole interface --------------------

PORT_FUNCTIONS = ("build", "display_panel", "tone_output", "watchdog", "reset_cause", "restart")


def _port(monkeypatch, name):
    monkeypatch.delitem(sys.modules, "firmware.ports." + name, raising=False)
    monkeypatch.delitem(sys.modules, "firmware.ports.micropython", raising=False)
    return importlib.import_module("firmware.ports." + name)


def test_every_platform_has_a_port_with_the_whole_interface(machine, monkeypatch):
    from hardware.board import PLATFORMS
    _circuitpython(monkeypatch)
    webpins = types.ModuleType("webpins")
    fake_modules(monkeypatch, webpins=webpins, uctypes=types.ModuleType("uctypes"))
    for name in PLATFORMS:
        port = _port(monkeypatch, name)
        assert [f for f in PORT_FUNCTIONS if not callable(getattr(port, f, None))] == [], name
        # USB MIDI and the jacks: a function where the port has it, None where it has not
        # (no menu item).
        assert port.midi_port is None or callable(port.midi_port), name
        assert port.jacks_port is None or callable(port.jacks_port), name
    assert _port(monkeypatch, "esp32").midi_port is None
    assert _port(monkeypatch, "web").jacks_port is None


def test_circuitpython_usb_midi_ports(monkeypatch):
    """cp_parts.UsbMidiPorts against usb_midi's interface (shared-bindings/usb_midi: ports, a
    tuple of PortIn and PortOut; readinto(buf) returns a count, None or 0 when nothing came)."""
    usb_midi = types.ModuleType("usb_midi")

    class PortIn:
        def __init__(self):
            self.waiting = b""

        def readinto(self, buf):
            count = len(self.waiting)
            buf[:count] = self.waiting
            self.waiting = b""
            return count or None

    class PortOut:
        def __init__(self):
            self.sent = b""

        def write(self, buf):
            self.sent += bytes(buf)
            return len(buf)

    usb_midi.PortIn, usb_midi.PortOut = PortIn, PortOut
    usb_midi.ports = (PortIn(), PortOut())
    fake_modules(monkeypatch, usb_midi=usb_midi)
    _circuitpython(monkeypatch)
    from hardware.cp_parts import UsbMidiPorts
    port = UsbMidiPorts()
    buf = bytearray(64)
    assert port.readinto(buf) == 0
    usb_midi.ports[0].waiting = b"\x90\x3c\x64"
    assert port.readinto(buf) == 3 and buf[:3] == b"\x90\x3c\x64"
    port.write(bytearray(b"\x80\x3c\x40\x90\x3e\x64"), 3)
    assert usb_midi.ports[1].sent == b"\x80\x3c\x40"
    usb_midi.ports = ()
    with pytest.raises(OSError, match="usb_midi has no ports"):
        UsbMidiPorts()


def test_reset_cause_on_the_boards(machine, monkeypatch):
    machine.PWRON_RESET, machine.HARD_RESET = 1, 2
    machine.reset_cause = lambda: machine.PWRON_RESET
    rp2 = _port(monkeypatch, "rp2")
    assert rp2.reset_cause() == "power"
    machine.reset_cause = lambda: machine.HARD_RESET
    assert rp2.reset_cause() == "reset"
    assert _port(monkeypatch, "esp32").reset_cause() == "reset"
    micro = types.ModuleType("microcontroller")
    micro.ResetReason = types.SimpleNamespace(POWER_ON=0, SOFTWARE=1)
    micro.cpu = types.SimpleNamespace(reset_reason=micro.ResetReason.SOFTWARE)
    fake_modules(monkeypatch, microcontroller=micro)
    _circuitpython(monkeypatch)
    circuitpython = _port(monkeypatch, "circuitpython")
    assert circuitpython.reset_cause() == "reset"
    micro.cpu.reset_reason = micro.ResetReason.POWER_ON
    assert circuitpython.reset_cause() == "power"
    monkeypatch.setenv("CHROMAWHEEL_RESET_CAUSE", "reset")
    assert _port(monkeypatch, "sim").reset_cause() == "reset"


def test_only_the_port_chooser_reads_the_platform_name():
    """A new port is a module and a board file: nothing else in firmware/ compares names."""
    import re
    root = os.path.join(os.path.dirname(__file__), "..", "..", "firmware")
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path) as f:
                    for number, line in enumerate(f, 1):
                        if re.search(r"\[[\"']platform[\"']\]|\.platform\b", line):
                            found.append("%s:%d" % (os.path.relpath(path, root), number))
    assert [place.split(":")[0] for place in found] == ["ports/__init__.py"], found


class _Records:
    def __init__(self, **records):
        self.records = dict(records)

    def read(self, name):
        return self.records.get(name)

    def write(self, name, data):
        if name == "fail":
            raise OSError("full")
        self.records[name] = data


def test_circuitpython_takes_the_computers_choice_once_per_change(monkeypatch, tmp_path):
    import json
    _circuitpython(monkeypatch)
    cp = _port(monkeypatch, "circuitpython")
    monkeypatch.chdir(tmp_path)
    records = _Records(**{"settings.json": b'{"brightness": 32}'})
    cp.take_computer_choice(records)                        # no file: nothing to take
    assert records.records == {"settings.json": b'{"brightness": 32}'}
    (tmp_path / "settings.json").write_text('{"meldset": "jazz", "chosen": 1}')
    cp.take_computer_choice(records)
    assert json.loads(records.records["settings.json"]) == {"brightness": 32, "meldset": "jazz"}
    records.records["settings.json"] = b'{"meldset": "modes"}'   # then chosen on the wheel
    cp.take_computer_choice(records)                        # the same file: not taken again
    assert json.loads(records.records["settings.json"]) == {"meldset": "modes"}
    (tmp_path / "settings.json").write_text('{"meldset": "jazz", "chosen": 2}')
    cp.take_computer_choice(records)                        # asked again: taken again
    assert json.loads(records.records["settings.json"]) == {"meldset": "jazz"}


def test_circuitpython_keeps_the_choice_an_older_firmware_took(monkeypatch, tmp_path):
    # Before the port modules the fingerprint lived in the settings record (drive_file): an
    # update must not take the drive's old choice again over the wheel's.
    from firmware.nvm_records import fingerprint
    _circuitpython(monkeypatch)
    cp = _port(monkeypatch, "circuitpython")
    monkeypatch.chdir(tmp_path)
    raw = b'{"meldset": "jazz", "chosen": 1}'
    (tmp_path / "settings.json").write_bytes(raw)
    settings = ('{"meldset": "modes", "drive_file": %d}' % fingerprint(raw)).encode()
    records = _Records(**{"settings.json": settings})
    cp.take_computer_choice(records)
    assert records.records["settings.json"] == settings
