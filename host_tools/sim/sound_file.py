"""What the simulated buzzer played, as a WAV file: the square waves at their times."""

import wave

RATE = 22050
FULL = 12000                 # the amplitude of a tone at half duty (the loudest)


def write_wav(path, tones):
    """tones: [start ticks_ms, freq_hz, ms, duty], in order; silence between them as played.
    Time starts at the first tone."""
    samples = bytearray()
    if tones:
        start = tones[0][0]
        for ticks, freq, ms, duty in tones:
            begin = ((ticks - start) % (1 << 30)) * RATE // 1000
            if begin * 2 > len(samples):
                samples += bytes(begin * 2 - len(samples))
            del samples[begin * 2:]
            level = FULL * min(duty, 65536 - duty) // 32768
            period = RATE / freq
            for n in range(ms * RATE // 1000):
                value = level if (n % period) < period / 2 else -level
                samples += (value & 0xFFFF).to_bytes(2, "little")
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(samples))
