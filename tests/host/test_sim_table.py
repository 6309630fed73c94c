"""`chromawheel sim --wheels N`: several simulated wheels in one virtual time, their MIDI jacks
on one bus (host_tools/sim/table.py): a step names its wheel, what one wheel sends the others
hear, each wheel's frames in a file of its own, the same run every time."""

import json

import pytest

from host_tools.cli.main import main
from host_tools.errors import UserError
from host_tools.sim import table

pytestmark = pytest.mark.usefixtures("simulator")

JACKS = {"midi": "both", "midi_port": "jacks"}
# Wheel 2 to listen (the menu's mode item, one back from the explorer), then wheel 1 plays.
TO_LISTEN = "2: long; click; ccw 1; click; long"


def test_a_step_names_its_wheel_or_goes_to_the_last_one_named():
    assert table.parse_script("cw 3; 2: click; ccw 1\n3: long; wait 10", 3) == [
        (0, "cw 3"), (1, "click"), (1, "ccw 1"), (2, "long"), (2, "wait 10")]
    with pytest.raises(UserError) as err:
        table.parse_script("click; 4: click", 3)
    assert str(err.value) == "--script step 2 '4: click': wheel 4, and the table has wheels " \
        "1 to 3"


def test_what_one_wheel_plays_on_its_jacks_the_others_hear(tmp_path):
    results = table.run_script(TO_LISTEN + "; 1: click; wait 200", 2, str(tmp_path),
                               settings=JACKS)
    (frames1, console1), (frames2, console2) = results
    assert console1[-1] == "C minor triad (min): C Eb G"
    assert console2[-1] == "listen: C Eb G: C minor triad (min)"
    played = [f["jacks"] for f in frames1 if f["jacks"]]
    assert played == [[[0x90, 60, 100], [0x90, 63, 100], [0x90, 67, 100]]]
    lit = [pc for pc in range(12) if any(frames2[-1]["wheel"][pc])]
    assert lit == [0, 3, 7]
    for k, frames in ((1, frames1), (2, frames2)):
        with open(str(tmp_path / ("wheel%d.jsonl" % k))) as f:
            assert [json.loads(line) for line in f] == frames
    # The same run again: the same frames (virtual time, the bus handed over between steps).
    again = table.run_script(TO_LISTEN + "; 1: click; wait 200", 2, settings=JACKS)
    assert [frames for frames, _ in again] == [frames1, frames2]


def test_the_bus_carries_31250_baud():
    # A chord change of 24 messages (72 bytes) reaches the other wheel 3 steps later, not at
    # once: 31.25 bytes a 10 ms step.
    bus = table.Bus(2)
    bus.sent(0, bytes(72))
    heard = [bus.step()[1] for _ in range(4)]
    assert [len(chunks) for chunks in heard] == [0, 0, 1, 0]


def test_sim_wheels_from_the_command_line(capsys, tmp_path):
    assert main(["sim", "--wheels", "2", "--script", "1: click; 2: cw 1", "--frames",
                 str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["wheels"]) == 2 and out["wheels"][0]["frames"] >= 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wheel1.jsonl", "wheel2.jsonl"]
    for args, said in ((["--wheels", "5", "--script", "click"], "--wheels 5: a table has 2 "
                        "to 4 wheels"),
                       (["--wheels", "2", "--script", "3: click"], "wheel 3, and the table "
                        "has wheels 1 to 2"),
                       (["--wheels", "2", "--script", "click", "--wav", "x.wav"],
                        "go with one wheel, not --wheels")):
        assert main(["sim"] + args) == 2
        assert said in capsys.readouterr().err
