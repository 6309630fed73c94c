"""Laptop-side tools. Packages: cli (the command line), device (link, deploy, drive, what goes
onto a board), sim (simulator and virtual board), emulator (the real ports in an emulated
RP2040 and the board models at the pins), bench (make bench), builds (UF2, mip package, font,
wiring pictures). errors, tools and meldfiles are shared by all of them."""

import os

# The project's top folder: boards/, core/, firmware/ and build/ are found from here.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
