"""A seeded 2-player round of The Original played by the rule engine, each player playing its
best turn, replayed in the simulator on two linked wheels with seats (host_tools/bench/
round_play.py, host_tools/sim/table.py): each wheel is told only what its own player does, the
other player's doings reach it over the table link, and each ends with its player's hand and
MELD cards as the engine has them, the table's melds in its frames' "table", one table log on
both, and each pad's totals equal to `chromawheel score carmony` for each player."""

import json

import pytest

from core.games import note_pc
from core.hand import counts_of
from core.parse import pc_of

from host_tools.bench import round_play
from host_tools.cli.main import main
from host_tools.set_files import load_set

pytestmark = pytest.mark.usefixtures("simulator")


def cli_total(capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)["total"]


def last_frame_with(frames, key):
    return [f for f in frames if key in f][-1]


def test_a_seeded_round_on_two_linked_wheels_ends_with_the_engines_hands_and_scores(capsys):
    # Seed 48: the pile taken four times, an eat, a turn that ends without a discard (the
    # last card may not go), going out by a discard (the bench replays seed 46 and seeds
    # 1-20 the same way: make bench).
    ms = load_set(None)
    replay, runs = round_play.replayed(ms, 48)
    engine = replay.round
    totals = [cli_total(capsys, round_play.cli_score(ms, engine, p)) for p in range(2)]
    table = []
    for p in range(2):
        for card, _, notes in engine.table[p]:
            table.append((p + 1, ms.meld_id(engine.meld_of[card]),
                          sorted(note_pc(c) for c in notes)))
    links = []
    for p, (frames, console) in enumerate(runs):
        assert not [line for line in console if "Error" in line or "not kept" in line]
        held = sorted(ms.meld_id(engine.meld_of[c]) for c in engine.meld_hands[p])
        if engine.hands[p]:
            end = [f for f in frames if "click again: the cards left" in f.get("console", "")]
            hand = end[-1]
        else:
            hand = last_frame_with(frames, "hand")       # went out: the hand is empty
        assert hand["hand"] == list(counts_of([note_pc(c) for c in engine.hands[p]]))
        assert sorted(hand["held"]) == held
        shown = sorted((m["seat"], m["id"], sorted(pc_of(n) for n in m["notes"]))
                       for m in hand["table"])
        assert shown == sorted(table)
        assert last_frame_with(frames, "score")["score"]["totals"] == totals
        links.append(last_frame_with(frames, "link")["link"])
    assert [link["seat"] for link in links] == [1, 2]
    assert links[0]["digest"] == links[1]["digest"]


def test_seed_285_the_pile_s_single_card_alone_in_hand_passes_the_turn():
    # Seed 285: a play leaves P1 only F F, F taken as the pile's single card: the rulebook bars
    # its discard and the engine passes the turn without one; so does the wheel's long press.
    ms = load_set(None)
    replay, runs = round_play.replayed(ms, 285)
    assert round_play.replay_agrees(ms, replay, runs)
    console = runs[0][1]
    assert [line for line in console if line.startswith(
        "hand: F F (F was the pile's only card and the hand holds no other: not discarded, "
        "the turn passes); P2 to play")]


def test_seed_13_the_other_going_out_with_a_play_brings_the_hand_face_back():
    # Seed 13: P1 goes out with a play; P2's wheel hears it over the link and leaves its
    # table face for the hand (its cards left to count, a new round), with no press.
    ms = load_set(None)
    replay, runs = round_play.replayed(ms, 13)
    assert replay.round.went_out == 0 and replay.round.phase == "main"
    assert round_play.replay_agrees(ms, replay, runs)
    console = runs[1][1]
    out = [k for k, line in enumerate(console) if "(P1 went out: the round is over (the "
           "answers' new round counts your cards left))" in line]
    assert out and "P1 to play, cursor" not in console[out[0]]
