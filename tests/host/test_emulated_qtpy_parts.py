"""The QT Py's optional parts on real CircuitPython (the stock 10.2.1 UF2) in the emulated RP2040:
the SSD1306 OLED on the STEMMA QT port (SDA1/SCL1, the RP2040's I2C1) and the piezo on TX,
wired as the board file says (host_tools/emulator/rp2040js/parts.cjs). CircuitPython's
busio.I2C wants pull-ups on the lines and probes the OLED's address with an empty write, which
it bit-bangs on the pins (ports/raspberrypi/common-hal/busio/I2C.c); the OLED answers on the
pins, then on the I2C block for the pictures. Time is the emulator's: nothing depends on wall
time."""

import json

import pytest

import running
from host_tools.emulator import emulate
from host_tools.emulator.rp2040 import JS, node_path
from host_tools.sim import simulator
from tests.host.test_emulated_pico import same_display

pytestmark = pytest.mark.usefixtures("emulator", "simulator")

NAME = "qtpy_rp2040"
# A line only the real port prints: with nothing on the STEMMA QT port its I2C has no pull-ups,
# and CircuitPython's busio.I2C refuses it (the simulator's board has an OLED).
NO_DISPLAY = ("display not found (No pull up found on SDA or SCL; check your wiring): running "
              "without it; check its wiring and the board file's \"display\" section")
# The simulator's script at its own pace (turns 20 ms apart): every detent gets its own frame
# on the real port too, and the display follows once the knob rests.
SCRIPT = "cw 3; click; ccw 1; double; long; wait 200"
CLOCK_HZ = 125000000                   # CircuitPython runs the QT Py's RP2040 at 125 MHz


def run(script, parts=True):
    return emulate.run_script(script, board=NAME, parts=parts, progress=lambda line: None)


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


def test_the_oled_shows_the_simulators_text():
    frames, console = run(SCRIPT)
    expected, expected_console = simulator.run_script(SCRIPT)
    assert console == expected_console                   # found: no "display not found"
    assert [f["wheel"] for f in frames] == [f["wheel"] for f in expected]
    same_display(frames, expected)
    assert frames[0]["display"][0] == "C major triad"      # its first row before the turn


def pwmio_hz(hz):
    """The frequency CircuitPython's pwmio gives a note below CLOCK_HZ / 65536 (1907 Hz):
    PWMOut.c counts to 65535 and divides the clock by an 8.4 fixed-point number rounded to
    the nearest 1/16, so a note is off by up to half a divider step (0.65% at G4)."""
    per_div16 = CLOCK_HZ // 4096
    div16 = per_div16 // hz + (per_div16 % hz >= hz // 2)
    return CLOCK_HZ * 16 / (65535 * div16)


def test_a_tune_sounds_on_the_piezo_pin():
    # The click's C minor arpeggio, read off TX: C4, Eb4, G4 for 180 ms each, as the simulator
    # plays them. Each at the frequency pwmio makes of it (263, 311, 391 Hz), and as long
    # within 14 ms: a note ends at the first 10 ms loop tick after its time, and the edges
    # date a tone's start and end to within one PWM period (3.8 ms at C4).
    frames, _ = run("click; wait 1500")
    expected, _ = simulator.run_script("click; wait 1500")
    heard, played = frames[-1]["tones"][:3], expected[-1]["tones"][:3]
    assert [t[0] for t in played] == [262, 311, 392]
    assert [t[0] for t in heard] == [round(pwmio_hz(t[0])) for t in played] == [263, 311, 391]
    assert all(abs(a[1] - b[1]) <= 14 for a, b in zip(heard, played)), heard


def test_a_bare_stemma_port_runs_without_the_oled():
    # Nothing on SDA1/SCL1: no pull-ups, so busio.I2C refuses the bus; the wheel goes on.
    frames, console = run("cw 1; wait 100", parts=False)
    # The display is looked for after the first frame (firmware/services.py, Parts).
    assert [line for line in console if line != NO_DISPLAY] == [
        "meld set default loaded: 60 melds", "C major triad (maj): C E G",
        "Db major triad (maj): Db F Ab"]
    assert console.index(NO_DISPLAY) == 2
    assert [lit(f) for f in frames] == [[0, 4, 7], [1, 5, 8]]
    assert not [f for f in frames if "display" in f or "tones" in f]


# The OLED's I2C target alone, on rp2040js's GPIO: a master bit-bangs the pins through SIO as
# CircuitPython's bitbangio does (open drain: a line is pulled low by enabling its output at 0,
# let go by disabling it), reading SDA at the 9th clock for the ACK.
BIT_BANGED = r"""
const { RP2040 } = require('rp2040js');
const { oled } = require('./parts.cjs');
const mcu = new RP2040();
const [SDA, SCL] = [22, 23];
const [GPIO_OE_SET, GPIO_OE_CLR, FUNCTION_SIO, INPUT_ENABLE] = [0x24, 0x28, 5, 0x40];
const writes = [];
const display = oled(mcu, { bus: 1, address: 60, sda: SDA, scl: SCL }, (e) => writes.push(e));
for (const pin of [SDA, SCL]) {                      // pico-sdk's gpio_set_function(pin, SIO)
  mcu.gpio[pin].padValue |= INPUT_ENABLE;
  mcu.gpio[pin].ctrl = FUNCTION_SIO;
  mcu.gpio[pin].checkForUpdates();
}
const line = (pin, high) => mcu.sio.writeUint32(high ? GPIO_OE_CLR : GPIO_OE_SET, 1 << pin);
function byte(value) {
  for (let bit = 7; bit >= 0; bit--) { line(SDA, (value >> bit) & 1); line(SCL, 1); line(SCL, 0); }
  line(SDA, 1);
  line(SCL, 1);
  const ack = !mcu.gpio[SDA].inputValue;
  line(SCL, 0);
  return ack;
}
function transfer(bytes) {
  line(SDA, 0);                                      // START: SDA falls, SCL high
  line(SCL, 0);
  const acks = bytes.map(byte);
  line(SDA, 0);
  line(SCL, 1);
  line(SDA, 1);                                      // STOP: SDA rises, SCL high
  return acks;
}
const idle = [mcu.gpio[SDA].inputValue, mcu.gpio[SCL].inputValue];
const acks = [transfer([0x78]), transfer([0x7a]), transfer([0x79]), transfer([0x78, 0x00, 0xaf]),
  transfer([0x7a, 0x00, 0xaf])];
display.unplug();
acks.push(transfer([0x78]));
console.log(JSON.stringify({ idle, acks, writes: writes.map((e) => e.split(' ')[2]) }));
"""


def test_the_oled_answers_its_own_address_off_the_pins():
    result = json.loads(running.run([node_path(), "-e", BIT_BANGED], cwd=JS, expect=0).stdout)
    assert result["idle"] == [True, True]                # the breakout's pull-ups
    assert result["acks"] == [
        [True],                                          # 0x3C write: CircuitPython's probe
        [False],                                         # 0x3D: someone else
        [False],                                         # 0x3C read: nothing to read
        [True, True, True],                              # a write: its bytes go to the model
        [False, False, False],                           # not ours: the rest goes unheard
        [False]]                                         # unplugged
    assert result["writes"] == ["00af"]
