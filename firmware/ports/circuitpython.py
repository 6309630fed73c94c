"""CircuitPython (the QT Py RP2040 build): neopixel_write, rotaryio, digitalio, busio, pwmio.
Records go to microcontroller.nvm, never to the CIRCUITPY drive (firmware/records.py), and
settings.json on the drive is what the computer wrote there (`meldset flash --drive`)."""

import json

import hardware.clock
from hardware import cp_devices
from hardware.ring import Ring

from firmware.devices import REST_PERIOD_MS, Hardware
from firmware.records import RECORD_KEYS, FileRecords, read_recovering

DRIVE_SETTINGS = "settings.json"
DRIVE_CHOICE = "drive_choice"       # the record of the drive file's fingerprint last taken
# rotaryio counts in C but wakes no Python code, and time.sleep cannot be cut short by a knob
# edge: the loop polls while the wheel is in use (a slow turn's detents come a few hundred ms
# apart), and once it has rested IDLE_AFTER_MS it sleeps IDLE_SLEEP_S between passes, the CPU
# halted (WFI) meanwhile: a detent from rest waits at most that long for its pass. 2 ms is the
# shortest sleep that halts the CPU: 10.2.1's mp_hal_delay_ms (supervisor/shared/tick.c) idles
# only for whole 1/1024 s ticks left after the background tasks, and busy-waits a 1 ms sleep
# through. At 2 ms the CPU still ran a third of the time: once the wheel rests deeply
# (firmware/devices.py: DEEP_REST_MS), a pass comes every REST_PERIOD_MS, and between them the
# loop only reads the knob's count and the button after each sleep (run_loop's watch).
POLL_PERIOD_MS = 0
IDLE_AFTER_MS = 500
IDLE_SLEEP_S = 0.002


def build(board):
    ring = Ring(board["ring"], cp_devices.NeoPixelOutput(board["ring"]))
    nvm = cp_devices.nvm()
    if nvm is None:
        print("no microcontroller.nvm on this board: settings are kept on the drive")
        records = FileRecords()
    else:
        records = NvmRecordStore(nvm)
        try:
            take_computer_choice(records)
        except Exception as err:         # a choice not taken never stops the boot
            print("the computer's choice of set was not taken: %s" % err)
    hw = Hardware(board, ring, cp_devices.RotaryEncoder(board["encoder"]),
                  cp_devices.PinButton(board["button"]), hardware.clock, records=records)
    hw.period_ms = POLL_PERIOD_MS       # the loop's own pause: run_loop
    return hw


def midi_port(hw):
    """usb_midi's ports, enumerated by CircuitPython itself (named in boot.py)."""
    from hardware.cp_parts import UsbMidiPorts
    return UsbMidiPorts()


def jacks_port(hw):
    """Serial MIDI on the board's jacks (busio.UART on its board file's "midi" pins)."""
    from hardware.cp_parts import UartMidi
    return UartMidi(hw.board["midi"])


def run_loop(loop):
    """The loop (firmware/loop.py) without asyncio. CircuitPython's asyncio (Adafruit's)
    allocates 33 bytes at every pause of a task (measured on the emulated QT Py, 10.2.1): a
    loop that polls makes tens of KB of garbage a second, and each collection stops it for
    about 20 ms, knob or not. Not importing it also saves about 0.2 s of the boot.

    Between passes it polls (no sleep) while the wheel is in use or MIDI in listens
    (usb_midi wakes nothing either: a note would wait out the sleep), sleeps once the wheel
    has rested (IDLE_AFTER_MS), and once it rests deeply watches the knob, the button and the
    table link's MIDI ports between those sleeps instead of running a pass (watch): a message
    for the link waits no longer than a sleep (the UART fills its buffer meanwhile)."""
    import time
    clock = loop.hw.clock
    encoder = loop.hw.encoder
    button = loop.hw.button

    def watch(ms):
        """Up to `ms` in IDLE_SLEEP_S sleeps, over as soon as the knob has a detent or the
        button changes: a read of each (tens of us) between sleeps, not a pass (about 1 ms),
        so the first detent from a deep rest waits no longer than from a rest."""
        start = clock.ticks_ms()
        down = button.pressed()
        midi = loop.app.midi if loop.app.link is not None else None
        while clock.ticks_diff(clock.ticks_ms(), start) < ms:
            time.sleep(IDLE_SLEEP_S)
            if encoder.moved() or button.pressed() != down or \
                    (midi is not None and midi.waiting()):
                return

    def pause(ms):
        if ms:                                   # a frame the frame rate holds back
            time.sleep(ms / 1000)
            return
        now = clock.ticks_ms()
        if loop.quiet_ms(now) < IDLE_AFTER_MS or loop.app.held_notes() is not None:
            time.sleep(0)       # returns at once (mp_hal_delay_ms(0)): the poll's yield
        elif loop.rests_deeply(now):
            watch(REST_PERIOD_MS)
        else:
            time.sleep(IDLE_SLEEP_S)
    run_plain(loop, pause)


def run_plain(loop, pause):
    """The loop's calls with no asyncio, `pause(ms)` between passes."""
    loop.begin()
    while loop.step():
        pause(loop.pause_ms())
    loop.end()


class NvmRecordStore:
    """The records in microcontroller.nvm: the firmware writes nothing on the drive in normal
    running, and the log goes to the console only."""

    def __init__(self, nvm):
        from firmware.nvm_records import NvmRecords
        self._nvm = NvmRecords(nvm, RECORD_KEYS)

    def read(self, name):
        """The nvm's record, else (after an update from a firmware that kept them on the
        drive) the file."""
        data = self._nvm.read(name)
        return data if data is not None else read_recovering(name)

    def write(self, name, data):
        self._nvm.write(name, data)

    def log(self, line):
        print(line)


def take_computer_choice(records):
    """The set the computer asked for in the drive's settings.json goes into the settings
    record, once each time that file changes (the host counts its choices, so asking again
    changes it): a set chosen later on the wheel stays chosen."""
    from firmware.nvm_records import fingerprint
    from firmware.settings import SETTINGS_PATH, is_set_name
    raw = read_recovering(DRIVE_SETTINGS)
    seen = str(fingerprint(raw) if raw else 0).encode()
    taken = records.read(DRIVE_CHOICE)
    if taken is None:        # firmware before the port modules kept it in the settings record
        taken = str(_json_object(records.read(SETTINGS_PATH)).get("drive_file", 0)).encode()
    if seen == taken:
        return
    try:
        wanted = json.loads(raw).get("meldset") if raw else None
    except (ValueError, AttributeError):
        wanted = None
    if wanted is not None and is_set_name(wanted):
        settings = _json_object(records.read(SETTINGS_PATH))
        settings["meldset"] = wanted
        records.write(SETTINGS_PATH, json.dumps(settings).encode())
    records.write(DRIVE_CHOICE, seen)


def _json_object(raw):
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


SSD1306_ADDRESSES = (0x3C, 0x3D)       # the two an SSD1306 answers at (its jumper)


def i2c_scan(config):
    """The display's bus probed in software, so the I2C block is untouched for the driver's
    bus: which of an SSD1306's two addresses answer (a whole scan of 112 addresses took about
    12 ms of the emulated QT Py's power-up). A bus without pull-ups (a bare port) is left for
    that bus to name, as busio checks them."""
    # Imported by name: every port module is type-checked against every port's stubs, and
    # these three are CircuitPython's alone.
    pins, digitalio = __import__("board"), __import__("digitalio")
    for name in (config["scl"], config["sda"]):
        line = digitalio.DigitalInOut(getattr(pins, name))
        line.direction = digitalio.Direction.INPUT
        line.pull = digitalio.Pull.DOWN
        pulled_up = line.value
        line.deinit()
        if not pulled_up:
            return ()
    try:
        bitbangio = __import__("bitbangio")
    except ImportError:
        return ()
    i2c = bitbangio.I2C(getattr(pins, config["scl"]), getattr(pins, config["sda"]))
    try:
        while not i2c.try_lock():
            pass
        return tuple(address for address in SSD1306_ADDRESSES if _answers(i2c, address))
    finally:
        i2c.deinit()


def _answers(i2c, address):
    """An empty write: bitbangio's probe (its scan's), ENODEV where nothing acknowledges."""
    try:
        i2c.writeto(address, b"")
    except OSError:
        return False
    return True


def display_panel(config, hw):
    from hardware import cp_parts
    return cp_parts.Ssd1306Panel(config)


def tone_output(config, hw):
    from hardware import cp_parts
    return cp_parts.PwmTone(config)


def watchdog():
    return cp_devices.Watchdog()


def reset_cause():
    import microcontroller
    reason = microcontroller.cpu.reset_reason
    return "power" if reason == microcontroller.ResetReason.POWER_ON else "reset"


def restart():
    import microcontroller
    microcontroller.reset()
