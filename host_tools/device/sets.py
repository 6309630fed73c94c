"""Meld sets on a board, through one Target (host_tools/device/target.py): a flash is a sync of
one file and one "use" request, the device's own loader the judge; list and remove are one
request each. A set with any problem never leaves the laptop."""

import time

from firmware.layout import MELD_DIR, SET_SUFFIX
from host_tools.device.target import sync
from host_tools.errors import UserError
from host_tools.set_files import set_to_flash


def set_path(name):
    return MELD_DIR + "/" + name + SET_SUFFIX


def install(target, chosen, progress=print):
    """Write a checked set (set_to_flash's answer) and make it the active one; the device's
    answer to "use"."""
    blob, meldset, name = chosen
    progress("%s: writing %s (%d bytes, %d melds)" % (target.name, set_path(name), len(blob),
                                                      meldset.count))
    sync([(set_path(name), blob)], target, progress=lambda line: None)
    answer = target.call("use", name)
    if answer.get("set") != name or answer.get("melds") != meldset.count:
        raise UserError("%s: the device did not take %s (it answered %r)"
                        % (target.name, name, answer))
    return answer


def flash(target, source_path, progress=print):
    """Validate and compile a set, put it on `target` and make it the active set; success is
    the device's answer. The board then restarts into its app with it."""
    started = time.time()
    chosen = set_to_flash(source_path)
    answer = install(target, chosen, progress)
    target.done()
    if answer.get("said"):
        progress("the device says: %s" % answer["said"])
    blob, meldset, name = chosen
    return {"name": name, "bytes": len(blob), "melds": meldset.count,
            "seconds": time.time() - started}


def list_sets(target):
    """{"sets": [[name, melds, problem or None]], "active": name}, each set checked by the
    board's own loader; the board then goes back to its app."""
    answer = target.call("sets")
    target.done()
    return {"sets": answer["sets"], "active": answer["active"]}


def remove(target, name):
    """The set removed; the device says what it will not remove (firmware/layout.py)."""
    target.call("remove", name)
    target.done()
