"""`make bench`: figures, printed (never a timed test)."""
