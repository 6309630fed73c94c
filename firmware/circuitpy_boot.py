"""boot.py on a CircuitPython board (deploy --drive puts it there): who may write CIRCUITPY.

CircuitPython lets either the computer (over USB) or the board's own code write the drive,
never both. This gives it to the code, so settings, the crash count, the log and flashed meld
sets are saved, unless the button is held at power-up: then the computer can write it (for
`chromawheel deploy --drive` and `meldset flash --drive`) and the firmware starts in safe mode.
What it decided is printed (CircuitPython keeps it in boot_out.txt). It also names the USB MIDI
port CircuitPython presents (the `midi` setting decides whether the firmware uses it)."""

import json
import time

import board
import digitalio
import storage

HELD_SAMPLES = 5


def _button_held():
    try:
        with open("board.json") as f:          # CircuitPython runs boot.py in /
            config = json.load(f)["button"]
        pin = digitalio.DigitalInOut(getattr(board, config["pin"]))
    except (OSError, ValueError, KeyError, AttributeError, TypeError) as err:
        print("chromawheel boot: no usable button in board.json (%s)" % err)
        return True                 # keep the drive the computer's: it can fix the file
    pin.direction = digitalio.Direction.INPUT
    pull = config.get("pull", "up")
    if pull in ("up", "down"):
        pin.pull = digitalio.Pull.UP if pull == "up" else digitalio.Pull.DOWN
    pressed = not config.get("active_low", True)
    held = True
    for _ in range(HELD_SAMPLES):          # held for 40 ms, not a bounce
        held = pin.value == pressed
        if not held:
            break                          # not held: no need to wait (the usual power-up)
        time.sleep(0.01)
    pin.deinit()
    return held


if _button_held():
    print("chromawheel boot: CIRCUITPY stays writable from the computer (copy files now); "
          "the firmware cannot save settings until the board is plugged in again")
else:
    storage.remount("/", readonly=False)
    print("chromawheel boot: CIRCUITPY is the firmware's (it saves settings); hold the "
          "button while plugging in to copy files from the computer")

try:
    import usb_midi
    # (circuitpython-stubs 10.3.1 declare it with a `self` the module function has not)
    usb_midi.set_names(  # type: ignore[call-arg]
        streaming_interface_name="ChromaWheel", audio_control_interface_name="ChromaWheel",
        in_jack_name="ChromaWheel", out_jack_name="ChromaWheel")
except (ImportError, AttributeError):       # a build without USB MIDI, or older than 9
    pass
