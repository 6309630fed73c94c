"""The LED ring: 12 colours in wheel order (C first) in, one wire buffer out, for rings of 12,
16, 24 or 60 LEDs (any multiple of 12 up to MAX_LEDS, or 16): sector_leds() is the one mapping
from wheel sectors to LEDs, used here, by the simulator's and the page's frames, the wiring
picture and the faceplate.

Modes paint `frame` (12 x R, G, B, perceptual 0-255, sector 0 = C). show() then, with no
allocation:
1. gamma-corrects each channel through a lookup table and applies the global brightness
   (separately, so dim optional notes keep their hue; a lit channel never rounds to off);
2. estimates the frame's current and scales it down to the board's budget, the way WLED's
   automatic brightness limiter does;
3. maps wheel sectors to physical LEDs (sector_leds: the board's LED at C, direction and LED
   count) in the board's colour order (GRB, RGB, GRBW, ...);
4. writes only when the wire bytes changed, and never sooner than the latch time after the
   previous write.
turn() writes the last frame turned by whole sectors: the knob's answer in the explorer,
where a turn moves every colour with the root, with no frame to paint or prepare first.
light() writes white sectors from a 12-bit mask, changing only the sectors that differ from
the mask it wrote last: the notes a keyboard holds, in listen.
The output is any object with write(buf): MicroPython neopixel, CircuitPython neopixel_write,
or the simulator.
"""

from array import array

from hardware.clock import ticks_diff, ticks_since, ticks_us

SECTORS = 12
# Bits set in each 6-bit number: a 12-bit mask's count in two look-ups, nothing allocated.
_BITS6 = bytes(bin(n).count("1") for n in range(64))
# A single bit's position from its value mod 13 (2 is a primitive root mod 13, so 1, 2, 4 ...
# 2048 leave 12 different remainders): the sectors a mask changes, without testing all 12.
_WHITE = b"\xff\xff\xff"       # a sector's frame bytes in light()
_DARK = bytes(3)
_BIT_AT = bytearray(13)
for _k in range(SECTORS):
    _BIT_AT[(1 << _k) % 13] = _k
MAX_LEDS = 96


def supported_count(count):
    """A ring the wheel can use: a multiple of 12 LEDs (count/12 a sector), or 16."""
    return count == 16 or (count % SECTORS == 0 and SECTORS <= count <= MAX_LEDS)


def sector_leds(config):
    """For each wheel sector, C first, the LEDs that show it (lists of LED indexes). With a
    multiple of 12 LEDs, each sector has count/12 of them in a row from the LED at C on, in the
    ring's direction; with 16, the LED nearest the sector's angle, and four stay dark."""
    count = config["count"]
    step = 1 if config["direction"] == "cw" else -1
    per = count // SECTORS
    rows = []
    for sector in range(SECTORS):
        if count % SECTORS == 0:
            offsets = range(sector * per, (sector + 1) * per)
        else:
            offsets = ((sector * count * 2 + SECTORS) // (2 * SECTORS),)   # nearest: rounded
        rows.append([(config["led_at_c"] + step * offset) % count for offset in offsets])
    return rows


def led_angle(config, led):
    """Where LED `led` sits, in degrees clockwise from the top, the LED at C at 0."""
    step = 1 if config["direction"] == "cw" else -1
    return (step * (led - config["led_at_c"]) % config["count"]) * 360.0 / config["count"]


def sector_angle(config, sector):
    """The middle of a sector's LEDs, in degrees clockwise from the top (where its label
    goes on a faceplate)."""
    leds = sector_leds(config)[sector]
    first = led_angle(config, leds[0])
    return first + (len(leds) - 1) * 180.0 / config["count"]


# gamma_table(2.8), the board files' gamma, as its steps: entry i is entry i - 1 plus 0 to 3,
# two bits a step, four steps a byte, the lowest first (entry 0 is 0). Worked out, it is 256
# float powers, about 31 ms of a Pico's power-up; the steps are a loop of integer additions,
# summed straight into the ring's levels, so no table of it is kept either. (Written out
# whole, the 256 bytes tipped the simulator's 124 KB small-heap run: c14345a.)
# tests/core/test_ring.py holds the two equal.
_GAMMA_2_8_STEPS = (
    b"\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x04\x00\x04\x00\x01\x04"
    b"\x04\x04\x04\x41\x10\x44\x10\x11\x11\x11\x11\x45\x14\x45\x45\x45"
    b"\x15\x55\x55\x15\x65\x55\x55\x59\x65\x65\x59\x96\x99\x99\x99\xa6"
    b"\x69\x6a\xaa\xa6\xaa\xaa\xea\xaa\xae\xae\xeb\xee\xee\xbe\xef\xfb")


def gamma_table(gamma):
    table = bytearray(256)
    if gamma == 2.8:
        _gamma_2_8_levels(table, 255)
        return table
    for i in range(256):
        table[i] = int(255 * (i / 255) ** gamma + 0.5)
    return table


def _levels(levels, gamma, level):
    """levels[i]: channel value i through the `gamma` table at brightness `level` (1-255); a
    lit channel never rounds to off."""
    for i in range(256):
        value = gamma[i]
        levels[i] = value * level // 255 or 1 if value else 0


def _gamma_2_8_levels(levels, level):
    """_levels() of gamma 2.8's table, summed from its steps as it goes."""
    at = value = 0
    for steps in _GAMMA_2_8_STEPS:
        for _ in range(4):
            value += steps & 3
            levels[at] = value * level // 255 or 1 if value else 0
            steps >>= 2
            at += 1


def _turns(size, step):
    """A buffer for `size` bytes twice over, and its SECTORS windows of `size` bytes, one a
    turn of `step` bytes."""
    loop = bytearray(2 * size)
    view = memoryview(loop)
    return loop, [view[i * step:i * step + size] for i in range(SECTORS)]


class Ring:
    def __init__(self, config, output):
        order = config["order"]
        self.bpp = len(order)
        # Where R, G and B go inside one LED's bytes (a table, so show() builds no tuples).
        self._offsets = bytes((order.index("R"), order.index("G"), order.index("B")))
        self._w = order.find("W")
        count = config["count"]
        # Wheel sector -> its LEDs, `_per` a sector, flat: sector s has _leds[s * _per:][:_per].
        rows = sector_leds(config)
        self._per = len(rows[0])
        self._leds = bytearray(SECTORS * self._per)
        for sector in range(SECTORS):
            for j in range(self._per):
                self._leds[sector * self._per + j] = rows[sector][j]
        gamma = config.get("gamma", 2.8)
        # Gamma 2.8's table is its steps (_GAMMA_2_8_STEPS); another gamma's is worked out.
        self._gamma = None if gamma == 2.8 else gamma_table(gamma)
        self._levels = bytearray(256)   # gamma, then the brightness: a channel's wire value
        self._brightness = None
        self._max_ma = config["max_ma"]
        self._ma_per_channel = config["ma_per_channel"]
        self._idle_ma = config["idle_ma_per_led"] * count
        self._min_gap_us = config.get("min_write_gap_us", 280)
        self._output = output
        self.frame = bytearray(3 * SECTORS)
        self.brightness = 255
        self._wire = bytearray(count * self.bpp)
        self._sent = bytearray(count * self.bpp)
        # Every lit channel of every LED: the wire byte it is (_wire_at) and the frame byte
        # it shows (_frame_at), so _prepare is one flat loop. A W channel is never lit: it
        # stays 0 in both buffers.
        channels = 3 * SECTORS * self._per
        self._wire_at = array("H", bytes(2 * channels))
        self._frame_at = bytearray(channels)
        k = 0
        for sector in range(SECTORS):
            for channel in range(3):
                for j in range(self._per):
                    self._wire_at[k] = self._leds[sector * self._per + j] * self.bpp + \
                        self._offsets[channel]
                    self._frame_at[k] = 3 * sector + channel
                    k += 1
        self._written_at = None
        self.writes = 0
        # A turn of one sector clockwise moves the wire this many bytes (the sector's LEDs
        # are a run in the ring's direction), or 0 where sectors are not runs (16 LEDs).
        per = self._per if count % SECTORS == 0 else 0
        self._turn_bytes = per * self.bpp * (1 if config["direction"] == "cw" else -1)
        # The wire bytes written, twice over: every turn of them is one of these windows,
        # made once, so a turn copies bytes and allocates nothing.
        self._wire_turns = _turns(len(self._wire), per * self.bpp) if per else None
        self._frame_before = bytearray(3 * SECTORS)
        self._lit = -1              # the mask light() last wrote, or -1: show() or turn() did
        self.estimated_ma = 0       # of the last frame prepared, after limiting
        self.limited = False        # the last frame was scaled down to the budget

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, level):
        """The global brightness (1-255), folded into the level table once, not per frame;
        a lit channel never rounds to off."""
        if level == self._brightness:
            return
        self._brightness = level
        if self._gamma is None:
            _gamma_2_8_levels(self._levels, level)
        else:
            _levels(self._levels, self._gamma, level)

    def _prepare(self):
        """Frame -> wire bytes, with gamma, brightness and the current budget: one table
        look-up a channel of every LED (each LED counts in the current)."""
        frame = self.frame
        wire = self._wire
        levels = self._levels
        wire_at = self._wire_at
        frame_at = self._frame_at
        total = 0
        for k in range(len(frame_at)):
            value = levels[frame[frame_at[k]]]
            wire[wire_at[k]] = value
            total += value
        # Current: each channel draws up to ma_per_channel at 255, plus every LED's idle draw.
        ma = self._idle_ma + total * self._ma_per_channel // 255
        self.limited = ma > self._max_ma and total > 0
        if self.limited:
            room = self._max_ma - self._idle_ma
            scale = room * 65536 // (ma - self._idle_ma) if room > 0 else 0
            total = 0
            for i in range(len(wire)):
                if wire[i]:
                    wire[i] = (wire[i] * scale) >> 16
                    total += wire[i]
            ma = self._idle_ma + total * self._ma_per_channel // 255
        self.estimated_ma = ma

    def turn(self, sectors, now_us):
        """Turn the frame last written `sectors` sectors clockwise (each sector's colours
        moved to the sector `sectors` on) and write it, without preparing it: `frame` and the
        wire become exactly what painting the turned frame and show() give (the caller sees
        that `frame` is the one last shown). False when it cannot (nothing written yet, a
        16-LED ring, the latch time not yet passed): then nothing changed."""
        if not self._turn_bytes or self._written_at is None:
            return False
        # The latch time: ticks_since worked out here, not called (a call is about 15 us on
        # the Pico, which the detent waits for; a write half a period ago is long ago).
        passed = ticks_diff(now_us, self._written_at)
        if 0 <= passed < self._min_gap_us:
            return False
        # Sector s shows what sector s - sectors showed: the window that starts there.
        self._turn_wire(-sectors % SECTORS if self._turn_bytes > 0 else sectors % SECTORS)
        self._output.write(self._wire)
        self._turn_frame(sectors, now_us)       # after the write: the LEDs do not wait for it
        return True

    # turn()'s steps up to the write each keep their locals and stack within 11 words, which
    # MicroPython keeps on the C stack (py/objfun.c, VM_MAX_STATE_ON_STACK): a bigger frame is
    # allocated on the heap at every call, a search through the heap whose length depends on
    # its garbage, which the detent waited for.

    def _turn_wire(self, back):
        """The wire = the bytes last sent, turned: byte i of it is byte (i + back * step) of
        them, round the end."""
        loop, windows = self._wire_turns
        size = len(self._wire)
        loop[0:size] = self._sent
        loop[size:size + size] = self._sent
        self._wire[0:size] = windows[back]

    def _turn_frame(self, sectors, now_us):
        """The frame turned as the wire was, and the write noted."""
        before = self._frame_before
        before[0:3 * SECTORS] = self.frame
        frame = self.frame
        to = 3 * (sectors % SECTORS)
        for i in range(3 * SECTORS):
            frame[to] = before[i]
            to = to + 1 if to < 3 * SECTORS - 1 else 0
        self._written_at = now_us
        self._wire, self._sent = self._sent, self._wire
        self._lit = -1
        self.writes += 1

    def light(self, mask, now_us):
        """The frame becomes full white on the sectors in `mask` (bit 0: C) and off on the
        others, written at once (the notes a keyboard holds: firmware/modes/listen.py). Its
        wire bytes are exactly show()'s for that frame; from a frame light() wrote, only the
        sectors that changed are touched. False when it cannot (nothing written yet, the
        latch time not passed, or a frame over the current budget, which show() scales):
        then nothing changed."""
        if self._written_at is None:
            return False
        passed = ticks_diff(now_us, self._written_at)      # as in turn()
        if 0 <= passed < self._min_gap_us:
            return False
        ma = self._light_ma(mask)
        if ma < 0:
            return False
        self._light_wire(mask)
        self._output.write(self._wire)
        self._written_at = now_us
        self._wire, self._sent = self._sent, self._wire
        self._lit = mask
        self.estimated_ma = ma
        self.limited = False
        self.writes += 1
        return True

    # light()'s steps keep their frames within 11 words, as turn()'s do: a MIDI note's way to
    # the LEDs (tests/host/test_call_frames.py).

    def _light_ma(self, mask):
        """light()'s frame's current estimate, or -1 when it is over the budget (show() scales
        such a frame)."""
        total = (_BITS6[mask & 63] + _BITS6[mask >> 6]) * 3 * self._per * self._levels[255]
        ma = self._idle_ma + total * self._ma_per_channel // 255
        return -1 if ma > self._max_ma and total else ma

    def _light_wire(self, mask):
        """The wire and the frame lit as `mask` says: where light() wrote the bytes last sent,
        from them, only the sectors that changed."""
        if self._lit < 0:
            changed = 0xFFF
        else:
            changed = mask ^ self._lit
            self._wire[0:len(self._wire)] = self._sent
        while changed:
            bit = changed & -changed
            changed ^= bit
            self._light_sector(_BIT_AT[bit % 13], self._levels[255] if mask & bit else 0)

    def _light_sector(self, sector, value):
        """A sector full white (`value`: its wire value) or off."""
        k = 3 * sector
        self.frame[k:k + 3] = _WHITE if value else _DARK
        wire_at = self._wire_at
        k = 3 * self._per * sector
        end = k + 3 * self._per
        while k < end:
            self._wire[wire_at[k]] = value
            k += 1

    def show(self, now_us=None):
        """Prepare the frame and write it if it changed. True when the LEDs show it (written
        now, or nothing changed); False when the latch time held it back: call again later."""
        self._prepare()
        if self._written_at is not None and self._wire == self._sent:
            return True
        now = ticks_us() if now_us is None else now_us
        # ticks_since: after minutes without a change (past half the 2**30 us period) the last
        # write is long ago, not in the future.
        if self._written_at is not None and ticks_since(now, self._written_at) < self._min_gap_us:
            return False
        self._output.write(self._wire)
        self._written_at = now
        # Swap instead of copying: the next _prepare() rewrites every byte of _wire.
        self._wire, self._sent = self._sent, self._wire
        self._lit = -1
        self.writes += 1
        return True
