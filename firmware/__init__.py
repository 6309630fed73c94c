"""The device application: boot, main loop, modes, rendering, storage, safe mode.

unload() is here, in the package every firmware module is imported through, and not in a
module of its own: on the Pico each module costs about 14 ms of the power-up (littlefs
lookups), and a file this small sits inline in its folder's metadata, which every later
lookup in that folder reads through."""

import gc
import sys


def unload(names):
    """Forget modules so their code can be collected: a small board needs that RAM back (the
    boot-only code once the app runs, the table modes not in use). Drop both the sys.modules
    entry and the attribute an import sets on the parent package (either alone would keep
    the module alive). The heap is collected only when a module went (a collection of the
    Pico's heap takes about 14 ms: at power-up, a mode's load that finds no other mode loaded
    costs none)."""
    dropped = False
    for name in names:
        if sys.modules.pop(name, None) is not None:
            dropped = True
        package, _, child = name.rpartition(".")
        parent = sys.modules.get(package)
        if parent is not None and child in parent.__dict__:
            delattr(parent, child)
            dropped = True
    if dropped:
        gc.collect()

