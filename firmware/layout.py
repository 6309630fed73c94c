"""Where things live on a device's flash, in one place for the firmware and for the laptop's
tools (host_tools/device, and the page's flasher through the site's build): the host tools
import this module on CPython, the firmware's requests from the laptop on the device. The
paths a boot needs (the meld sets' folder, the maintenance flag) are defined with the record
store (firmware/records.py, loaded by every boot) and gathered here, so a Pico's power-up does
not import this module (about 15 ms of it)."""

# (Gathered here for the host tools: `noqa` lets them be imported and not used.)
from firmware.records import DEFAULT_SET, MAINTENANCE_PATH, MELD_DIR, SET_SUFFIX  # noqa: F401

VERSION = "0.1.0"                      # the firmware's; host_tools.__version__ is the same
CODE_DIRS = ("core", "hardware", "firmware")
ROOT_FILES = ("boot.py", "main.py", "board.json")
LIB_DIR = "lib"                        # outside libraries (the user's too: never removed)
# A set's name, as the compiler allows it (core/meldset_compiler.py checks the same letters
# for a source; tests/host/test_target.py holds the two together): a file name, never a path.
SET_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_"
SETTINGS_PATH = "settings.json"
