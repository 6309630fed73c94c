"""Where things live on a device's flash, in one place for the firmware and for the laptop's
tools (host_tools/device, and the page's flasher through the site's build): the host tools
import this module on CPython, the firmware's requests from the laptop on the device. The
paths a boot needs (the meld sets' folder, the maintenance flag) are defined with the record
store (firmware/records.py, loaded by every boot) and gathered here, so a Pico's power-up does
not import this module (about 15 ms of it)."""

from core.meldset import MAX_SET_NAME, SET_NAME_CHARS

# (Gathered here for the host tools: `noqa` lets them be imported and not used.)
from firmware.records import DEFAULT_SET, MAINTENANCE_PATH, MELD_DIR, SET_SUFFIX  # noqa: F401

VERSION = "0.1.0"                      # the firmware's; host_tools.__version__ is the same
CODE_DIRS = ("core", "hardware", "firmware")
SETTINGS_PATH = "settings.json"


def set_name_problem(name):
    """Why `name` cannot be a meld set's on a device (core/meldset.py's characters and
    length), or None."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_SET_NAME or \
            [c for c in name if c not in SET_NAME_CHARS]:
        return "not a meld set's name: %r" % (name,)
    return None


def removal_problem(name):
    """Why the set `name` may not be removed from a device, or None: the rule the device's
    maintenance answers give (firmware/maintenance.py), and that a drive's answers on the
    laptop read here."""
    if name == DEFAULT_SET:
        return "the default set comes with the firmware and cannot be removed"
    return None
