"""Thousands of seeded random games per engine, and `chromawheel play`."""

import json

from core.games import bluff, carmony, chord_poker, looking_glass, solitaire
from core.games.rng import Rng
from core.meldset import MeldSet
from core.meldset_compiler import compile_source

from host_tools.cli.main import main
from host_tools.cli.play import play
from host_tools.set_files import load_set


def test_a_thousand_seeded_games_keep_every_card(soak):
    ms = load_set()
    ends = {"went out": 0, "deck ran out": 0}
    for seed in range(1000):
        players = 2 + seed % 3
        game = carmony.Game(ms, players, seed)
        rng = Rng(seed)
        while not game.over:
            round_ = game.round
            while not round_.over:
                round_.apply(carmony.random_move(round_, rng))
            round_.check_cards()            # every move is checked in the core cases
            ends["went out" if round_.went_out is not None else "deck ran out"] += 1
            game.finish_round()
        assert len(game.rounds) == 3
    assert ends["went out"] > 0 and ends["deck ran out"] > 0


def test_play_command(capsys):
    assert main(["play", "carmony", "--players", "2", "--seed", "11", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result[0]["totals"] == [1770, 1420] and result[0]["invariants"] == "ok"
    assert result[0] == play("carmony", load_set(), 2, 11)
    assert main(["play", "carmony", "--players", "5"]) == 2
    assert capsys.readouterr().err == "error: --players 5: Carmony is for 2 to 4 players\n"
    assert main(["play", "looking-glass", "--players", "4", "--seed", "3", "--games", "3",
                 "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [len(r["rounds"]) for r in results] == [2, 2, 2]


def test_a_thousand_seeded_looking_glass_games_keep_every_card(soak):
    ms = load_set()
    rabbits = 0
    for seed in range(1000):
        game = looking_glass.Game(ms, 2 + seed % 3, seed)
        rng = Rng(seed)
        while not game.over:
            round_ = game.round
            while not round_.over:
                round_.apply(looking_glass.random_move(round_, rng))
                round_.check_cards()
            rabbits += sum(round_.rabbits)
            game.finish_round()
    assert rabbits > 0


def test_a_thousand_seeded_chord_poker_games_keep_every_card(soak):
    ms = load_set()
    completed = 0
    for seed in range(1000):
        game = chord_poker.Game(ms, 2 + seed % 3, seed)
        rng = Rng(seed)
        while not game.over:
            round_ = game.round
            while not round_.over:
                round_.apply(chord_poker.random_move(round_, rng))
                round_.check_cards()
            completed += round_.completed_by is not None
            game.finish_round()
        assert len(game.rounds) == 4
    assert completed > 0


def test_play_chord_poker(capsys):
    assert main(["play", "chord-poker", "--players", "2", "--seed", "31", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["totals"] == [39, 50]


def test_a_thousand_seeded_solitaire_games_keep_every_card(soak):
    wins = 0
    for seed in range(1000):
        game = solitaire.Solitaire(seed)
        rng = Rng(seed)
        while not game.over:
            game.apply(solitaire.random_move(game, rng))
        game.check_cards()
        wins += game.won
    assert wins > 0                      # a random player does win sometimes


def test_play_solitaire(capsys):
    assert main(["play", "solitaire", "--seed", "3", "--games", "2", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["invariants"] for r in results] == ["ok", "ok"]
    assert main(["play", "solitaire", "--players", "2"]) == 2
    assert capsys.readouterr().err == ("error: --players 2: Chromatic Solitaire is for 1 "
                                       "player\n")


def test_a_thousand_seeded_bluff_games_keep_every_card(soak):
    ms = load_set()
    corrections = 0
    for seed in range(1000):
        game = bluff.Game(ms, 2 + seed % 7, seed, advanced=seed % 2 == 1)
        rng = Rng(seed)
        while not game.over:
            move = bluff.random_move(game, rng)
            corrections += move[0] == "correct"
            game.apply(move)
            game.check_cards()
        assert game.winners
    assert corrections > 0


def test_bluff_games_also_end_when_the_scales_run_out(soak):
    # With 15 SCALE cards someone is nearly always out first; a set of three scales reaches
    # the other end: "If all the scales are completed and no one has run out".
    source = {"format": "chromawheel-meldset", "version": 1, "name": "three",
              "title": "three scales", "melds": [
                  {"id": "major", "name": "major", "kind": "scale",
                   "degrees": ["1", "2", "3", "4", "5", "6", "7"]},
                  {"id": "blues", "name": "blues", "kind": "scale",
                   "degrees": ["1", "b3", "4", "b5", "5", "b7"]},
                  {"id": "chromatic", "name": "chromatic", "kind": "scale",
                   "degrees": ["1", "b2", "2", "b3", "3", "4", "#4", "5", "b6", "6", "b7",
                               "7"]}]}
    ms = MeldSet(compile_source(source, "three.json"))
    ends = {"out": 0, "scales": 0}
    for seed in range(300):
        game = bluff.Game(ms, 2 + seed % 7, seed, advanced=True)
        rng = Rng(seed)
        while not game.over:
            game.apply(bluff.random_move(game, rng))
            game.check_cards()
        ends[game.ended_by] += 1
        if game.ended_by == "scales":
            fewest = min(len(h) for h in game.hands)
            assert [len(game.hands[p]) for p in game.winners] == [fewest] * len(game.winners)
    assert ends["out"] > 0 and ends["scales"] > 0


def test_play_bluff(capsys):
    assert main(["play", "bluff", "--players", "5", "--seed", "42", "--advanced",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)[0]
    assert result["winners"] == [3] and result["hands"] == [28, 20, 26, 0, 7]
    assert result["deck"] == "full" and result["invariants"] == "ok"
    assert main(["play", "bluff", "--players", "3", "--deck", "full", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["deck"] == "full"
    assert main(["play", "bluff", "--players", "9"]) == 2
    assert capsys.readouterr().err == "error: --players 9: Bluff the Scale is for 2 to 8 players\n"
    assert main(["play", "carmony", "--advanced"]) == 2
    assert "bluff only" in capsys.readouterr().err


def play_out(game, random_move, seed):
    rng = Rng(seed)
    moves = 0
    while not game.over:
        game.apply(random_move(game, rng))
        game.check_cards()
        moves += 1
    return moves


def test_hundreds_of_seeded_musicards_games_keep_every_card(soak):
    from core.games import half_whole_step, musical_alphabet, musicards
    penalties = calls = 0
    for seed in range(400):
        for game in (half_whole_step.Game(2 + seed % 4, seed),
                     musical_alphabet.Game(2 + seed % 4, seed, 2 + seed % 6)):
            play_out(game, musicards.random_move, seed)
            assert not game.hands[game.winner]
            penalties += game.penalties
            calls += game.reshuffles
    assert penalties > 0 and calls > 0


def test_hundreds_of_seeded_keys_corners_games_keep_every_card(soak):
    from core.games import keys_corners
    kinds = set()
    scales = ((0, 2, 4, 5, 7, 9, 11), (2, 4, 6, 7, 9, 11, 1), (9, 11, 0, 2, 4), tuple(range(12)))
    for seed in range(400):
        game = keys_corners.Game(2 + seed % 4, seed, scales[seed % 4])
        play_out(game, keys_corners.random_move, seed)
        assert not [h for h in game.hands if h] and not game.stock
        kinds.update(kind for books in game.books for kind, _ in books)
    assert kinds == {"scale", "stack"}


def test_hundreds_of_seeded_colour_map_games_keep_every_card(soak):
    from core.games import colour_map
    ends = set()
    variants = ({}, {"safesong": True}, {"safesong": True, "toned_down": True,
                                         "dissonance": True},
                {"purple_wild": True}, {"cooperative": True},
                {"safesong": True, "purple_wild": True, "cooperative": True})
    for seed in range(300):
        game = colour_map.Game(2 + seed % 3, seed, **variants[seed % len(variants)])
        play_out(game, colour_map.random_move, seed)
        ends.add(game.ended_by)
    assert {"out", "hands"} <= ends


def test_play_the_other_rulebooks(capsys):
    assert main(["play", "alphabet", "--interval", "3", "--players", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)[0]
    assert result["invariants"] == "ok" and not result["hands"][result["winner"]]
    assert main(["play", "keys-corners", "--key", "D", "--scale", "major", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)[0]
    assert result["scale"] == ["D", "E", "F#", "G", "A", "B", "C#"]
    assert main(["play", "colour-map", "--safesong", "--toned-down", "--games", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("over 3 games: totals")
    assert main(["play", "half-whole-step", "--players", "6"]) == 2
    assert capsys.readouterr().err == "error: Half step / Whole step is for 2 to 5 players, " \
        "not 6\n"
    for bad, message in ((["carmony", "--interval", "3"], "--interval is not an option of "
                          "carmony"),
                         (["alphabet", "--safesong"], "--safesong is not an option of "
                          "alphabet"),
                         (["alphabet", "--interval", "8"], "the interval is a Second to a "
                          "Seventh (2-7), not 8"),
                         (["alphabet", "--interval", "0"], "not 0"),
                         (["carmony", "--interval", "0"], "--interval is not an option"),
                         (["keys-corners", "--scale", "maj"], "--scale maj: no scale of that "
                          "name"),
                         (["colour-map", "--dissonance"], "Toned Down and Dissonance are "
                          "rules of the Safesong expansion")):
        assert main(["play"] + bad) == 2, bad
        assert message in capsys.readouterr().err
