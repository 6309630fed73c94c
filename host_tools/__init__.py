"""Laptop-side tools. Packages: cli (the command line), device (link, deploy, drive, what goes
onto a board), sim (simulator and virtual board), emulator (the real ports in an emulated
RP2040 and the board models at the pins), bench (make bench), builds (UF2, mip package, font,
wiring pictures). errors, tools and set_files are shared by all of them.

The same code runs from a checkout and from an installed wheel. What differs is where things
are, and this module is the one place that says so:
- ROOT: the folder holding the packages core/, hardware/, firmware/ and host_tools/;
- shipped(...): data the project ships beside its packages: boards/ and, once built, the web
  site (in a checkout: boards/ and build/web; in a wheel: inside host_tools/shipped/);
- cache(...): where the tools write (in a checkout: build/; installed: the user's cache
  folder, or $CHROMAWHEEL_CACHE)."""

import os

__version__ = "0.1.0"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# A checkout (or an unpacked sdist) has the project file beside the packages; site-packages
# never does.
IN_CHECKOUT = os.path.isfile(os.path.join(ROOT, "pyproject.toml"))
# In a checkout the shipped data stays where the developers keep it.
_CHECKOUT_PLACES = {"boards": ("boards",), "web": ("build", "web")}


def shipped(what, *parts):
    """Path of shipped data `what` ('boards' or 'web'), then `parts` inside it."""
    if IN_CHECKOUT:
        return os.path.join(ROOT, *(_CHECKOUT_PLACES[what] + parts))
    return os.path.join(HERE, "shipped", what, *parts)


def _user_cache():
    chosen = os.environ.get("CHROMAWHEEL_CACHE")
    if chosen:
        return os.path.abspath(chosen)
    try:
        from platformdirs import user_cache_dir
    except ImportError:                    # mpremote brings platformdirs; this is a fallback
        return os.path.join(os.path.expanduser("~"), ".cache", "chromawheel")
    return user_cache_dir("chromawheel", appauthor=False)


def cache(*parts):
    """A writable place for what the tools build or fetch (compiled modules, flash folders,
    the emulator's images and npm packages, the device libraries)."""
    if IN_CHECKOUT and not os.environ.get("CHROMAWHEEL_CACHE"):
        return os.path.join(ROOT, "build", *parts)
    return os.path.join(_user_cache(), *parts)
