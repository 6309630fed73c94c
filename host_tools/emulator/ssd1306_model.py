"""An SSD1306 as the I2C bus sees it: the fake at the board boundary for the display tests
and the display benchmark.
Runs under CPython and MicroPython. It decodes what a driver sends (control byte 0x80: one
command; 0x00: commands; 0x40: display data) into the chip's 128x64 display RAM, with
horizontal addressing inside the column/page window, and keeps the mirror settings."""

# Commands followed by this many argument bytes.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1,
         0xD9: 1, 0xDA: 1, 0xDB: 1}


class Ssd1306Chip:
    def __init__(self, address=0x3C, width=128, pages=8):
        self.address = address
        self.width = width
        self.pages = pages
        self.ram = bytearray(width * pages)
        self.commands = []                 # (command, args) in order
        self.data_bytes = 0                # display data bytes received
        self.transfers = 0
        self.data_transfers = 0
        self.col0, self.col1, self.page0, self.page1 = 0, width - 1, 0, pages - 1
        self.col, self.page = 0, 0
        self.seg_remap = 0
        self.com_reversed = 0
        self.on = False
        self._pending = []                 # a command still waiting for its argument bytes

    # -- the bus side --
    def write(self, address, data):
        if address != self.address:
            raise OSError(19)              # ENODEV: nothing answers there
        self.transfers += 1
        data = bytes(data)
        if not data:
            return                         # a probe
        control = data[0]
        if control == 0x40:
            self.data_transfers += 1
            assert not self._pending, "display data while a command waits for its arguments"
            for byte in data[1:]:
                self._data(byte)
        elif control in (0x80, 0x00):
            self._command_bytes(list(data[1:]))
        else:
            raise ValueError("control byte 0x%02x" % control)

    # -- the chip side --
    def _command_bytes(self, stream):
        # A driver may send a command's argument bytes in later transfers (one 0x80 pair a
        # byte): the chip keeps parsing across them.
        for byte in stream:
            self._pending.append(byte)
            if len(self._pending) == 1 + _ARGS.get(self._pending[0], 0):
                self._command(self._pending[0], self._pending[1:])
                self._pending = []

    def _command(self, cmd, args):
        self.commands.append((cmd, args))
        if cmd == 0x21:
            self.col0, self.col1 = args
            self.col = self.col0
        elif cmd == 0x22:
            self.page0, self.page1 = args
            self.page = self.page0
        elif cmd in (0xA0, 0xA1):
            self.seg_remap = cmd & 1
        elif cmd in (0xC0, 0xC8):
            self.com_reversed = 1 if cmd == 0xC8 else 0
        elif cmd in (0xAE, 0xAF):
            self.on = cmd == 0xAF

    def _data(self, byte):
        self.ram[self.page * self.width + self.col] = byte
        self.data_bytes += 1
        if self.col < self.col1:
            self.col += 1
        else:
            self.col = self.col0
            self.page = self.page + 1 if self.page < self.page1 else self.page0

    def rotated_180(self):
        """The picture turned by 180 degrees against the driver's default (both mirrors off)."""
        return self.seg_remap == 0 and self.com_reversed == 0


# The buses a driver reaches the chip through, faked at the board boundary (each keeps its
# setup arguments for the tests to check).

class MicroPythonPin:
    def __init__(self, n, *args):
        self.n = n


def micropython_i2c(chip):
    """machine.I2C as micropython-lib's ssd1306 uses it (writeto, writevto), wired to chip."""
    class I2C:
        def __init__(self, bus, scl=None, sda=None, freq=None):
            self.setup = (bus, scl.n, sda.n, freq)

        def writeto(self, addr, buf):
            chip.write(addr, buf)

        def writevto(self, addr, bufs):
            chip.write(addr, b"".join(bytes(b) for b in bufs))
    return I2C


def circuitpython_i2c(chip):
    """busio.I2C as Adafruit's I2CDevice uses it (lock, writeto with start/end, a probe that
    reads back from an address where nothing answers), wired to chip; chip None is a bus with
    nothing plugged in."""
    class I2C:
        def __init__(self, scl, sda, frequency=100000):
            if chip is None:
                # CircuitPython's RP2040 busio.I2C checks for pull-ups first, and a bare bus
                # has none (ports/raspberrypi/common-hal/busio/I2C.c).
                raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
            self.setup = (scl, sda, frequency)

        def try_lock(self):
            return True

        def unlock(self):
            pass

        def writeto(self, address, buf, *, start=0, end=None):
            chip.write(address, bytes(buf)[start:end])

        def readfrom_into(self, address, buf, *, start=0, end=None):
            raise OSError(19)              # ENODEV
    return I2C
