"""A WebSocket joined to a serial device: the page's Web Serial port, stood in for in the
tests by host_tools/web/testing/serial_stand_in.js, reaches the emulated Pico's USB serial
(its pseudo-terminal) through this. Binary messages both ways, byte for byte; one session per
WebSocket, and the device is opened when a session starts and closed when it ends, as a
browser opens and closes a serial port. A small RFC 6455 server on the standard library,
for 127.0.0.1 only.

`stats` counts sessions and bytes each way, so a test can tell that nothing reached the
board."""

import base64
import hashlib
import os
import select
import socket
import struct
import threading

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
CLOSE, PING, PONG = 0x8, 0x9, 0xA


class SerialBridge:
    def __init__(self, device, host="127.0.0.1", port=0):
        self.device = device
        self.listener = socket.create_server((host, port))
        self.url = "ws://%s:%d/" % (host, self.listener.getsockname()[1])
        self.stats = {"sessions": 0, "to_device": 0, "from_device": 0}
        self._stop = threading.Event()
        self._threads = []
        self._lock = threading.Lock()

    def __enter__(self):
        thread = threading.Thread(target=self._accept, daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self.listener.close()
        for thread in self._threads:
            thread.join(timeout=3)

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            thread = threading.Thread(target=self._session, args=(conn,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _count(self, key, n):
        with self._lock:
            self.stats[key] += n

    def _session(self, conn):
        try:
            if not _handshake(conn):
                return
            fd = os.open(self.device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            conn.close()
            return
        self._count("sessions", 1)
        done = threading.Event()
        sending = threading.Lock()            # frames from both threads, never interleaved
        reader = threading.Thread(target=self._device_to_socket,
                                  args=(fd, conn, done, sending), daemon=True)
        reader.start()
        try:
            while not self._stop.is_set():
                frame = _read_frame(conn)
                if frame is None:
                    break
                opcode, payload = frame
                if opcode == CLOSE:
                    with sending:
                        _send(conn, CLOSE, payload[:2])
                    break
                if opcode == PING:
                    with sending:
                        _send(conn, PONG, payload)
                elif opcode in (0x0, 0x1, 0x2) and payload:
                    _write_all(fd, payload)
                    self._count("to_device", len(payload))
        except OSError:
            pass
        finally:
            done.set()
            reader.join(timeout=2)
            os.close(fd)
            conn.close()

    def _device_to_socket(self, fd, conn, done, sending):
        while not done.is_set() and not self._stop.is_set():
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
                with sending:
                    _send(conn, 0x2, data)
            except OSError:
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


def _handshake(conn):
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = conn.recv(4096)
        if not chunk or len(request) > 16384:
            conn.close()
            return False
        request += chunk
    key = None
    for line in request.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"sec-websocket-key":
            key = value.strip()
    if key is None:
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        conn.close()
        return False
    accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
    conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    return True


def _recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _read_frame(conn):
    """(opcode, payload) of the next frame from the browser (masked), or None at the end."""
    head = _recv_exact(conn, 2)
    if head is None:
        return None
    opcode = head[0] & 0x0F
    length = head[1] & 0x7F
    if length == 126:
        raw = _recv_exact(conn, 2)
        if raw is None:
            return None
        length = struct.unpack(">H", raw)[0]
    elif length == 127:
        raw = _recv_exact(conn, 8)
        if raw is None:
            return None
        length = struct.unpack(">Q", raw)[0]
    mask = _recv_exact(conn, 4) if head[1] & 0x80 else b"\0\0\0\0"
    payload = _recv_exact(conn, length) if length else b""
    if mask is None or payload is None:
        return None
    return opcode, bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _send(conn, opcode, payload):
    n = len(payload)
    if n < 126:
        head = struct.pack(">BB", 0x80 | opcode, n)
    elif n < 65536:
        head = struct.pack(">BBH", 0x80 | opcode, 126, n)
    else:
        head = struct.pack(">BBQ", 0x80 | opcode, 127, n)
    conn.sendall(head + payload)
