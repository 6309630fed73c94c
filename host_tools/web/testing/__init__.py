"""The page's test rigs (a development package: the wheel leaves it out): the stand-ins for
Web Serial and Web MIDI that Playwright injects (serial_stand_in.js, midi_stand_in.js), the
WebSocket bridge joining the Web Serial stand-in to a serial device (bridge.py), and the
allocation probe the browser benchmark runs (alloc_mpy.py)."""
