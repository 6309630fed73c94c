"""The site in build/web served on localhost (`chromawheel web`; the tests and the benchmark
serve it the same way). Web Serial and the page's crypto need a secure context, which
localhost is."""

import functools
import http.server
import os
import sys
import threading

from host_tools.errors import UserError

TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".json": "application/json; charset=utf-8", ".wasm": "application/wasm",
         ".bin": "application/octet-stream", ".png": "image/png", ".svg": "image/svg+xml",
         ".webmanifest": "application/manifest+json", ".md": "text/plain; charset=utf-8"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def end_headers(self):
        # A rebuilt site is always what the page gets (make web while it is open).
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A browser that stops a download (a reload, a closed tab) is no error; anything else
        is one line, never socketserver's traceback."""
        err = sys.exc_info()[1]
        if not isinstance(err, (ConnectionError, TimeoutError)):
            sys.stderr.write("error: serving a request from %s: %s\n" % (client_address[0], err))


class SiteServer:
    """A context manager: the folder served on 127.0.0.1 (port 0: any free one); `url`."""

    def __init__(self, folder, port=0, host="127.0.0.1"):
        if not os.path.exists(os.path.join(folder, "index.html")):
            raise UserError("%s has no site: run make web" % folder)
        handler = functools.partial(_Handler, directory=folder)
        try:
            self.httpd = _Server((host, port), handler)
        except OSError as err:
            raise UserError("cannot serve on %s:%d (%s)"
                            % (host, port, err.strerror or err)) from err
        self.url = "http://%s:%d/" % (host, self.httpd.server_address[1])
        self.thread = None

    def __enter__(self):
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def serve_forever(self):
        try:
            self.httpd.serve_forever()
        finally:
            self.httpd.server_close()
