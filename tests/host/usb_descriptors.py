"""The tests' one reader of a USB configuration descriptor (the emulator's MIDI host has its
own in JavaScript, host_tools/emulator/rp2040js/midi_host.cjs descriptorsOf, for the device it
drives; the tests read what it recorded, pico.usb_configs)."""

AUDIO, AUDIO_CONTROL, MIDI_STREAMING = 1, 1, 3


def interfaces(configuration):
    """{interface number: (class, subclass, iInterface, [(endpoint address, attributes,
    max packet)])} of a configuration descriptor."""
    out = {}
    at, current = 0, None
    while at + 2 <= len(configuration):
        length, kind = configuration[at], configuration[at + 1]
        if kind == 4:
            current = configuration[at + 2]
            out[current] = (configuration[at + 5], configuration[at + 6],
                            configuration[at + 8], [])
        elif kind == 5 and current is not None:
            out[current][3].append((configuration[at + 2], configuration[at + 3],
                                    configuration[at + 4] | configuration[at + 5] << 8))
        at += max(length, 1)
    return out


def midi_interfaces(configuration):
    """The numbers of the Audio/MIDIStreaming interfaces of a configuration descriptor."""
    return [number for number, (klass, subclass, _, _) in interfaces(configuration).items()
            if (klass, subclass) == (AUDIO, MIDI_STREAMING)]
