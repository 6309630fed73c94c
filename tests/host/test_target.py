"""One way to talk to a board (host_tools/device/target.py): the device's maintenance requests
(firmware/maintenance.py) on the real MicroPython unix port, the same answers from a drive, a
set's flash that opens the port once and resets once, and the constants in one place."""

import json
import os

import pytest

import host_tools
from firmware import layout
from host_tools.device import sets, target
from host_tools.device.files import ROOT, build_flash
from host_tools.device.target import DriveTarget, SerialTarget, call_line, sync
from host_tools.errors import UserError
from host_tools.set_files import compile_file
from host_tools.tools import micropython_path
from running import run

JAZZ = os.path.join(ROOT, "core", "meldsets", "jazz.json")


def ask(flash, request, *args):
    """The device's answer on the unix port, to the line every host sends."""
    proc = run([micropython_path(), "-c", call_line(request, *args)], cwd=str(flash), timeout=60,
               expect=0)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, lines                          # one line of JSON, nothing else
    return json.loads(lines[0])


@pytest.fixture
def flash(tmp_path):
    build_flash(str(tmp_path), "sim")
    (tmp_path / "melds" / "jazz.cwm").write_bytes(compile_file(JAZZ))
    return tmp_path


def test_the_device_answers_each_request_in_one_line_of_json(flash):
    state = ask(flash, "state")
    assert state["ok"] and state["version"] == layout.VERSION == host_tools.__version__
    assert state["implementation"][0] == "micropython" and state["active"] == "default"
    assert state["sets"] == ["default", "jazz"]
    assert ask(flash, "sets") == {"ok": True, "active": "default",
                                  "sets": [["default", 60, None], ["jazz", 47, None]]}
    assert ask(flash, "use", "jazz") == {"ok": True, "set": "jazz", "melds": 47,
                                         "said": "meld set jazz loaded: 47 melds"}
    # The firmware's own settings code wrote it (only what differs from the defaults).
    assert json.loads((flash / layout.SETTINGS_PATH).read_text()) == {"meldset": "jazz"}
    assert ask(flash, "remove", "jazz") == {"ok": True, "removed": "jazz"}
    assert not (flash / "melds" / "jazz.cwm").exists()
    assert ask(flash, "state")["active"] == "default"


def test_the_device_refuses_with_its_reason_and_changes_nothing(flash):
    damaged = bytearray(compile_file(JAZZ))
    damaged[40] ^= 0xFF
    (flash / "melds" / "bad.cwm").write_bytes(bytes(damaged))
    refused = ask(flash, "use", "bad")
    assert refused["ok"] is False and refused["error"], refused
    assert not (flash / layout.SETTINGS_PATH).exists()
    listed = ask(flash, "sets")["sets"]
    assert [s[0] for s in listed] == ["default", "bad", "jazz"] and listed[1][2]
    assert ask(flash, "remove", "default")["error"] == \
        "the default set comes with the firmware and cannot be removed"
    assert ask(flash, "remove", "nope")["error"] == "no meld set 'nope' on the device"
    assert ask(flash, "use", "../boot")["error"].startswith("not a meld set's name")
    assert "no such request" in ask(flash, "reboot")["error"]
    # The request is data: a line of Python in it is a name like any other, not run.
    assert ask(flash, "use", "x'); import os; os.remove('boot.py'); ('")["ok"] is False
    assert (flash / "boot.py").exists()


def test_a_drive_answers_as_the_device_does(flash):
    with DriveTarget(str(flash)) as drive:
        assert drive.call("sets") == dict(ask(flash, "sets"))
        answer = drive.call("use", "jazz")
        assert (answer["set"], answer["melds"]) == ("jazz", 47)
        with pytest.raises(UserError, match="no meld set 'nope'"):
            drive.call("remove", "nope")
        # The device's own rules, read where they are written (firmware/layout.py).
        for request, name in (("remove", "default"), ("remove", "../boot"), ("use", "../boot"),
                              ("use", "x" * 25)):
            with pytest.raises(UserError) as refused:
                drive.call(request, name)
            assert str(refused.value) == ask(flash, request, name)["error"]


def test_each_rule_is_written_once():
    # "The default set cannot be removed" was written in six places; the device's answer
    # (firmware/layout.py's removal_problem) is the one, and every host tool reads it.
    rule = "comes with the firmware and cannot be removed"
    found = []
    for top in ("core", "firmware", "hardware", "host_tools"):
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d not in ("node_modules", "__pycache__")]
            for name in names:
                if name.endswith((".py", ".js")):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        found += [name] * f.read().count(rule)
    assert found == ["layout.py"]


def test_sync_writes_what_differs_and_removes_what_is_stale(tmp_path):
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "old.py").write_bytes(b"old")
    (tmp_path / "firmware" / "same.py").write_bytes(b"same")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "users.py").write_bytes(b"mine")
    lines = []
    with DriveTarget(str(tmp_path)) as drive:
        report = sync([("firmware/same.py", b"same"), ("firmware/new.py", b"new"),
                       ("main.py", b"main")], drive, ("firmware",), lines.append)
    assert report == {"files": 3, "sent": 2, "bytes_sent": 7,
                      "removed": ["firmware/old.py"]}
    assert sorted(os.listdir(tmp_path / "firmware")) == ["new.py", "same.py"]
    assert (tmp_path / "lib" / "users.py").read_bytes() == b"mine"     # not ours to remove
    assert not [n for n in os.listdir(tmp_path / "firmware") if n.endswith(".tmp")]


def test_the_constants_are_in_one_place():
    from firmware import installed_sets, safemode
    from host_tools.device import deploy, drive, link
    assert safemode.MAINTENANCE_PATH is link.MAINTENANCE_PATH is layout.MAINTENANCE_PATH
    assert installed_sets.MELD_DIR is layout.MELD_DIR and sets.set_path("x") == "melds/x.cwm"
    assert deploy.CODE_DIRS is drive.CODE_DIRS is layout.CODE_DIRS
    from core import meldset, meldset_compiler

    from firmware import settings
    # core imports no firmware: a set name's rules are core's, read by the firmware's.
    assert layout.SET_NAME_CHARS is meldset_compiler.SET_NAME_CHARS is meldset.SET_NAME_CHARS
    assert layout.MAX_SET_NAME is meldset_compiler.MAX_SET_NAME is settings.MAX_SET_NAME
    for path in ("host_tools/device/deploy.py", "host_tools/device/drive.py",
                 "host_tools/device/link.py", "firmware/safemode.py",
                 "firmware/installed_sets.py"):
        with open(os.path.join(ROOT, path)) as f:
            text = f.read()
        assert '= "melds"' not in text and '= "maintenance"' not in text, path


@pytest.mark.usefixtures("simulator")
def test_a_flash_opens_the_port_once_and_resets_once(tmp_path, monkeypatch, capsys):
    from mpremote import transport_serial

    from host_tools.cli.main import main
    from host_tools.sim.vboard import VirtualBoard
    with VirtualBoard(str(tmp_path / "flash")) as board:
        assert main(["deploy", "--port", board.port, "--board", "sim", "--json"]) == 0
        opens, code = [], []
        init, exec_no_follow = (transport_serial.SerialTransport.__init__,
                                transport_serial.SerialTransport.exec_raw_no_follow)
        monkeypatch.setattr(transport_serial.SerialTransport, "__init__",
                            lambda self, *a, **k: opens.append(a[0]) or init(self, *a, **k))
        monkeypatch.setattr(transport_serial.SerialTransport, "exec_raw_no_follow",
                            lambda self, c: code.append(c) or exec_no_follow(self, c))
        capsys.readouterr()
        assert main(["meldset", "flash", "jazz", "--port", board.port]) == 0
        out = capsys.readouterr().out
        assert len(opens) == 1, opens
        assert sum(c.count("machine.reset()") for c in code) == 1
        assert "the device says: meld set jazz loaded: 47 melds" in out
        # A set the device's loader refuses: the verdict is its answer, and it keeps its set.
        with SerialTarget(board.port) as serial:
            serial.write("melds/bad.cwm", b"CWM1 not a set")
            with pytest.raises(UserError, match="the device says: "):
                serial.call("use", "bad")
            assert serial.call("state")["active"] == "jazz"
            serial.done()
    assert target.CALL.count("%s") == 1
