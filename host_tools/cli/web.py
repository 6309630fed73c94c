"""`chromawheel web`: the wheel in a browser. Builds the static site (build/web: the firmware on
MicroPython WebAssembly with board `web`, and the meld-set studio) and serves it on localhost."""

import os
import signal
import sys

from host_tools import IN_CHECKOUT
from host_tools.cli.output import emit
from host_tools.errors import UserError

DEFAULT_PORT = 8000


def register(commands, common):
    p = commands.add_parser(
        "web", parents=[common],
        help="the wheel and the meld-set studio in a browser (serves build/web on localhost)",
        description="Builds build/web (the firmware's own modules, the compiled default set, "
        "the pinned MicroPython WebAssembly runtime and the page) and serves it on "
        "127.0.0.1, printing the address. In the page: drag, scroll or arrow-key the knob, "
        "click the button (space, d, l as in the terminal simulator); ?script=STEPS plays the "
        "simulator's script language. The studio validates a meld set with the core's own "
        "validator and flashes it over Web Serial (Chrome, Edge).")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help="port on 127.0.0.1 (default %d; 0: any free one)" % DEFAULT_PORT)
    what = p.add_mutually_exclusive_group()
    what.add_argument("--build-only", action="store_true",
                      help="build build/web and stop (make web)")
    what.add_argument("--no-build", action="store_true",
                      help="serve build/web as it is")
    p.set_defaults(run=run_web)


def run_web(args):
    from host_tools.web import build, server
    if not 0 <= args.port <= 65535:
        raise UserError("--port %d: 0 to 65535" % args.port)
    report = None
    if not IN_CHECKOUT:
        # An installed tool carries the site built into its wheel; building needs a checkout.
        if args.build_only:
            raise UserError("--build-only: this installed chromawheel carries its site ready "
                            "built; building one needs a checkout (make web)")
        if not os.path.isfile(os.path.join(build.OUT, "index.html")):
            raise UserError("this chromawheel was packaged without its web site (a wheel built "
                            "without make web): install a release wheel, or run make web in a "
                            "checkout")
        args.no_build = True
    if not args.no_build:
        report = build.build(progress=(lambda line: None) if args.json else print)
    if args.build_only:
        emit(args, report, [])
        return 0
    site = server.SiteServer(build.OUT, args.port)
    folder = os.path.relpath(build.OUT) if IN_CHECKOUT else build.OUT
    emit(args, {"url": site.url, "folder": folder},
         ["ChromaWheel at %s  (Ctrl-C stops)" % site.url])
    sys.stdout.flush()
    # Ctrl-C stops it even where the parent started it with SIGINT ignored (a test runner's
    # worker), and so does a plain kill.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        site.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0
