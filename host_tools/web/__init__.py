"""The wheel in a browser: the unmodified firmware on MicroPython WebAssembly with board `web`
(hardware/web_pins.py, hardware/web_parts.py are its pins), and a meld-set studio that validates
with the core's own validator in the page and flashes over Web Serial.

build.py (make web) lays out the static site in build/web; server.py serves it (chromawheel
web); bridge.py joins a WebSocket to a serial port (the tests' stand-in for Web Serial, wired
to the emulated Pico); browser.py finds and drives headless Chromium (tests, bench, the
README's screenshot). site/ holds the page, py/ the Python the page runs as the laptop (the
studio's checks), testing/ what only the tests inject into the page."""
