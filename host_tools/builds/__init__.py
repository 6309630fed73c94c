"""Builds: the frozen UF2, the mip package, the display font, the wiring pictures."""
