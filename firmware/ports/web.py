"""The web page: MicroPython WebAssembly in a browser (host_tools/web). The page's pins are
hardware/web_pins.py; the page says how the board started and does its resets."""


def build(board):
    from hardware import web_pins
    return web_pins.build(board)


def display_panel(config, hw):
    from hardware import web_parts
    return web_parts.WebPanel(config)


def tone_output(config, hw):
    from hardware import web_parts
    return web_parts.WebBuzzer(hw.clock)


def midi_port(hw):
    from hardware.web_midi import WebMidi
    port = WebMidi()
    hw.link.midi_in = port
    return port


def watchdog():
    return None


def reset_cause():
    import webpins  # type: ignore[import-not-found]
    return webpins.reset_cause


def restart():
    import webpins  # type: ignore[import-not-found]
    webpins.reset()
