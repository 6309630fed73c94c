"""Where things live on a device's flash, in one place for the firmware and for the laptop's
tools (host_tools/device, and the page's flasher through the site's build): the firmware
imports this module on the device, the host tools import it on CPython."""

VERSION = "0.1.0"                      # the firmware's; host_tools.__version__ is the same
CODE_DIRS = ("core", "hardware", "firmware")
ROOT_FILES = ("boot.py", "main.py", "board.json")
LIB_DIR = "lib"                        # outside libraries (the user's too: never removed)
MELD_DIR = "melds"
SET_SUFFIX = ".cwm"
DEFAULT_SET = "default"
# A set's name, as the compiler allows it (core/meldset_compiler.py checks the same letters
# for a source; tests/host/test_target.py holds the two together): a file name, never a path.
SET_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_"
SETTINGS_PATH = "settings.json"
# Written by the laptop just before it resets the board for a deploy: the boot after that
# reset runs without the app and without the watchdog (firmware/safemode.py).
MAINTENANCE_PATH = "maintenance"
