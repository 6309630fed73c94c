"""`chromawheel play` for the Musicards games and the colour-map pairs game: whole games with
random legal moves (mistakes and calls included), every card accounted for after every move."""

from core import degrees
from core.games import (
    RuleError,
    colour_map,
    half_whole_step,
    keys_corners,
    musical_alphabet,
    musicards,
)
from core.games.rng import Rng
from core.melds import find
from core.notes import format_note, note_pc
from core.parse import NoteError, parse_note
from core.spelling import spell

from host_tools.cli.output import emit
from host_tools.errors import UserError
from host_tools.set_files import load_set, read_source

# game -> (title, the options it takes beyond --players/--seed/--games)
GAMES = {
    "half-whole-step": ("Half step / Whole step", ("chromatic_out",)),
    "alphabet": ("the Musical Alphabet", ("interval", "chromatic_out")),
    "keys-corners": ("Key's Corners", ("key", "scale")),
    "colour-map": ("the colour-map pairs game", ("deck_file", "safesong", "toned_down",
                                                 "dissonance", "purple_wild", "cooperative")),
}
OPTIONS = ("interval", "chromatic_out", "key", "scale", "deck_file", "safesong", "toned_down",
           "dissonance", "purple_wild", "cooperative")


def register_options(p):
    p.add_argument("--interval", type=int, metavar="2-7",
                   help="alphabet: Seconds (2, default) to Sevenths (7), counting both letters")
    p.add_argument("--chromatic-out", action="store_true",
                   help="half-whole-step, alphabet: the two Chromatic Scale cards are taken "
                        "out (references, not wilds)")
    p.add_argument("--key", metavar="NOTE", help="keys-corners: the keynote (default C)")
    p.add_argument("--scale", metavar="MELD",
                   help="keys-corners: a scale of the meld set (default major)")
    p.add_argument("--deck-file", metavar="PATH",
                   help="colour-map: another deck (JSON, see core/games/colour_map_deck.json)")
    for flag, text in (("--safesong", "the Safesong expansion"),
                       ("--toned-down", "Safesong's optional Toned Down rule"),
                       ("--dissonance", "Safesong's optional Dissonance rule"),
                       ("--purple-wild", "purple is a wildcard"),
                       ("--cooperative", "everyone wins or loses together")):
        p.add_argument(flag, action="store_true", help="colour-map: " + text)


def check_options(args):
    """Options given for a game that does not take them are an error, not silently ignored."""
    allowed = GAMES[args.game][1] if args.game in GAMES else ()
    for name in OPTIONS:
        value = getattr(args, name)
        if value is not None and value is not False and name not in allowed:
            raise UserError("--%s is not an option of %s" % (name.replace("_", "-"), args.game))


def _play_out(game, random_move, seed):
    rng = Rng(seed ^ 0x5EED)
    moves = 0
    game.check_cards()
    while not game.over:
        game.apply(random_move(game, rng))
        game.check_cards()
        moves += 1
    return moves


def _new_game(args, seed, players):
    try:
        if args.game == "half-whole-step":
            return (half_whole_step.Game(players, seed, args.chromatic_out),
                    musicards.random_move)
        if args.game == "alphabet":
            interval = 2 if args.interval is None else args.interval
            return (musical_alphabet.Game(players, seed, interval, args.chromatic_out),
                    musicards.random_move)
        if args.game == "keys-corners":
            return keys_corners.Game(players, seed, args.scale_pcs), keys_corners.random_move
        return colour_map.Game(players, seed, args.deck, args.safesong, args.toned_down,
                               args.dissonance, args.purple_wild,
                               args.cooperative), colour_map.random_move
    except RuleError as err:
        raise UserError(str(err)) from err


def _scale(args):
    """(pitch classes, spelled names) of --key/--scale in the meld set."""
    ms = load_set(args.set_path)
    try:
        key = parse_note(args.key or "C")
    except NoteError as err:
        raise UserError("--key %s: %s" % (args.key, err)) from err
    try:
        i = find(ms, args.scale or "major")
    except KeyError as err:
        raise UserError("--scale: %s" % err.args[0]) from err
    if ms.kind(i) != 2:
        raise UserError("--scale %s: no scale of that name in the meld set (see "
                        "'chromawheel melds --kind scale')" % (args.scale or "major"))
    codes = ms.meld_codes(i)
    pcs = [(note_pc(key) + degrees.semitones(code)) % 12 for code in codes]
    return pcs, [format_note(spell(key, code)) for code in codes], ms.meld_name(i)


def run(args):
    check_options(args)
    players = 3 if args.players is None else args.players
    if args.game == "keys-corners":
        args.scale_pcs, names, scale_name = _scale(args)
        if len(set(args.scale_pcs)) != len(args.scale_pcs):
            raise UserError("--scale %s: a scale with a note twice cannot be spelled in corners"
                            % args.scale)
    if args.game == "colour-map":
        args.deck = None
        if args.deck_file:
            try:
                args.deck = colour_map.load_deck(read_source(args.deck_file), args.deck_file)
            except colour_map.DeckError as err:
                raise UserError(str(err)) from err
    results = []
    lines = []
    for k in range(args.games):
        seed = args.seed + k
        game, random_move = _new_game(args, seed, players)
        moves = _play_out(game, random_move, seed)
        result = {"game": args.game, "seed": seed, "players": players, "moves": moves,
                  "invariants": "ok"}
        if args.game in ("half-whole-step", "alphabet"):
            result.update({"winner": game.winner, "hands": [len(h) for h in game.hands],
                           "penalties": game.penalties, "reshuffles": game.reshuffles})
            text = "winner P%d, hands %s, %d penalties, %d reshuffles" % (
                game.winner + 1, result["hands"], game.penalties, game.reshuffles)
        elif args.game == "keys-corners":
            books = [[kind for kind, _ in b] for b in game.books]
            result.update({"scale": names, "scores": game.scores(),
                           "winners": game.winners(), "books": books})
            text = "%s %s: %s; scores %s, winners %s" % (
                names[0], scale_name, " ".join(names), game.scores(),
                " and ".join("P%d" % (p + 1) for p in game.winners()))
        else:
            result.update({"ended_by": game.ended_by, "scores": game.scores(),
                           "winners": game.winners(), "map_cards": len(game.map),
                           "cards_given": game.given})
            if args.cooperative:
                result["cooperative_won"] = game.cooperative_won()
                result["piles_notes"] = [sum(game.deck[c][2] for c in pile)
                                         for pile in game.piles]
                text = "ended (%s); colour piles hold %s notes: %s" % (
                    game.ended_by, result["piles_notes"],
                    "all win" if result["cooperative_won"] else "all lose")
            else:
                how = game.ended_by
                if how == "out":
                    how = "out of cards: %s" % " and ".join(
                        "P%d" % (p + 1) for p in range(players) if not game.hands[p])
                text = "ended (%s); scores %s, best %s" % (
                    how, game.scores(),
                    " and ".join("P%d" % (p + 1) for p in game.winners()))
        results.append(result)
        lines.append("seed %d: %s, %d moves, every card accounted for after every move" % (
            seed, text, moves))
    if args.game == "colour-map" and not args.cooperative and args.games > 1:
        totals = [sum(r["scores"][p] for r in results) for p in range(players)]
        best = max(totals)
        lines.append("over %d games: totals %s, best %s" % (
            args.games, totals, " and ".join("P%d" % (p + 1) for p in range(players)
                                             if totals[p] == best)))
    emit(args, results, lines)
