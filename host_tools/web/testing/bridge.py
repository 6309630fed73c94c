"""A WebSocket joined to a serial device: the page's Web Serial port, stood in for in the
tests by serial_stand_in.js beside this, reaches the emulated Pico's USB serial (its
pseudo-terminal) through this. Binary messages both ways, byte for byte; one session per
WebSocket, and the device is opened when a session starts and closed when it ends, as a
browser opens and closes a serial port. The server is the websockets library's (threaded),
on 127.0.0.1 only.

`stats` counts sessions and bytes each way, so a test can tell that nothing reached the
board, and how many times the page opened the port."""

import os
import select
import threading

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import serve


class SerialBridge:
    def __init__(self, device, host="127.0.0.1", port=0):
        self.device = device
        self.stats = {"sessions": 0, "to_device": 0, "from_device": 0}
        self._lock = threading.Lock()
        self._server = serve(self._session, host, port, compression=None)
        self.url = "ws://%s:%d/" % (host, self._server.socket.getsockname()[1])
        self._thread = None

    def __enter__(self):
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._thread.join(timeout=3)

    def _count(self, key, n):
        with self._lock:
            self.stats[key] += n

    def _session(self, socket):
        try:
            fd = os.open(self.device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            socket.close()
            return
        self._count("sessions", 1)
        done = threading.Event()
        reader = threading.Thread(target=self._device_to_socket, args=(fd, socket, done),
                                  daemon=True)
        reader.start()
        try:
            for message in socket:
                data = message.encode() if isinstance(message, str) else message
                if data:
                    _write_all(fd, data)
                    self._count("to_device", len(data))
        except (ConnectionClosed, OSError):
            pass
        finally:
            done.set()
            reader.join(timeout=2)
            os.close(fd)

    def _device_to_socket(self, fd, socket, done):
        while not done.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], 0.05)
                if not ready:
                    continue
                data = os.read(fd, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not data:
                continue
            try:
                socket.send(data)
            except (ConnectionClosed, OSError):
                return
            self._count("from_device", len(data))


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [], 0.05)
            continue
        view = view[written:]
