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
    the module alive), then collect the heap, even when nothing went: the next module's
    code must land in a heap without the garbage before it. When the boot's first mode
    load skipped it (to save about 14 ms of the Pico's power-up), the explorer sat in a
    fragmented heap for good, and meld check then ran out in the 160 KB small-heap test
    (tests/host/test_table_modes.py)."""
    for name in names:
        sys.modules.pop(name, None)
        package, _, child = name.rpartition(".")
        parent = sys.modules.get(package)
        if parent is not None and child in parent.__dict__:
            delattr(parent, child)
    gc.collect()

