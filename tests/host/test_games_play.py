"""Thousands of seeded random games per engine, and `chromawheel play`."""

import json

from core.games import carmony, chord_poker, looking_glass, solitaire
from core.games.rng import Rng
from host_tools.cli import main
from host_tools.cmd_play import play
from host_tools.meldfiles import load_set


def test_a_thousand_seeded_games_keep_every_card():
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
    assert result[0]["totals"] == [1950, 1360] and result[0]["invariants"] == "ok"
    assert result[0] == play("carmony", load_set(), 2, 11)
    assert main(["play", "carmony", "--players", "5"]) == 2
    assert capsys.readouterr().err == "error: --players 5: Carmony is for 2 to 4 players\n"
    assert main(["play", "looking-glass", "--players", "4", "--seed", "3", "--games", "3",
                 "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [len(r["rounds"]) for r in results] == [2, 2, 2]


def test_a_thousand_seeded_looking_glass_games_keep_every_card():
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


def test_a_thousand_seeded_chord_poker_games_keep_every_card():
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


def test_a_thousand_seeded_solitaire_games_keep_every_card():
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
