"""MicroPython drivers for the optional parts (imported only when the board file has them):
the SSD1306 OLED through micropython-lib's `ssd1306`, the piezo through machine.PWM."""

import machine

from hardware.oled import set_window

# The two SSD1306 mirrors that turn the picture by 180 degrees (micropython-lib's driver of
# this version has no rotate()).
_SEG_REMAP_MIRRORED = 0xA0
_COM_SCAN_UP = 0xC0


class Ssd1306Panel:
    """An SSD1306 OLED on hardware I2C through micropython-lib's `ssd1306` driver (installed
    in lib/ by deploy). Writes only the pages asked for, straight from the driver's buffer."""

    def __init__(self, config):
        import ssd1306
        i2c = machine.I2C(config["i2c"], scl=machine.Pin(config["scl"]),
                          sda=machine.Pin(config["sda"]), freq=config["freq"])
        self.width = config["width"]
        self._oled = ssd1306.SSD1306_I2C(self.width, config["height"], i2c, config["address"])
        if config["rotation"] == 180:
            self._oled.write_cmd(_SEG_REMAP_MIRRORED)
            self._oled.write_cmd(_COM_SCAN_UP)
        self.buffer = self._oled.buffer
        self._view = memoryview(self.buffer)

    def write_pages(self, first, last):
        set_window(self._oled.write_cmd, self.width, first, last)
        self._oled.write_data(self._view[first * self.width:(last + 1) * self.width])


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
