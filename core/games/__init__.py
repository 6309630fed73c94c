"""The games of the rulebooks, one module per game: rule engines and scoring tables.

What the Carmony family's games share: the deck of 96 NOTE cards, 8 of each note. A NOTE card
is a number 0..95; its note is card // 8."""

NOTE_COPIES = 8
NOTE_CARDS = 12 * NOTE_COPIES


def note_pc(card):
    """The pitch class of a NOTE card."""
    return card // NOTE_COPIES


class RuleError(ValueError):
    """A move the rules do not allow, with the reason."""


class ScoreError(ValueError):
    """Counts or melds that cannot happen at the table."""


def round_winner(scores, dealer, preferred=None):
    """The round's winner: the best score; a tie goes to `preferred` (Carmony: who went out)
    when it is among the best, then to the first player after the dealer, clockwise."""
    best = max(scores)
    if preferred is not None and scores[preferred] == best:
        return preferred
    players = len(scores)
    for k in range(1, players + 1):
        if scores[(dealer + k) % players] == best:
            return (dealer + k) % players
    return dealer


class RoundsGame:
    """Rounds played one after another, their scores added up. A game sets ROUNDS and defines
    new_round() (deal with self.dealer) and next_dealer(scores)."""

    ROUNDS = 1

    def _start(self, players, dealer):
        self.players = players
        self.dealer = dealer
        self.totals = [0] * players
        self.rounds = []
        self.round = self.new_round()

    @property
    def over(self):
        return len(self.rounds) == self.ROUNDS

    def finish_round(self):
        """Score the round just played and, unless that was the last, deal the next one."""
        scores = self.round.scores()
        for p in range(self.players):
            self.totals[p] += scores[p]
        self.rounds.append(scores)
        if not self.over:
            self.dealer = self.next_dealer(scores)
            self.round = self.new_round()
        return scores

    def winners(self):
        best = max(self.totals)
        return [p for p in range(self.players) if self.totals[p] == best]
