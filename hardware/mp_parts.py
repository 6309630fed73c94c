"""MicroPython drivers for the optional parts (imported only when the board file has them):
the SSD1306 OLED on machine.I2C, the piezo through machine.PWM."""

import machine

from hardware.oled import set_window

# The two SSD1306 mirrors that turn the picture by 180 degrees.
_SEG_REMAP_MIRRORED = 0xA0
_COM_SCAN_UP = 0xC0


class Ssd1306Panel:
    """An SSD1306 OLED on hardware I2C: set up, cleared, then only the pages asked for are
    written, straight from `buffer` (pages of `width` bytes, a byte a column of 8 pixels)."""

    def __init__(self, config):
        self.i2c = machine.I2C(config["i2c"], scl=machine.Pin(config["scl"]),
                               sda=machine.Pin(config["sda"]), freq=config["freq"])
        self._address = config["address"]
        self._command = bytearray(2)
        self._data = [b"\x40", None]           # the data prefix (Co=0, D/C#=1), the bytes
        self.width = width = config["width"]
        height = config["height"]
        # The set-up micropython-lib's `ssd1306` driver sends: display off, horizontal
        # addressing, start line 0, column 127 on SEG0, multiplex ratio, COM scan down, offset
        # 0, COM pins, clock, pre-charge, VCOM level, full contrast, output from RAM, not
        # inverted, charge pump on, display on. Sent here, not through that driver: its module
        # (graphics on a FrameBuffer, an SPI class, a global a register) held about 2.8 KB of
        # a Pico's heap for this and two writes.
        for byte in (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, height - 1, 0xC8, 0xD3, 0x00, 0xDA,
                     0x02 if width > 2 * height else 0x12, 0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30,
                     0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF):
            self.write_cmd(byte)
        self.buffer = bytearray(height // 8 * width)
        self._view = memoryview(self.buffer)
        self.write_pages(0, height // 8 - 1)       # a blank panel, whatever it held
        if config["rotation"] == 180:
            self.write_cmd(_SEG_REMAP_MIRRORED)
            self.write_cmd(_COM_SCAN_UP)

    def write_cmd(self, byte):
        self._command[0] = 0x80                  # Co=1, D/C#=0: one command byte follows
        self._command[1] = byte
        self.i2c.writeto(self._address, self._command)

    def write_pages(self, first, last):
        set_window(self.write_cmd, self.width, first, last)
        self._data[1] = self._view[first * self.width:(last + 1) * self.width]
        self.i2c.writevto(self._address, self._data)


class PwmTone:
    """A passive piezo on a PWM pin: the frequency is the pitch, the duty the loudness."""

    def __init__(self, config):
        # Silent from the start: a bare PWM(pin) on ESP32 runs at 5 kHz, 50 % duty
        # (ports/esp32/machine_pwm.c) until the next line, a click at every boot.
        self._pwm = machine.PWM(machine.Pin(config["pin"]), freq=440, duty_u16=0)

    def tone(self, freq, duty):
        self._pwm.freq(freq)
        self._pwm.duty_u16(duty)

    def off(self):
        self._pwm.duty_u16(0)
