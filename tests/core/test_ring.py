"""The ring pipeline: mapping, colour order, gamma, brightness, current budget, writes."""

from hardware.ring import Ring, gamma_table


class Capture:
    def __init__(self):
        self.writes = []

    def write(self, buf):
        self.writes.append(bytes(buf))


def make(**changes):
    config = {"count": 12, "led_at_c": 0, "direction": "cw", "order": "GRB", "max_ma": 400,
              "ma_per_channel": 20, "idle_ma_per_led": 1, "gamma": 2.8, "min_write_gap_us": 280}
    for key in changes:
        config[key] = changes[key]
    out = Capture()
    return Ring(config, out), out


def set_sector(ring, sector, rgb):
    for c in range(3):
        ring.frame[3 * sector + c] = rgb[c]


def test_colour_order_and_mapping():
    ring, out = make(order="GRB", led_at_c=3, direction="ccw", gamma=1.0)
    set_sector(ring, 0, (255, 0, 0))      # C: pure red
    set_sector(ring, 1, (0, 0, 255))      # C#: pure blue
    assert ring.show(0)
    wire = out.writes[-1]
    assert wire[3 * 3:3 * 3 + 3] == bytes((0, 255, 0))     # LED 3, GRB: G=0 R=255 B=0
    assert wire[2 * 3:2 * 3 + 3] == bytes((0, 0, 255))     # anticlockwise: C# on LED 2
    assert sum(wire) == 510


def test_rgb_and_grbw_orders():
    ring, out = make(order="RGB", gamma=1.0)
    set_sector(ring, 0, (10, 20, 30))
    ring.show(0)
    assert out.writes[-1][:3] == bytes((10, 20, 30))
    ring, out = make(order="GRBW", gamma=1.0)
    set_sector(ring, 11, (10, 20, 30))
    ring.show(0)
    assert len(out.writes[-1]) == 48
    assert out.writes[-1][44:48] == bytes((20, 10, 30, 0))


def test_gamma_table():
    table = gamma_table(2.8)
    assert table[0] == 0 and table[255] == 255
    assert table[128] == 37        # 255 * 0.502 ** 2.8 = 37.0
    assert all(table[i] <= table[i + 1] for i in range(255))


def test_brightness_keeps_dim_channels_lit_and_hue():
    ring, out = make()
    ring.brightness = 8
    set_sector(ring, 0, (90, 40, 0))        # a dim optional note
    ring.show(0)
    g, r, b = out.writes[-1][:3]
    assert r >= 1 and g >= 1 and b == 0       # never rounded to off
    assert r >= g


def test_current_budget_scales_a_bright_frame():
    ring, out = make(max_ma=400)
    for sector in range(12):
        set_sector(ring, sector, (255, 255, 255))     # 12 x 60 mA = 732 mA with idle
    ring.show(0)
    assert ring.limited
    assert ring.estimated_ma <= 400
    assert max(out.writes[-1]) < 255
    ring2, out2 = make(max_ma=400)
    set_sector(ring2, 0, (255, 255, 255))
    ring2.show(0)
    assert not ring2.limited and ring2.estimated_ma == 12 + 60


def test_no_write_when_unchanged_and_latch_gap():
    ring, out = make()
    set_sector(ring, 0, (255, 0, 0))
    assert ring.show(1000) and len(out.writes) == 1
    assert ring.show(5000) and len(out.writes) == 1        # same frame: nothing sent
    set_sector(ring, 1, (0, 255, 0))
    assert not ring.show(1100)                             # 100 us after: held back
    assert len(out.writes) == 1
    assert ring.show(1300) and len(out.writes) == 2        # 300 us after: written


def test_a_change_after_minutes_idle_past_half_the_us_period_is_written():
    # ticks_us wraps every 2**30 us (17.9 min); after 9 minutes without a change ticks_diff
    # says the last write is in the future. The ring must not freeze then.
    from hardware.clock import ticks_add
    ring, out = make()
    set_sector(ring, 0, (255, 0, 0))
    assert ring.show(1000)
    now = 1000
    for minutes, green in ((10, 60), (10, 120), (10, 180), (17, 240)):    # idle that long
        for _ in range(minutes):
            now = ticks_add(now, 60000000)        # a port's ticks_add takes < half a period
        set_sector(ring, 1, (0, green, 0))
        assert ring.show(now), minutes
    assert len(out.writes) == 5


def test_circuitpython_microseconds_from_milliseconds():
    # CircuitPython has only supervisor.ticks_ms (period 2**29): microseconds are ms * 1000
    # in the same period, worked out without long integers, and smooth across the wrap.
    from hardware.clock import us_from_ms
    for ms in (0, 1, 999, 12345, 1 << 20, (1 << 26) - 1, 1 << 26, 123456789, (1 << 29) - 1):
        assert us_from_ms(ms) == (ms * 1000) % (1 << 29), ms
    assert (us_from_ms((1 << 29) - 1) + 1000) % (1 << 29) == us_from_ms(0)


def test_rings_of_16_24_and_60_leds():
    from hardware.ring import sector_angle, sector_leds, supported_count
    # 24 LEDs: two a sector, from the LED at C on in the ring's direction.
    rows = sector_leds({"count": 24, "led_at_c": 3, "direction": "ccw"})
    assert rows[0] == [3, 2] and rows[1] == [1, 0] and rows[2] == [23, 22] and rows[11] == [5, 4]
    # 60 LEDs (four quarter arcs): five a sector; the label sits mid-sector, 12 degrees on.
    rows = sector_leds({"count": 60, "led_at_c": 0, "direction": "cw"})
    assert rows[1] == [5, 6, 7, 8, 9] and rows[11] == [55, 56, 57, 58, 59]
    assert sector_angle({"count": 60, "led_at_c": 0, "direction": "cw"}, 3) == 102.0
    # 16 LEDs, 22.5 degrees apart: the nearest to each 30 degrees; 2, 6, 10 and 14 stay dark.
    config = {"count": 16, "led_at_c": 0, "direction": "cw"}
    rows = sector_leds(config)
    assert [row[0] for row in rows] == [0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15]
    assert sector_angle(config, 2) == 67.5 and sector_angle(config, 3) == 90.0
    assert [supported_count(n) for n in (12, 13, 16, 24, 60, 96, 108)] == [
        True, False, True, True, True, True, False]


def test_every_led_of_a_sector_lights_and_counts_in_the_budget():
    ring, out = make(count=24, gamma=1.0, order="RGB", max_ma=10000)
    set_sector(ring, 1, (255, 0, 0))
    assert ring.show(0)
    wire = out.writes[-1]
    assert wire[2 * 3:4 * 3] == bytes((255, 0, 0, 255, 0, 0))      # LEDs 2 and 3
    assert sum(wire) == 510
    # Two LEDs at full red: 2 x 20 mA, plus 1 mA idle for each of the 24 LEDs.
    assert ring.estimated_ma == 24 + 40
    ring, out = make(count=16, gamma=1.0, order="RGB", max_ma=10000)
    for sector in range(12):
        set_sector(ring, sector, (255, 255, 255))
    ring.show(0)
    dark = [led for led in range(16) if not any(out.writes[-1][3 * led:3 * led + 3])]
    assert dark == [2, 6, 10, 14]


def test_a_turned_frame_is_the_frame_turned_on_every_ring_that_can_turn():
    # turn() must write exactly what show() writes for the frame turned by whole sectors: the
    # explorer's answer to the knob (firmware/loop.py) relies on it. Over the budget too.
    for count, direction, led_at_c, order in ((12, "cw", 0, "GRB"), (12, "ccw", 5, "RGB"),
                                              (24, "cw", 7, "GRBW"), (60, "ccw", 59, "GRB")):
        for steps in (1, -1, 5, 13):
            ring, out = make(count=count, direction=direction, led_at_c=led_at_c, order=order,
                             max_ma=150)
            reference, expected = make(count=count, direction=direction, led_at_c=led_at_c,
                                       order=order, max_ma=150)
            for sector in range(12):
                rgb = (sector * 20 + 10, 255 - sector * 20, (sector * 77) % 256)
                set_sector(ring, sector, rgb)
                set_sector(reference, (sector + steps) % 12, rgb)
            assert ring.show(0) and reference.show(0)
            assert ring.turn(steps, 1000)
            assert out.writes[-1] == expected.writes[-1], (count, direction, steps)
            assert ring.frame == reference.frame
            assert ring.show(2000) and ring.writes == 2          # nothing left to write
            assert ring.writes == 2


def test_a_turn_waits_for_the_latch_gap_and_a_16_led_ring_does_not_turn():
    ring, out = make()
    assert not ring.turn(1, 0)                     # nothing written yet: nothing to turn
    set_sector(ring, 0, (255, 0, 0))
    ring.show(0)
    assert not ring.turn(1, 100)                   # within the 280 us latch gap
    assert ring.turn(1, 300) and len(out.writes) == 2
    ring, out = make(count=16)
    set_sector(ring, 0, (255, 0, 0))
    ring.show(0)
    assert not ring.turn(1, 1000) and len(out.writes) == 1


def lit_frame(ring, mask):
    for sector in range(12):
        set_sector(ring, sector, (255, 255, 255) if mask >> sector & 1 else (0, 0, 0))


def test_a_lit_frame_is_the_frame_show_writes_on_every_ring():
    # light() must write exactly what show() writes for the frame painted white on the mask:
    # listen's answer to a note (firmware/loop.py) relies on it. From any frame written before,
    # and from one light() wrote (only the changed sectors touched then).
    for count, direction, led_at_c, order in ((12, "cw", 0, "GRB"), (12, "ccw", 5, "RGB"),
                                              (16, "cw", 3, "GRB"), (24, "cw", 7, "GRBW"),
                                              (60, "ccw", 59, "GRB")):
        ring, out = make(count=count, direction=direction, led_at_c=led_at_c, order=order,
                         max_ma=5000)
        reference, expected = make(count=count, direction=direction, led_at_c=led_at_c,
                                   order=order, max_ma=5000)
        ring.brightness = reference.brightness = 96
        for sector in range(12):
            set_sector(ring, sector, (sector * 20 + 10, 255 - sector * 20, 77))
        assert ring.show(0)
        now = 1000
        for mask in (0b000010010001, 0b000010010011, 0b000000000010, 0, 0xFFF, 0b101):
            assert ring.light(mask, now), (count, mask)
            lit_frame(reference, mask)
            assert reference.show(now)
            assert out.writes[-1] == expected.writes[-1], (count, order, mask)
            assert ring.frame == reference.frame
            assert ring.estimated_ma == reference.estimated_ma
            now += 1000
        writes = ring.writes
        assert ring.show(now) and ring.writes == writes        # nothing left to write


def test_light_leaves_a_frame_over_the_budget_and_the_latch_gap_to_show():
    ring, out = make(max_ma=100)
    assert not ring.light(0b1, 1000)               # nothing written yet
    ring.show(0)
    assert not ring.light(0b1, 100)                # within the 280 us latch gap
    # 12 LEDs white at full brightness would draw about 720 mA: show() scales, light() not.
    assert not ring.light(0xFFF, 1000) and len(out.writes) == 1
    assert ring.light(0b1, 1000) and len(out.writes) == 2
    lit_frame(ring, 0xFFF)
    assert ring.show(2000) and ring.limited and ring.estimated_ma <= 100


def test_the_stored_gamma_steps_give_the_worked_out_table():
    # hardware/ring.py keeps gamma 2.8's table as its steps (no float powers at power-up).
    stored = gamma_table(2.8)
    table = bytearray(256)
    for i in range(256):
        table[i] = int(255 * (i / 255) ** 2.8 + 0.5)
    assert stored == table and isinstance(stored, bytearray)
    assert gamma_table(2.2) != stored


def test_every_channel_level_is_the_worked_out_tables_at_each_brightness():
    # The ring sums gamma 2.8's steps into its levels (no table kept); another gamma has its
    # table worked out. Every channel value, each at a few brightnesses, through show().
    for gamma in (2.8, 2.2):
        table = bytearray(256)
        for i in range(256):
            table[i] = int(255 * (i / 255) ** gamma + 0.5)
        ring, out = make(gamma=gamma, max_ma=100000)
        for level in (255, 128, 7):
            ring.brightness = level
            for value in range(0, 256, 4):
                for v in range(value, value + 4):
                    set_sector(ring, v - value, (v, v, v))
                ring.show(1000 * len(out.writes))
                want = [table[v] * level // 255 or 1 if table[v] else 0
                        for v in range(value, value + 4)]
                wire = out.writes[-1]
                assert [wire[3 * k] for k in range(4)] == want, (gamma, level, value)
