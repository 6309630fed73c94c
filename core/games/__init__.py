"""The games of the rulebooks, one module per game: scoring tables now, rule engines to come."""


class ScoreError(ValueError):
    """Counts or melds that cannot happen at the table."""
