"""The wheel in a browser: the unmodified firmware on MicroPython WebAssembly with board `web`
(hardware/web_pins.py, hardware/web_parts.py are its pins), and a meld-set studio that validates
with the core's own validator in the page and flashes over Web Serial.

build.py (make web) lays out the static site in build/web; server.py serves it (chromawheel
web); browser.py finds and drives headless Chromium (tests, bench, the README's screenshot).
site/ holds the page, py/ the Python the page runs as the laptop (the studio's checks).
Development only, left out of the wheel (setup.py): testing/ (what only the tests inject into
the page, and the WebSocket bridge to a serial port behind the Web Serial stand-in), bench.py
and screenshot.py."""
