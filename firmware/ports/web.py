"""The web page: MicroPython WebAssembly in a browser (host_tools/web). The page's pins are
hardware/web_pins.py; the page says how the board started and does its resets. Its commands
are driven in the loop (drive), as the simulator's are."""


from firmware.devices import LOOP_PERIOD_MS, REST_PERIOD_MS, Hardware


def build(board):
    """The web board's devices: the simulator's twins on the page's pins."""
    from hardware import web_pins
    from hardware.ring import Ring
    from hardware.sim import SimButton, SimEncoder
    clock = web_pins.WebClock()
    encoder = SimEncoder(board["encoder"])
    button = SimButton(board["button"])
    link = web_pins.WebLink(clock, encoder, button, LOOP_PERIOD_MS)
    ring = Ring(board["ring"], web_pins.WebRingOutput())
    link.poll()                   # the page may hold the button before power-up (safe mode)
    hw = Hardware(board, ring, encoder, button, clock, link)
    hw.rest_period_ms = REST_PERIOD_MS      # a tablet's page left open sleeps as a chip does
    return hw


def drive(loop):
    """The page's commands, driven in the loop as the simulator's are (firmware/ports/sim.py;
    the loop is asyncio's on the page's JavaScript timers: host_tools/web/site/
    board_worker.js stands in for asyncio.run). Each time the console prints the active mode's
    line, the notes the ring shows go to the page too, spelled (the mode's notes()): the page
    labels its ring with them."""
    from hardware import web_pins

    from firmware.ports import sim
    step, pause = sim.drive(loop)
    console = loop.console
    said = web_pins.ring_notes
    seen = -1

    def step_and_name():
        nonlocal seen
        more = step()
        if console.printed != seen:
            seen = console.printed
            said(loop.app.active.notes() or "")
        return more
    return step_and_name, pause


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


jacks_port = None                 # the page's wheel has no jacks


def watchdog():
    return None


def reset_cause():
    import webpins
    return webpins.reset_cause


def restart():
    import webpins
    webpins.reset()
