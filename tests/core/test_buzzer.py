"""The buzzer's sequencer: tones start and stop on the loop's ticks, never blocking it."""

from hardware.buzzer import VOLUME_DUTY, Buzzer
from hardware.clock import PERIOD, ticks_add


class Piezo:
    """The PWM pin: what it was told, and when."""

    def __init__(self):
        self.events = []
        self.now = 0

    def tone(self, freq, duty):
        self.events.append((self.now, freq, duty))

    def off(self):
        self.events.append((self.now, 0, 0))


def run(buzzer, piezo, start, ms, step=10):
    now = start
    for _ in range(ms // step):
        piezo.now = now
        buzzer.update(now)
        now = ticks_add(now, step)


def test_tones_rests_and_the_end():
    piezo = Piezo()
    buzzer = Buzzer(piezo)
    buzzer.play(((262, 100), (0, 20), (330, 50)), 3)
    run(buzzer, piezo, 0, 400)
    loud = VOLUME_DUTY[3]
    assert piezo.events == [(0, 262, loud), (100, 0, 0), (120, 330, loud), (170, 0, 0)]
    assert not buzzer.playing


def test_volume_off_plays_nothing_and_a_new_tune_cuts_the_old():
    piezo = Piezo()
    buzzer = Buzzer(piezo)
    buzzer.play(((440, 100),), 0)
    run(buzzer, piezo, 0, 200)
    assert piezo.events == []
    buzzer.play(((440, 1000),), 1)
    run(buzzer, piezo, 0, 50)
    buzzer.play(((220, 30),), 2)           # the knob was clicked again mid-tune
    run(buzzer, piezo, 50, 100)
    assert piezo.events == [(0, 440, VOLUME_DUTY[1]), (40, 0, 0), (50, 220, VOLUME_DUTY[2]),
                            (80, 0, 0)]


def test_a_tune_across_the_tick_wrap():
    piezo = Piezo()
    buzzer = Buzzer(piezo)
    start = PERIOD - 60
    buzzer.play(((500, 100),), 2)
    run(buzzer, piezo, start, 200)
    assert [e[1] for e in piezo.events] == [500, 0]
    assert piezo.events[1][0] == ticks_add(start, 100)


def test_a_long_tune_is_cut_at_capacity():
    from hardware.buzzer import CAPACITY
    piezo = Piezo()
    buzzer = Buzzer(piezo)
    buzzer.play([(100 + i, 10) for i in range(CAPACITY + 10)], 2)
    run(buzzer, piezo, 0, 10 * (CAPACITY + 20))
    assert len([e for e in piezo.events if e[1]]) == CAPACITY
