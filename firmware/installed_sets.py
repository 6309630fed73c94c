"""Meld sets on the device: melds/NAME.cwm, loaded whole or not at all.

Loading falls back from the chosen set to the last good one, then to the default set that
came with the firmware, and says on the console what it refused and why."""

import os
import sys

from core.meldset import MeldSetError, load

from firmware.records import DEFAULT_SET as DEFAULT_NAME
from firmware.records import MELD_DIR
from firmware.records import SET_SUFFIX as SUFFIX

CHECKS = "core.meldset_check"


def path_of(name):
    return MELD_DIR + "/" + name + SUFFIX


def names():
    """Set names on the device, the default first."""
    try:
        found = [n[:-len(SUFFIX)] for n in os.listdir(MELD_DIR)
                 if n.endswith(SUFFIX) and not n.startswith(".")]
    except OSError:
        found = []
    found.sort()
    if DEFAULT_NAME in found:
        found.remove(DEFAULT_NAME)
        found.insert(0, DEFAULT_NAME)
    return found


def load_named(name):
    return load(path_of(name))


def load_with_fallback(wanted, last_good, say=print):
    """(meldset, name) of the first of wanted, last_good, default that loads; raises
    MeldSetError only when none does. The sets' checks are dropped after (_drop_checks)."""
    try:
        return _first_loading(wanted, last_good, say)
    finally:
        _drop_checks()


def _drop_checks():
    """Forget core/meldset_check.py, wanted again only when a set is loaded next (the menu):
    its code leaves the heap at the next collection (about 1.5 KB of a Pico's heap after
    boot). Not collected here: the boot's next step collects (firmware.modes.load_mode)."""
    sys.modules.pop(CHECKS, None)
    core = sys.modules.get("core")
    if core is not None and "meldset_check" in core.__dict__:
        delattr(core, "meldset_check")


def _first_loading(wanted, last_good, say):
    tried = []
    for name in (wanted, last_good, DEFAULT_NAME):
        if name in tried:
            continue
        tried.append(name)
        try:
            meldset = load_named(name)
        except MeldSetError as err:
            say("meld set %s refused: %s" % (name, str(err).replace("\n", "; ")))
            continue
        if tried[0] != name:
            say("using meld set %s instead" % name)
        return meldset, name
    raise MeldSetError([("", "no usable meld set (tried %s)" % ", ".join(tried))])
