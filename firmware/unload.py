"""Forget modules so their code can be collected: a small board needs that RAM back (the
boot-only code once the app runs, the table modes not in use)."""

import gc
import sys


def unload(names):
    """Drop both the sys.modules entry and the attribute an import sets on the parent
    package (either alone would keep the module alive)."""
    for name in names:
        sys.modules.pop(name, None)
        package, _, child = name.rpartition(".")
        parent = sys.modules.get(package)
        if parent is not None and child in parent.__dict__:
            delattr(parent, child)
    gc.collect()
