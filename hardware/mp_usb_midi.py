"""USB MIDI on MicroPython's machine.USBDevice (rp2, MicroPython 1.28), beside the built-in CDC
REPL: the same shape as CircuitPython's usb_midi PortIn/PortOut (raw MIDI byte streams).

The device keeps MicroPython's own descriptors (BUILTIN_CDC) and appends a USB-MIDI 1.0
function of its own: an AudioControl interface (class 1, subclass 1, required to point at the
MIDI one) and a MIDIStreaming interface (class 1, subclass 3) with one embedded and one
external jack each way and a bulk endpoint pair; the product, the MIDI interface and its jacks
are named `name`. start() makes the device leave the bus for about 50 ms
(shared/tinyusb/mp_usbd_runtime.c) and come back with CDC and MIDI; a soft reset clears the
runtime device (CDC only again), so MIDI is started by the program, never in boot.py (which
runs at every soft reset: mpremote would lose the board each time).

Nothing allocates once started: the transfers use preallocated buffers, queued packets wait in
a ring (a 12-note chord with the previous chord's note-offs is 24 packets, 96 bytes: one
128-byte transfer), received bytes wait in another. The transfer callbacks run from the
scheduler (the TinyUSB task), so write() only queues and has the transfer submitted from the
scheduler too: the two never interleave."""

import time

import machine
import micropython
from micropython import const

_TX_XFER = const(128)             # bytes a transfer to the host carries (32 packets)
_TX_RING = const(512)             # packets waiting for the host (power of two)
_RX_XFER = const(64)              # one full-speed bulk packet: 16 event packets
_RX_RING = const(256)             # raw bytes received, waiting for readinto (power of two)
_RX_ROOM = const(48)              # the most raw bytes one received transfer can carry
_EP_SIZE = const(64)
_OPEN_MS = const(1000)            # how long start() waits for the host to configure us (a
#                                   computer takes about 60 ms; a charger never does, and the
#                                   ring stays dark meanwhile)
_SETTLE_MS = const(10)            # then for the host to reopen the serial port (DTR)
_XFER_OK = const(0)               # TinyUSB's XFER_RESULT_SUCCESS (xfer_cb's `result`)



def ptr8(buf):
    """viper's cast, where a deploy drops the decorator (a port without machine code): plain
    Python indexes the buffer itself."""
    return buf


# USB-MIDI 1.0 table 4-1: the MIDI bytes each Code Index Number's packet carries.
_CIN_SIZE = b"\x00\x00\x02\x03\x03\x01\x02\x03\x03\x03\x03\x03\x02\x02\x03\x01"


def descriptors(builtin, name_index):
    """The configuration descriptor: MicroPython's built-in one (CDC), its interface count and
    length updated, and the MIDI function after it (USB-MIDI 1.0, appendix B). Returns
    (descriptor, MIDIStreaming interface number, OUT endpoint, IN endpoint)."""
    control = builtin.itf_max                 # the AudioControl interface
    streaming = control + 1
    ep_out = builtin.ep_max                   # OUT and IN share the number
    ep_in = ep_out | 0x80
    midi = bytes((
        # AudioControl interface, no endpoints, and its class header pointing at streaming
        9, 4, control, 0, 0, 1, 1, 0, 0,
        9, 0x24, 1, 0x00, 0x01, 9, 0, 1, streaming,
        # MIDIStreaming interface, two endpoints, and its class header (wTotalLength: the
        # class-specific descriptors below, 7 + 2 * (6 + 9) + 2 * (9 + 5) = 65)
        9, 4, streaming, 0, 2, 1, 3, 0, name_index,
        7, 0x24, 1, 0x00, 0x01, 65, 0,
        # MIDI IN jacks: 1 embedded (from the host), 2 external; MIDI OUT jacks: 3 embedded
        # (to the host) fed by jack 2, 4 external fed by jack 1
        6, 0x24, 2, 1, 1, name_index,
        6, 0x24, 2, 2, 2, 0,
        9, 0x24, 3, 1, 3, 1, 2, 1, name_index,
        9, 0x24, 3, 2, 4, 1, 1, 1, 0,
        # bulk OUT endpoint (Audio: 9 bytes) and its class descriptor: into embedded IN jack 1
        9, 5, ep_out, 2, _EP_SIZE, 0, 0, 0, 0,
        5, 0x25, 1, 1, 1,
        # bulk IN endpoint, fed by embedded OUT jack 3
        9, 5, ep_in, 2, _EP_SIZE, 0, 0, 0, 0,
        5, 0x25, 1, 1, 3,
    ))
    cfg = bytearray(builtin.desc_cfg)
    cfg += midi
    cfg[2] = len(cfg) & 0xFF                  # wTotalLength
    cfg[3] = len(cfg) >> 8
    cfg[4] = streaming + 1                    # bNumInterfaces
    return bytes(cfg), streaming, ep_out, ep_in


class UsbMidi:
    """USB MIDI beside the REPL. start() once from the program (not from a scheduled callback:
    it waits for the host); then readinto() and write() move raw MIDI bytes, allocating
    nothing. on_receive, if set, is called with no arguments when bytes have arrived: through
    micropython.schedule, just after the USB task that received them (it may print, write and
    read; it runs once for bytes that arrive while it is queued)."""

    def __init__(self, name="ChromaWheel"):
        self.name = name
        self.on_receive = None
        self.dropped = 0                      # received messages with no room (never, as the
                                              # endpoint is re-armed only when there is room)
        self._usbd = None
        self._open = False
        self._itf = -1
        self._ep_out = 0
        self._ep_in = 0
        self._tx = bytearray(_TX_XFER)
        # a view per transfer length (4, 8, ... 128 bytes): made now, not per transfer
        whole = memoryview(self._tx)
        self._tx_views = [whole[:n] for n in range(4, _TX_XFER + 1, 4)]
        self._inflight = 0                    # bytes of the transfer the host has not taken
        self._ring = bytearray(_TX_RING)
        self._head = 0                        # write() advances it
        self._tail = 0                        # the transfer callback advances it
        self._rx_xfer = bytearray(_RX_XFER)
        self._rx = bytearray(_RX_RING)
        self._rx_head = 0                     # the transfer callback advances it
        self._rx_tail = 0                     # readinto() advances it
        self._rx_armed = False
        # the message being packed: status (kept: running status), data bytes wanted and had
        self._status = 0
        self._need = 0
        self._have = 0
        self._d1 = 0
        self._sysex = False
        self._sx = bytearray(3)
        self._sxn = 0
        self._kick_queued = False
        self._kick_bound = self._kick         # bound once: schedule() then allocates nothing
        self._heard_queued = False
        self._heard_bound = self._heard

    # -- the program's side --------------------------------------------------------------

    def start(self):
        """Give the device its MIDI interface: it leaves the bus and comes back with the REPL's
        CDC and MIDI. True once the host has configured MIDI (False if no host did within
        1 s: a charger, or a host with the port closed)."""
        usbd = machine.USBDevice()
        try:
            builtin = usbd.BUILTIN_CDC
        except AttributeError:
            raise OSError("this MicroPython has no built-in USB serial (BUILTIN_CDC) to "
                          "keep") from None
        # strings: the built-in ones stay (None), the product becomes `name`, and ours follows
        strs = [None] * builtin.str_max
        strs[builtin.desc_dev[15]] = self.name        # iProduct
        name_index = len(strs)
        strs.append(self.name)
        cfg, self._itf, self._ep_out, self._ep_in = descriptors(builtin, name_index)
        self._open = False
        usbd.active(False)
        # (the stubs lack it: the C type handles this attribute itself, machine_usb_device.c)
        usbd.builtin_driver = builtin  # type: ignore[attr-defined]
        usbd.config(builtin.desc_dev, cfg, strs, open_itf_cb=self._open_itf,
                    reset_cb=self._reset, xfer_cb=self._xfer)
        self._usbd = usbd
        usbd.active(True)                     # re-enumerates, from the TinyUSB task
        deadline = time.ticks_add(time.ticks_ms(), _OPEN_MS)
        while not self._open:
            if time.ticks_diff(deadline, time.ticks_ms()) <= 0:
                return False
            time.sleep_ms(1)
        time.sleep_ms(_SETTLE_MS)
        return True

    def stop(self):
        """Back to MicroPython's own USB device (CDC only): it re-enumerates again."""
        usbd = self._usbd
        if usbd is None:
            return
        self._open = False
        builtin = usbd.BUILTIN_CDC
        usbd.active(False)
        usbd.config(builtin.desc_dev, builtin.desc_cfg, None)
        usbd.active(True)
        self._usbd = None

    @property
    def connected(self):
        """Whether the host has configured the MIDI interface."""
        return self._open

    def readinto(self, buf):
        """Raw MIDI bytes received since the last call into buf; how many (0: none)."""
        n = self._take(buf, len(buf))
        if n and not self._rx_armed:
            self._schedule_kick()             # room again: the host may send more
        return n

    def waiting(self):
        """Whether received bytes wait for readinto() (its wake calls the loop anyway)."""
        return self._rx_head != self._rx_tail

    @micropython.viper
    def _take(self, buf, size: int) -> int:
        # machine code (a MIDI note's way to the LEDs waits on it): the ring into buf
        out = ptr8(buf)
        rx = ptr8(self._rx)
        t = int(self._rx_tail)
        h = int(self._rx_head)
        n = 0
        while n < size and t != h:
            out[n] = rx[t]
            t = (t + 1) & (_RX_RING - 1)
            n += 1
        self._rx_tail = t
        return n

    def write(self, buf, n=None):
        """Raw MIDI bytes (whole messages) to the host, queued as USB-MIDI event packets and
        sent from the scheduler. Returns how many were taken: all, unless the queue is full
        (512 bytes of packets), 0 while the host has not configured MIDI."""
        if not self._open:
            return 0
        if n is None:
            n = len(buf)
        ring = self._ring
        h = self._head
        free = (self._tail - h - 4) & (_TX_RING - 1)     # a packet's room stays between the ends
        sysex = self._sysex
        status = 0                            # the last inline message's, stored once at the end
        i = 0
        while i < n:
            if free < 4:
                free = (self._tail - h - 4) & (_TX_RING - 1)     # the host may have taken some
                if free < 4:
                    break                     # full: the caller gets the count taken
            b = buf[i]
            # the common case inline (a whole note, controller or pitch-bend message)
            if (0x80 <= b < 0xC0 or 0xE0 <= b < 0xF0) and not sysex and i + 2 < n \
                    and buf[i + 1] < 0x80 and buf[i + 2] < 0x80:
                ring[h] = b >> 4              # cable 0, CIN = the status's high nibble
                ring[h + 1] = b
                ring[h + 2] = buf[i + 1]
                ring[h + 3] = buf[i + 2]
                h = (h + 4) & (_TX_RING - 1)
                free -= 4
                status = b
                i += 3
                continue
            if status:
                self._status = status         # running status from here (a 3-byte message)
                self._need = 2
                self._have = 0
                status = 0
            self._head = h
            self._pack(b)                     # anything else, a byte at a time
            h = self._head
            free = (self._tail - h - 4) & (_TX_RING - 1)
            sysex = self._sysex
            i += 1
        self._head = h
        if status:
            self._status = status
            self._need = 2
            self._have = 0
        if i:
            self._schedule_kick()
        return i

    # -- packing ---------------------------------------------------------------------------

    def _pack(self, b):
        if b >= 0xF8:                         # real time: one byte, anywhere
            self._put(0x0F, b, 0, 0)
            return
        if self._sysex:
            if b < 0x80 or b == 0xF7:
                sx = self._sx
                sx[self._sxn] = b
                self._sxn += 1
                if b == 0xF7:                 # CIN 5, 6, 7: the end with 1, 2, 3 bytes
                    self._put(4 + self._sxn, sx[0], sx[1] if self._sxn > 1 else 0,
                              sx[2] if self._sxn > 2 else 0)
                    self._sysex = False
                    self._sxn = 0
                elif self._sxn == 3:
                    self._put(0x04, sx[0], sx[1], sx[2])
                    self._sxn = 0
                return
            self._sysex = False               # a status byte cuts it short
            self._sxn = 0
        if b >= 0x80:
            self._status_byte(b)
            return
        status = self._status
        if not status:
            return                            # a data byte without a status: dropped
        if self._have == 0:
            self._d1 = b
            self._have = 1
            if self._need == 2:
                return
            d1, d2 = b, 0
        else:
            d1, d2 = self._d1, b
        self._have = 0
        if status < 0xF0:
            self._put(status >> 4, status, d1, d2)    # the status stays: running status
        else:
            self._put(0x02 if self._need == 1 else 0x03, status, d1, d2)
            self._status = 0

    def _status_byte(self, b):
        """A status byte (not real time): the message it starts, or sent at once."""
        self._have = 0
        if b < 0xF0:
            self._status = b
            self._need = 1 if (b & 0xE0) == 0xC0 else 2
        elif b == 0xF0:
            self._status = 0
            self._sysex = True
            self._sx[0] = b
            self._sxn = 1
        elif b == 0xF6:
            self._status = 0
            self._put(0x05, b, 0, 0)
        elif b == 0xF1 or b == 0xF3:
            self._status = b
            self._need = 1
        elif b == 0xF2:
            self._status = b
            self._need = 2
        else:                             # F4, F5, a stray F7: nothing to send
            self._status = 0

    def _put(self, cin, b0, b1, b2):
        ring = self._ring
        h = self._head
        ring[h] = cin                         # cable 0
        ring[h + 1] = b0
        ring[h + 2] = b1
        ring[h + 3] = b2
        self._head = (h + 4) & (_TX_RING - 1)

    # -- the scheduler's side (TinyUSB task, scheduled callbacks) ----------------------------

    def _schedule_kick(self):
        if self._kick_queued:
            return
        self._kick_queued = True
        try:
            micropython.schedule(self._kick_bound, None)
        except RuntimeError:                  # the queue is full: the next call tries again
            self._kick_queued = False

    def _kick(self, _):
        self._kick_queued = False
        if not self._open:
            return
        try:
            if not self._inflight and self._head != self._tail:
                n = (self._head - self._tail) & (_TX_RING - 1)
                if n > _TX_XFER:
                    n = _TX_XFER
                ring = self._ring
                tx = self._tx
                t = self._tail
                k = 0
                while k < n:                  # a packet at a time (never split by the wrap)
                    tx[k] = ring[t]
                    tx[k + 1] = ring[t + 1]
                    tx[k + 2] = ring[t + 2]
                    tx[k + 3] = ring[t + 3]
                    t = (t + 4) & (_TX_RING - 1)
                    k += 4
                if self._usbd.submit_xfer(self._ep_in, self._tx_views[(n >> 2) - 1]):
                    self._inflight = n
            room = (self._rx_tail - self._rx_head - 1) & (_RX_RING - 1)
            if not self._rx_armed and room >= _RX_ROOM:     # else readinto() re-arms it
                self._rx_armed = self._usbd.submit_xfer(self._ep_out, self._rx_xfer)
        except OSError:                       # not active (any more): the host left
            pass

    def _open_itf(self, desc):
        if desc[2] != self._itf:
            return                            # the AudioControl interface: nothing to do
        self._open = True
        self._inflight = 0
        self._tail = self._head               # nothing from before the host was there
        self._rx_armed = False
        self._kick(None)

    def _reset(self):
        # a bus reset: transfers under way never complete, and what was queued is stale
        self._open = False
        self._inflight = 0
        self._rx_armed = False
        self._tail = self._head
        self._status = 0
        self._have = 0
        self._sysex = False
        self._sxn = 0

    def _xfer(self, ep, result, count):
        if ep == self._ep_in:
            if self._inflight:
                self._tail = (self._tail + self._inflight) & (_TX_RING - 1)
                self._inflight = 0
            self._kick(None)
            return
        if ep != self._ep_out:
            return
        self._rx_armed = False
        if result == _XFER_OK and self._unpack(count) and self.on_receive is not None:
            self._schedule_heard()
        # The OUT endpoint armed again after on_receive's pass (the scheduler keeps the order):
        # the LEDs first; the host holds what it has meanwhile (a NAK).
        self._schedule_kick()

    def _schedule_heard(self):
        # Not called from _xfer: that is the TinyUSB task, where a print that waits for the
        # serial port would raise ("TinyUSB callback can't recurse"). (Its own function: a
        # try block in _xfer would put _xfer's frame on the heap at every packet.)
        if self._heard_queued:
            return
        self._heard_queued = True
        try:
            micropython.schedule(self._heard_bound, None)
        except RuntimeError:                  # the queue is full: the program's poll reads it
            self._heard_queued = False

    def _heard(self, _):
        self._heard_queued = False
        callback = self.on_receive
        if callback is not None:
            callback()

    @micropython.viper
    def _unpack(self, count: int) -> int:
        """The received packets' MIDI bytes into the ring (cable 0; SysEx dropped); 1 when
        some came. Machine code: it runs for every packet a keyboard sends."""
        p = ptr8(self._rx_xfer)
        rx = ptr8(self._rx)
        sizes = ptr8(_CIN_SIZE)
        h = int(self._rx_head)
        tail = int(self._rx_tail)
        dropped = 0
        got = 0
        at = 0
        while at + 4 <= count:
            head = p[at]
            cin = head & 0x0F
            size = sizes[cin]
            if head >> 4 or cin == 0x04 or cin == 0x06 or cin == 0x07 or \
                    (cin == 0x05 and p[at + 1] != 0xF6):
                size = 0                      # another cable, or SysEx
            if size:
                if ((tail - h - 1) & (_RX_RING - 1)) < size:
                    dropped += 1
                else:
                    k = 1
                    while k <= size:
                        rx[h] = p[at + k]
                        h = (h + 1) & (_RX_RING - 1)
                        k += 1
                    got = 1
            at += 4
        self._rx_head = h
        if dropped:
            self.dropped = int(self.dropped) + dropped
        return got
