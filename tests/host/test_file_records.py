"""FileRecords (firmware/records.py): where the root is littlefs a record is written in place
(littlefs keeps a file whole until it is closed); elsewhere through a temporary copy and a
rename. `vfs` is MicroPython's module: a stand-in here says what is mounted at the root."""

import importlib
import os
import sys
import types

import pytest

from firmware import records


class VfsLfs2:
    pass


class VfsFat:
    pass


@pytest.fixture
def mounted(monkeypatch, tmp_path):
    """mounted(fs) puts a `vfs` with `fs` at "/" in place (None: no vfs module) and imports
    firmware.records again, which looks once; records are written in tmp_path."""
    monkeypatch.chdir(tmp_path)
    renames = []
    real_rename = os.rename

    def rename(old, new):
        renames.append((old, new))
        real_rename(old, new)
    monkeypatch.setattr(os, "rename", rename)
    before = sys.modules.get("vfs")

    def mount(fs):
        sys.modules.pop("vfs", None)
        if fs is not None:
            module = types.ModuleType("vfs")
            module.VfsLfs2 = VfsLfs2
            module.mount = lambda: [(fs, "/")]
            sys.modules["vfs"] = module
        importlib.reload(records)
        return renames
    yield mount
    sys.modules.pop("vfs", None)
    if before is not None:
        sys.modules["vfs"] = before
    importlib.reload(records)


def test_on_littlefs_a_record_is_written_in_place(mounted, tmp_path):
    renames = mounted(VfsLfs2())
    store = records.FileRecords()
    store.write("crashes.txt", b"1")
    store.write("crashes.txt", b"0")
    assert store.read("crashes.txt") == b"0" and renames == []
    assert sorted(os.listdir(tmp_path)) == ["crashes.txt"]


@pytest.mark.parametrize("fs", [VfsFat(), None], ids=["fat", "no vfs module"])
def test_elsewhere_a_record_goes_through_a_temporary_copy(mounted, fs):
    renames = mounted(fs)
    store = records.FileRecords()
    store.write("settings.json", b"{}")
    assert renames == [("settings.json.tmp", "settings.json")]
    assert store.read("settings.json") == b"{}"
