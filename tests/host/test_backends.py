"""The hardware backends against fake platform modules: what they call, in what order, and
that their decoding is right. (The real ones need a board; the pure logic they wrap is tested
in tests/core under both interpreters.)"""

import importlib
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
        def __init__(self, pin, n, bpp=3):
            self.pin, self.n, self.bpp, self.buf = pin, n, bpp, bytearray(n * bpp)

        def write(self):
            written.append(bytes(self.buf))

    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel
    fake_modules(monkeypatch, machine=m, neopixel=neopixel)
    monkeypatch.delitem(sys.modules, "hardware.mp_devices", raising=False)
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


def test_irq_encoder_decodes_pin_edges(machine):
    mp = importlib.import_module("hardware.mp_devices")
    FakePin.levels = {17: 1, 18: 1}
    enc = mp.IrqEncoder(ENCODER)
    for a, b in ((1, 0), (0, 0), (0, 1), (1, 1)) * 2:      # two detents clockwise
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
    for a, b in ((1, 0), (0, 0), (0, 1), (1, 1)):
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


def test_rp2_pio_encoder_drains_the_fifo(machine, monkeypatch):
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
    pio = importlib.import_module("hardware.rp2_pio_encoder")
    enc = pio.PioEncoder(ENCODER)
    # The PIO pushes (B << 1) | A: one detent clockwise is A B = 10 00 01 11.
    for a, b in ((1, 0), (0, 0), (0, 1), (1, 1)):
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


def test_esp32_pcnt_encoder(machine):
    class Encoder:
        def __init__(self, unit, a, b, phases, filter_ns):
            assert phases == 1 and filter_ns == 10000
            self.count = 5

        def value(self):
            return self.count

    machine.Encoder = Encoder
    sys.modules.pop("hardware.esp32_encoder", None)
    esp = importlib.import_module("hardware.esp32_encoder")
    enc = esp.PcntEncoder(dict(ENCODER, reverse=True))
    enc._encoder.count = 8
    assert enc.take() == -3


def test_circuitpython_devices(monkeypatch):
    board = types.ModuleType("board")
    board.A0, board.A1, board.A2, board.A3 = "A0", "A1", "A2", "A3"
    written = []

    class DigitalInOut:
        def __init__(self, pin):
            self.pin, self.value, self.pull, self.direction = pin, True, None, None

    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = DigitalInOut
    digitalio.Direction = types.SimpleNamespace(INPUT="in", OUTPUT="out")
    digitalio.Pull = types.SimpleNamespace(UP="up", DOWN="down")

    class IncrementalEncoder:
        def __init__(self, a, b, divisor):
            assert divisor == 4
            self.position = 0

    rotaryio = types.ModuleType("rotaryio")
    rotaryio.IncrementalEncoder = IncrementalEncoder
    npw = types.ModuleType("neopixel_write")
    npw.neopixel_write = lambda pin, buf: written.append((pin.pin, bytes(buf)))
    fake_modules(monkeypatch, board=board, digitalio=digitalio, rotaryio=rotaryio,
                 neopixel_write=npw)
    monkeypatch.delitem(sys.modules, "hardware.cp_devices", raising=False)
    cp = importlib.import_module("hardware.cp_devices")
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
