"""`chromawheel play GAME`: whole games with random legal moves, every card accounted for
after every move. (Carmony, the original, so far.)"""

from core.games import carmony
from core.games.rng import Rng

from host_tools.errors import UserError
from host_tools.meldfiles import load_set
from host_tools.output import emit

GAMES = ("carmony",)


def register(commands, common):
    p = commands.add_parser("play", parents=[common],
                            help="play whole games with random legal moves")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=1)
    p.set_defaults(run=run_play)


def play_carmony(meldset, players, seed):
    game = carmony.Game(meldset, players, seed)
    rng = Rng(seed ^ 0x5EED)
    moves = 0
    while not game.over:
        round_ = game.round
        round_.check_cards()
        while not round_.over:
            round_.apply(carmony.random_move(round_, rng))
            round_.check_cards()
            moves += 1
        game.finish_round()
    return {"seed": seed, "players": players, "rounds": game.rounds, "totals": game.totals,
            "winners": game.winners(), "moves": moves, "invariants": "ok"}


def run_play(args):
    if not 2 <= args.players <= 4:
        raise UserError("--players %d: Carmony is for 2 to 4 players" % args.players)
    if args.games < 1:
        raise UserError("--games %d: at least 1" % args.games)
    ms = load_set(args.set_path)
    results = [play_carmony(ms, args.players, args.seed + k) for k in range(args.games)]
    lines = []
    for r in results:
        lines.append("seed %d: rounds %s, totals %s, winner %s, %d moves, every card accounted "
                     "for after every move" % (r["seed"], r["rounds"], r["totals"],
                                               " and ".join("player %d" % p for p in r["winners"]),
                                               r["moves"]))
    emit(args, results, lines)
