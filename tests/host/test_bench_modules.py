"""make bench's device-side figures run on a RAM disk holding only the core modules
host_tools.device.files.import_closure finds (from their imports): that set must import and
load a meld set on a real
MicroPython with nothing else on its path (a hand-kept list once lacked core/meldset_check.py,
and make bench skipped every emulated-Pico figure)."""

import os
import shutil

from host_tools import ROOT
from host_tools.device.files import import_closure
from host_tools.tools import micropython_path
from running import run

SCRIPT = """
import sys
sys.path[:] = [%r]
from core import meldset, identify, check, hand
ms = meldset.load(%r)
print(ms.count, type(identify.Identifier(ms)).__name__, 'hand' in dir(hand))
"""


def test_the_benchs_core_modules_are_all_a_device_needs(tmp_path):
    rels = import_closure(["core/meldset.py", "core/identify.py", "core/check.py",
                           "core/hand.py"])
    assert "core/meldset_check.py" in rels and "core/games/__init__.py" in rels, rels
    for rel in rels:
        os.makedirs(os.path.dirname(tmp_path / rel), exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, rel), tmp_path / rel)
    default = os.path.join(ROOT, "core", "meldsets", "default.cwm")
    proc = run([micropython_path(), "-c", SCRIPT % (str(tmp_path), default)], timeout=60,
               expect=0)
    count, name, _ = proc.stdout.split()
    assert int(count) > 0 and name == "Identifier", proc.stdout
