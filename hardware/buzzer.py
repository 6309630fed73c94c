"""A piezo buzzer that plays a tune without ever blocking the loop: `play()` queues tones and
the loop's `update(now)` starts each one when the previous has run its time (the same ticks as
everything else, so a scripted simulator run replays exactly). A tone ends within one loop
period of its time (10 ms).

The output adapters (hardware/mp_devices.py, cp_devices.py, sim.py) have tone(freq_hz, duty)
and off(); duty is a 16-bit PWM duty, the volume (a piezo is loudest at half duty)."""

from array import array

from hardware.clock import ticks_add, ticks_diff

CAPACITY = 64                 # tones in one tune (a 12-note scale and back fits easily)
VOLUME_DUTY = (0, 1200, 6000, 32768)    # off, soft, medium, loud


class Buzzer:
    def __init__(self, output):
        self.output = output
        self._freq = array("H", bytes(2 * CAPACITY))
        self._ms = array("H", bytes(2 * CAPACITY))
        self._count = 0
        self._next = 0
        self._due = 0
        self._sounding = False
        self.duty = VOLUME_DUTY[2]

    @property
    def playing(self):
        return self._next < self._count or self._sounding

    def play(self, tones, volume):
        """Replace what is playing with `tones` ((freq_hz or 0 for a rest, ms) pairs); it
        starts at the next update. Volume 0 plays nothing."""
        self.stop()
        if not volume:
            return
        self.duty = VOLUME_DUTY[volume]
        n = 0
        for freq, ms in tones:
            if n == CAPACITY:
                break
            self._freq[n] = freq
            self._ms[n] = ms
            n += 1
        self._count = n
        self._next = 0
        self._due = None

    def stop(self):
        if self._sounding:
            self.output.off()
            self._sounding = False
        self._count = self._next = 0

    def update(self, now):
        """Called every loop tick; allocates nothing."""
        if self._next >= self._count:
            if self._sounding and ticks_diff(now, self._due) >= 0:
                self.output.off()
                self._sounding = False
            return
        if self._due is not None and ticks_diff(now, self._due) < 0:
            return
        i = self._next
        freq = self._freq[i]
        if freq:
            self.output.tone(freq, self.duty)
            self._sounding = True
        elif self._sounding:
            self.output.off()
            self._sounding = False
        self._due = ticks_add(now, self._ms[i])
        self._next = i + 1
