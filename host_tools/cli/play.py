"""`chromawheel play GAME`: whole games with random legal moves, every card accounted for
after every move."""

from core.games import bluff, carmony, chord_poker, looking_glass, solitaire
from core.games.rng import Rng

from host_tools.cli import play_other_decks
from host_tools.cli.options import SET_HELP, add_set
from host_tools.cli.output import emit
from host_tools.errors import UserError
from host_tools.set_files import load_set

# Every engine has Game(meldset, players, seed) with .round, .over, .finish_round(), .totals,
# .rounds, and a module-level random_move(round, rng).
GAMES = {"carmony": (carmony, "Carmony"),
         "looking-glass": (looking_glass, "Through the Looking Glass"),
         "chord-poker": (chord_poker, "Chord Poker")}
# The games that deal no meld card: --set means nothing to them.
SET_FREE_GAMES = ("solitaire", "colour-map", "half-whole-step", "alphabet")


def register(commands, common):
    p = commands.add_parser("play", parents=[common],
                            help="play whole games with random legal moves")
    p.add_argument("game", choices=sorted(GAMES) + ["bluff", "solitaire"]
                   + sorted(play_other_decks.GAMES))
    p.add_argument("--players", type=int,
                   help="2 to 4 (default 3); bluff: 2 to 8 (default 4); solitaire: 1; Musicards "
                        "games: 2 to 5; colour-map: 2 to what the deck allows")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--advanced", action="store_true",
                   help="bluff: names must follow the letter rule (spellings can be corrected)")
    p.add_argument("--deck", choices=["full", "half"],
                   help="bluff: default half below 4 players, as the rulebook recommends")
    play_other_decks.register_options(p)
    add_set(p, help=SET_HELP + "; not for %s" % ", ".join(SET_FREE_GAMES))
    p.set_defaults(run=run_play)


def play(game_name, meldset, players, seed):
    engine = GAMES[game_name][0]
    game = engine.Game(meldset, players, seed)
    rng = Rng(seed ^ 0x5EED)
    moves = 0
    while not game.over:
        round_ = game.round
        round_.check_cards()
        while not round_.over:
            round_.apply(engine.random_move(round_, rng))
            round_.check_cards()
            moves += 1
        game.finish_round()
    best = max(game.totals)
    return {"game": game_name, "seed": seed, "players": players, "rounds": game.rounds,
            "totals": game.totals, "moves": moves, "invariants": "ok",
            "winners": [p for p in range(players) if game.totals[p] == best]}


def play_solitaire(seed):
    game = solitaire.Solitaire(seed)
    rng = Rng(seed ^ 0x5EED)
    game.check_cards()
    while not game.over:
        game.apply(solitaire.random_move(game, rng))
        game.check_cards()
    return {"game": "solitaire", "seed": seed, "won": game.won, "moves": game.moves,
            "on_piles": sum(len(p) for p in game.piles), "invariants": "ok"}


def play_bluff(meldset, players, seed, advanced, half_deck):
    game = bluff.Game(meldset, players, seed, advanced=advanced, half_deck=half_deck)
    rng = Rng(seed ^ 0x5EED)
    moves = 0
    game.check_cards()
    while not game.over:
        game.apply(bluff.random_move(game, rng))
        game.check_cards()
        moves += 1
    return {"game": "bluff", "seed": seed, "players": players, "advanced": advanced,
            "deck": "half" if game.half_deck else "full", "ended_by": game.ended_by,
            "winners": game.winners, "hands": [len(h) for h in game.hands],
            "scales_completed": game.scales_done, "calls": game.calls, "moves": moves,
            "invariants": "ok"}


def run_bluff(args):
    players = 4 if args.players is None else args.players
    if not bluff.MIN_PLAYERS <= players <= bluff.MAX_PLAYERS:
        raise UserError("--players %d: Bluff the Scale is for 2 to 8 players" % players)
    half = None if args.deck is None else args.deck == "half"
    ms = load_set(args.set_path)
    results = [play_bluff(ms, players, args.seed + k, args.advanced, half)
               for k in range(args.games)]
    lines = []
    for r in results:
        how = ("out of cards first" if r["ended_by"] == "out"
               else "fewest cards when the scales ran out")
        lines.append("seed %d: winner %s (%s), hands %s, %d scales completed, %d calls, "
                     "%d moves, every card accounted for after every move" % (
                         r["seed"], " and ".join("P%d" % (p + 1) for p in r["winners"]), how,
                         r["hands"], r["scales_completed"], r["calls"], r["moves"]))
    emit(args, results, lines)


def run_play(args):
    if args.games < 1:
        raise UserError("--games %d: at least 1" % args.games)
    if args.game != "bluff" and (args.advanced or args.deck):
        raise UserError("--advanced and --deck are options of bluff only")
    if args.set_path and args.game in SET_FREE_GAMES:
        raise UserError("--set: %s uses no meld set" % args.game)
    if args.game in play_other_decks.GAMES:
        play_other_decks.run(args)
        return
    play_other_decks.check_options(args)
    if args.game == "bluff":
        run_bluff(args)
        return
    if args.game == "solitaire":
        if args.players not in (None, 1):
            raise UserError("--players %d: Chromatic Solitaire is for 1 player" % args.players)
        results = [play_solitaire(args.seed + k) for k in range(max(args.games, 1))]
        emit(args, results, ["seed %d: %s, %d of 96 cards on the piles, %d moves, every card "
                             "accounted for after every move" % (
                                 r["seed"], "won" if r["won"] else "no more moves",
                                 r["on_piles"], r["moves"]) for r in results])
        return
    if args.players is None:
        args.players = 3
    if not 2 <= args.players <= 4:
        raise UserError("--players %d: %s is for 2 to 4 players" % (args.players,
                                                                    GAMES[args.game][1]))
    ms = load_set(args.set_path)
    results = [play(args.game, ms, args.players, args.seed + k) for k in range(args.games)]
    lines = []
    for r in results:
        lines.append("seed %d: rounds %s, totals %s, winner %s, %d moves, every card accounted "
                     "for after every move" % (r["seed"], r["rounds"], r["totals"],
                                               " and ".join("P%d" % (p + 1) for p in r["winners"]),
                                               r["moves"]))
    emit(args, results, lines)
