"""CircuitPython drivers for the optional parts (imported only when the board file has them):
the SSD1306 OLED through Adafruit's `adafruit_ssd1306`, the piezo through pwmio; USB MIDI
(usb_midi) and serial MIDI on the jacks (busio.UART), imported once MIDI starts."""

from hardware.cp_devices import _pin
from hardware.oled import set_window

_DATA = 0x40                  # the control byte that starts display data on I2C


class Ssd1306Panel:
    """An SSD1306 OLED through Adafruit's `adafruit_ssd1306` (lib/ on CIRCUITPY). Its I2C
    buffer keeps one control byte before the pixels; a partial write borrows the byte just
    before the first page for that, so nothing is copied."""

    def __init__(self, config):
        import adafruit_ssd1306
        import busio
        i2c = busio.I2C(_pin(config["scl"]), _pin(config["sda"]), frequency=config["freq"])
        self.width = config["width"]
        self._oled = adafruit_ssd1306.SSD1306_I2C(self.width, config["height"], i2c,
                                                  addr=config["address"])
        if config["rotation"] == 180:
            self._oled.rotate(False)
        self._raw = self._oled.buffer                  # control byte + pixels
        self.buffer = memoryview(self._raw)[1:]

    def write_pages(self, first, last):
        oled = self._oled
        set_window(oled.write_cmd, self.width, first, last)
        start = first * self.width                     # the byte before page `first`
        end = (last + 1) * self.width + 1
        raw = self._raw
        saved = raw[start]
        raw[start] = _DATA
        try:
            # circuitpython-stubs 10.3.1 types the native I2CDevice.__exit__ with no
            # arguments; the C code (shared-bindings/adafruit_bus_device) takes them.
            with oled.i2c_device:  # type: ignore[call-arg]
                oled.i2c_device.write(raw, start=start, end=end)
        finally:
            raw[start] = saved


class PwmTone:
    """A passive piezo on a PWM pin (pwmio, with a frequency that can change)."""

    def __init__(self, config):
        import pwmio
        self._pwm = pwmio.PWMOut(_pin(config["pin"]), duty_cycle=0, frequency=440,
                                 variable_frequency=True)

    def tone(self, freq, duty):
        self._pwm.frequency = freq
        self._pwm.duty_cycle = duty

    def off(self):
        self._pwm.duty_cycle = 0


class UsbMidiPorts:
    """CircuitPython's own USB MIDI (usb_midi, named in boot.py): raw MIDI bytes both ways.
    PortIn.readinto returns what tinyusb holds, without waiting."""

    def __init__(self):
        import usb_midi
        ins = [p for p in usb_midi.ports if isinstance(p, usb_midi.PortIn)]
        outs = [p for p in usb_midi.ports if isinstance(p, usb_midi.PortOut)]
        if not ins or not outs:
            raise OSError("usb_midi has no ports (USB MIDI disabled in boot.py?)")
        self._in = ins[0]
        self._out = outs[0]
        self.on_receive = None        # rotaryio-style: nothing wakes Python, the loop polls

    def readinto(self, buf):
        return self._in.readinto(buf) or 0

    def waiting(self):
        """usb_midi says nothing of what waits: the loop reads it at each pass anyway."""
        return False

    def write(self, buf, count):
        self._out.write(memoryview(buf)[:count])


class UartMidi:
    """Serial MIDI on the jacks, on CircuitPython's busio.UART (the UART its pins carry, as the
    board file's "midi" names them): raw MIDI bytes both ways at 31,250 baud. Its receive
    interrupt fills a ring buffer (ports/raspberrypi/common-hal/busio/UART.c, 10.2.1) that
    readinto() empties without waiting (timeout 0); write() puts the bytes into the 32-byte
    FIFO, waiting only for room there. Nothing wakes Python: the loop polls (waiting())."""

    BAUD = 31250
    RX_BUFFER = 1024

    def __init__(self, config):
        import busio
        self.uart = busio.UART(_pin(config["tx"]), _pin(config["rx"]), baudrate=self.BAUD,
                               bits=8, parity=None, stop=1, timeout=0,
                               receiver_buffer_size=self.RX_BUFFER)
        self.on_receive = None        # as usb_midi: the loop polls
        self.broadcast = False        # OUT to one wheel's IN: a ring, not a bus

    def readinto(self, buf):
        # With timeout 0 it takes what the ring buffer holds and waits for nothing more
        # (common_hal_busio_uart_read); None when it holds nothing.
        return self.uart.readinto(buf) or 0

    def write(self, buf, count):
        # (the whole buffer as it is; a part through a memoryview, at event time: the stubs
        # know no write(buf, count))
        self.uart.write(buf if count == len(buf) else memoryview(buf)[:count])

    def waiting(self):
        return self.uart.in_waiting
