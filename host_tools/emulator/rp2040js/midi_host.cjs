// The emulated computer's USB MIDI, beside rp2040js's USBCDC (which enumerates the device and
// carries its serial port), and the re-enumeration both need when the device drops off the bus.
//
// The USB controller has one onEndpointWrite and one onEndpointRead callback: this host takes
// them over and hands on to the CDC's whatever is not MIDI. Once the CDC host has read the
// configuration descriptor, the MIDI host looks there for the Audio class (1), MIDIStreaming
// subclass (3) interface and its two bulk endpoints (USB-MIDI 1.0, section 6); a device without
// one (MicroPython's CDC-only configuration) simply has no MIDI.
//
// A real host NAKs a bulk OUT poll while it has nothing to send: rp2040js's CDC host answers
// every poll of the serial port's OUT endpoint at once, with a zero-length packet when it has
// no bytes, so the device re-arms the endpoint and takes a USB interrupt every few tens of
// microseconds, forever (on MicroPython that storm cost the Pico a quarter of its power-up).
// Here a poll with nothing to send is held (the buffer stays armed, as a NAK leaves it) and
// answered once the serial bytes come (serialQueued()).
//
// A device leaves the bus by releasing the pull-up on D+ (SIE_CTRL.PULLUP_EN; MicroPython's
// runtime USB does so for about 50 ms, shared/tinyusb/mp_usbd_runtime.c) and comes back by
// raising it: the host then starts over, bus reset and all, for the CDC and MIDI alike. The
// serial bytes the host had not yet handed over wait (onDrop gives them back) and go after.
//
// MIDI travels as USB-MIDI event packets, 4 bytes each: cable and Code Index Number (CIN),
// then up to 3 MIDI bytes (USB-MIDI 1.0, section 4). send() packs raw MIDI bytes (running
// status, SysEx, real-time bytes anywhere); what the device sends comes back to onMidi as raw
// bytes, one call per transfer.
'use strict';
const { createSetupPacket } = require('rp2040js');

const SIE_CTRL = 0x4c;
const PULLUP_EN = 1 << 16;
const DESCRIPTOR_INTERFACE = 4;
const DESCRIPTOR_ENDPOINT = 5;
const AUDIO = 1;
const MIDI_STREAMING = 3;
const BULK = 2;
const DESCRIPTOR_DEVICE = 1;
const DESCRIPTOR_STRING = 3;
const CS_INTERFACE = 0x24;
const MIDI_IN_JACK = 2;
const MIDI_OUT_JACK = 3;
const ENGLISH = 0x0409;
const GET_DESCRIPTOR = 6;
const PACKET = 4;
const MAX_PACKET = 64;                        // full-speed bulk
const AVAILABLE = 1 << 10;                    // a buffer control's AVAILABLE bit

// USB-MIDI 1.0 table 4-1: how many of a packet's three MIDI bytes each CIN carries (0 and 1
// are reserved / cable events).
const CIN_SIZE = [0, 0, 2, 3, 3, 1, 2, 3, 3, 3, 3, 3, 2, 2, 3, 1];

// Each descriptor of a configuration descriptor as [type, at, length, inMidi]: inMidi from an
// Audio/MIDIStreaming interface descriptor (that one included) to the next interface.
function* descriptorsOf(descriptors) {
  let inMidi = false;
  for (let at = 0; at + 2 <= descriptors.length;) {
    const length = descriptors[at];
    if (length < 2 || at + length > descriptors.length) break;
    const type = descriptors[at + 1];
    if (type === DESCRIPTOR_INTERFACE && length >= 9) {
      inMidi = descriptors[at + 5] === AUDIO && descriptors[at + 6] === MIDI_STREAMING;
    }
    yield [type, at, length, inMidi];
    at += length;
  }
}

// What a configuration descriptor holds, as the host walked it: {interfaces: {number:
// [class, subclass, iInterface, [[endpoint address, attributes, max packet size], ...]]},
// midi: the Audio/MIDIStreaming interface's {interface, in, out} (endpoint numbers), or null}.
// The emulator reports it beside the descriptor's bytes (pico.cjs, C events), so the tests
// read the walk the host itself made rather than walking the bytes again.
// Audio class endpoint descriptors are 9 bytes long (bRefresh, bSynchAddress), not 7.
function walk(descriptors) {
  const interfaces = {};
  const midi = { interface: -1, in: -1, out: -1 };
  let current = null;
  for (const [type, at, length, inMidi] of descriptorsOf(descriptors)) {
    if (type === DESCRIPTOR_INTERFACE && length >= 9) {
      current = descriptors[at + 2];
      interfaces[current] = [descriptors[at + 5], descriptors[at + 6], descriptors[at + 8], []];
      if (inMidi && midi.interface < 0) midi.interface = current;
    } else if (type === DESCRIPTOR_ENDPOINT && length >= 7 && current !== null) {
      const address = descriptors[at + 2];
      const attributes = descriptors[at + 3];
      interfaces[current][3].push([address, attributes, descriptors[at + 4] | (descriptors[at + 5] << 8)]);
      if (inMidi && (attributes & 0x3) === BULK) {
        if (address & 0x80) { if (midi.in < 0) midi.in = address & 0xf; }
        else if (midi.out < 0) midi.out = address & 0xf;
      }
    }
  }
  return { interfaces, midi: midi.in >= 0 && midi.out >= 0 ? midi : null };
}

// The Audio/MIDIStreaming interface's bulk endpoints in a configuration descriptor, or null.
function midiEndpoints(descriptors) {
  return walk(descriptors).midi;
}

// The string indexes that name the MIDI function: [what, index] for the MIDIStreaming
// interface (iInterface) and each of its jacks (iJack), the ones that are set.
function midiNames(descriptors) {
  const out = [];
  for (const [type, at, length, inMidi] of descriptorsOf(descriptors)) {
    if (!inMidi) continue;
    if (type === DESCRIPTOR_INTERFACE && length >= 9) {
      if (descriptors[at + 8]) out.push(['midi', descriptors[at + 8]]);
    } else if (type === CS_INTERFACE && length >= 6) {
      const subtype = descriptors[at + 2];
      // iJack: the last byte of an IN jack (6 bytes) and of an OUT jack (after its sources)
      if ((subtype === MIDI_IN_JACK || subtype === MIDI_OUT_JACK) && descriptors[at + length - 1]) {
        out.push(['jack', descriptors[at + length - 1]]);
      }
    }
  }
  return out;
}

// Raw MIDI bytes of event packets (cable numbers ignored: the devices here have one).
function unpack(buffer) {
  const out = [];
  for (let at = 0; at + PACKET <= buffer.length; at += PACKET) {
    const size = CIN_SIZE[buffer[at] & 0xf];
    for (let k = 1; k <= size; k++) out.push(buffer[at + k]);
  }
  return Buffer.from(out);
}

// Raw MIDI bytes into event packets on cable 0, a byte at a time, as a MIDI wire delivers them.
class Packer {
  constructor() {
    this.status = 0;                          // running status (a channel message's)
    this.need = 0;                            // data bytes the message still needs
    this.data = [];
    this.sysex = null;                        // the bytes of a SysEx message not yet packed
  }

  feed(byte, out) {
    if (byte >= 0xf8) { out.push([0x0f, byte, 0, 0]); return; }   // real time, anywhere
    if (this.sysex) {
      if (byte < 0x80 || byte === 0xf7) {
        this.sysex.push(byte);
        if (byte === 0xf7) this.endSysex(out);
        else if (this.sysex.length === 3) { out.push([0x04, ...this.sysex]); this.sysex = []; }
        return;
      }
      this.sysex = null;                      // a status byte cuts a SysEx short
    }
    if (byte === 0xf0) { this.sysex = [byte]; this.status = 0; return; }
    if (byte >= 0x80) {
      this.data = [byte];
      if (byte < 0xf0) { this.status = byte; this.need = (byte & 0xe0) === 0xc0 ? 1 : 2; }
      else {
        this.status = 0;
        this.need = { 241: 1, 242: 2, 243: 1, 246: 0 }[byte];
        if (this.need === undefined) { this.data = []; return; }     // F4, F5, a lone F7
      }
    } else {
      if (!this.data.length) {
        if (!this.status) return;              // a data byte with no status: dropped
        this.data = [this.status];
        this.need = (this.status & 0xe0) === 0xc0 ? 1 : 2;
      }
      this.data.push(byte);
      this.need -= 1;
    }
    if (this.need === 0) this.flush(out);
  }

  flush(out) {
    const [status] = this.data;
    const cin = status < 0xf0 ? status >> 4 : { 1: 0x5, 2: 0x2, 3: 0x3 }[this.data.length];
    out.push([cin, ...this.data, 0, 0, 0].slice(0, PACKET));
    this.data = [];
  }

  endSysex(out) {
    const bytes = this.sysex;
    out.push([0x04 + bytes.length, ...bytes, 0, 0].slice(0, PACKET));     // CIN 5, 6 or 7
    this.sysex = null;
  }
}

// rp2040js hands an IN endpoint's double-buffered pair to the host buffer 1 first, buffer 0
// second (peripherals/usb.js, DPRAMUpdated): TinyUSB on the RP2040 fills both halves when a
// transfer has more than one packet left, so a 128-byte MIDI transfer would arrive with its
// halves swapped. The pair is put back in wire order: buffer 0, then buffer 1.
function inWireOrder(usb) {
  let held = null;                            // while a buffer control write is handled
  usb.endpointWriteAlarms.forEach((alarm) => {
    const schedule = alarm.schedule.bind(alarm);
    alarm.schedule = (buffer, delay) => {
      if (held) held.push([schedule, buffer, delay]);
      else schedule(buffer, delay);
    };
  });
  const updated = usb.DPRAMUpdated.bind(usb);
  usb.DPRAMUpdated = (offset, value) => {
    // only a buffer control register (0x80-0xff) made available hands buffers over
    if (offset < 0x80 || offset > 0xff || !(value & (AVAILABLE | (AVAILABLE << 16)))) {
      updated(offset, value);
      return;
    }
    held = [];
    try {
      updated(offset, value);
    } finally {
      const pair = held;
      held = null;
      if (pair.length === 2) pair.reverse();
      for (const [schedule, buffer, delay] of pair) schedule(buffer, delay);
    }
  };
}

class UsbMidiHost {
  // hooks: onMidi(bytes) for what the device sends; onConfiguration(descriptor, walked) with
  // the configuration descriptor read at each enumeration and what walk() found in it; onName(what, text) for the names it
  // gives its product ('product'), MIDI interface ('midi') and jacks ('jack'); onDrop(bytes)
  // when the device leaves the bus, with the serial bytes the CDC host had taken but not
  // delivered (they go first when it is back); onUp() when it comes back (the bus reset is
  // under way).
  constructor(mcu, cdc, hooks = {}) {
    this.usb = mcu.usbCtrl;
    this.cdc = cdc;
    this.hooks = hooks;
    this.endpoints = null;
    this.parsed = false;
    this.waiting = 0;                         // bytes the device's OUT endpoint asked for
    this.serialPolls = [];                    // the serial port's OUT polls held (NAKed): sizes
    this.queue = [];                          // packets for the device, oldest first
    this.packer = new Packer();
    this.pullUp = false;
    this.dropped = false;
    this.asking = null;                       // the names still to read, once configured
    this.answer = [];
    const usb = this.usb;
    inWireOrder(usb);
    const cdcWrite = usb.onEndpointWrite;
    const cdcRead = usb.onEndpointRead;
    usb.onEndpointWrite = (endpoint, buffer) => {
      if (this.endpoints && endpoint === this.endpoints.in) {
        const bytes = unpack(buffer);
        if (bytes.length && this.hooks.onMidi) this.hooks.onMidi(bytes);
        return;
      }
      if (endpoint === 0 && this.asking && this.asking.active) {
        this.answered(buffer);
        return;
      }
      const configured = cdc.initialized;
      cdcWrite(endpoint, buffer);
      // The status stage of the CDC's SET_CONTROL_LINE_STATE: enumeration is over, and the
      // control pipe is free to read the names the device gives itself.
      if (endpoint === 0 && !buffer.length && configured && this.asking === null) this.askNames();
      if (endpoint === 0 && !this.parsed && cdc.descriptorsSize !== null
          && cdc.descriptors.length === cdc.descriptorsSize) {
        this.parsed = true;
        const walked = walk(cdc.descriptors);
        this.endpoints = walked.midi;
        if (this.hooks.onConfiguration) {
          this.hooks.onConfiguration(Buffer.from(cdc.descriptors), walked);
        }
      }
    };
    usb.onEndpointRead = (endpoint, size) => {
      if (this.endpoints && endpoint === this.endpoints.out) {
        this.waiting = size;
        this.deliver();
        return;
      }
      if (endpoint === cdc.outEndpoint && endpoint >= 0 && cdc.txFIFO.empty) {
        this.serialPolls.push(size);          // NAK: answered when bytes come
        return;
      }
      cdcRead(endpoint, size);
    };
    this.cdcRead = cdcRead;
    // The controller enabled again (a new tusb_init): a new device as far as the host knows.
    usb.onUSBEnabled = () => { this.startOver(); usb.resetDevice(); };
    const write = usb.writeUint32.bind(usb);
    usb.writeUint32 = (offset, value) => {
      write(offset, value);
      if (offset === SIE_CTRL) this.watchPullUp();
    };
  }

  watchPullUp() {
    const up = !!(this.usb.sieCtrl & PULLUP_EN);
    if (up === this.pullUp) return;
    this.pullUp = up;
    if (!up) {
      this.dropped = true;
      this.drop();
    } else if (this.dropped) {
      // Back on the bus: enumerate it all again (the first rise, at power-up, is enumerated
      // from the controller's enable, as rp2040js's CDC host always did).
      this.dropped = false;
      this.startOver();
      this.usb.resetDevice();
      if (this.hooks.onUp) this.hooks.onUp();
    }
  }

  // The device left: nothing more reaches it, and the serial bytes on their way to it (taken
  // from the CDC host's FIFO, not yet in the device's buffer) come back to the caller.
  drop() {
    const held = [];
    const midiOut = this.endpoints ? this.endpoints.out : -1;
    this.usb.endpointReadAlarms.forEach((alarm, endpoint) => {
      for (const buffer of alarm.buffers) {
        if (endpoint === this.cdc.outEndpoint) held.push(...buffer);
        if (endpoint === midiOut) {
          const packets = [];
          for (let at = 0; at + PACKET <= buffer.length; at += PACKET) {
            packets.push(Array.from(buffer.subarray(at, at + PACKET)));
          }
          this.queue.unshift(...packets);
        }
      }
      alarm.buffers = [];
      alarm.alarm.cancel();
    });
    while (!this.cdc.txFIFO.empty) held.push(this.cdc.txFIFO.pull());
    this.waiting = 0;
    this.serialPolls = [];
    if (this.hooks.onDrop) this.hooks.onDrop(Buffer.from(held));
  }

  startOver() {
    const { cdc } = this;
    cdc.descriptorsSize = null;
    cdc.descriptors = [];
    cdc.initialized = false;
    cdc.inEndpoint = -1;
    cdc.outEndpoint = -1;
    this.parsed = false;
    this.endpoints = null;
    this.waiting = 0;
    this.serialPolls = [];
    this.asking = null;
  }

  // Serial bytes went into the CDC host's FIFO: the polls held for them are answered now, in
  // the order they came (a double-buffered endpoint polls with both halves at once; the one
  // the bytes do not reach ends the transfer short, as rp2040js's CDC host answers a pair).
  serialQueued() {
    const { cdc } = this;
    if (!this.serialPolls.length || cdc.outEndpoint < 0 || cdc.txFIFO.empty) return;
    const polls = this.serialPolls;
    this.serialPolls = [];
    for (const size of polls) this.cdcRead(cdc.outEndpoint, size);
  }

  // GET_DESCRIPTOR requests on the control pipe, one at a time, as a host does after it has
  // configured a device: the device descriptor (for iProduct), then the strings; each name
  // goes to hooks.onName(what, text).
  askNames() {
    this.asking = { active: false, queue: [['device', 0]], index: 0 };
    this.askNext();
  }

  askNext() {
    const { asking } = this;
    if (!asking.queue.length) { asking.active = false; return; }
    const [what, index] = asking.queue[0];
    this.answer = [];
    asking.active = true;
    // (rp2040js's getDescriptorPacket puts its index in wIndex: a string's goes in wValue)
    const device = what === 'device';
    asking.wLength = device ? 18 : 255;
    this.usb.sendSetupPacket(createSetupPacket({
      dataDirection: 1, type: 0, recipient: 0, bRequest: GET_DESCRIPTOR,     // standard, IN
      wValue: ((device ? DESCRIPTOR_DEVICE : DESCRIPTOR_STRING) << 8) | index,
      wIndex: device ? 0 : ENGLISH,
      wLength: asking.wLength,
    }));
  }

  answered(buffer) {
    this.answer.push(...buffer);
    const { asking } = this;
    // The data stage ends with a short packet or at wLength bytes: one of whole packets
    // shorter than asked (a 64-byte string) ends with a zero-length packet (USB 2.0, 5.5.3),
    // which the host waits for before its next SETUP. Sent over that ZLP, a SETUP lands
    // while the device's TinyUSB arms it (CircuitPython 10.2.1's: reset_ep0 aborts EP0 IN
    // between hw_endpoint_xfer_start's active = true and its AVAILABLE write, rp2040js
    // completes the orphaned IN at once, and hw_endpoint_xfer_continue panics "Can't
    // continue xfer on inactive ep", lib/tinyusb/src/portable/raspberrypi/rp2040).
    if (buffer.length === MAX_PACKET && this.answer.length < asking.wLength) return;
    const length = this.answer[0] || 0;
    const [what] = asking.queue.shift();
    const answer = this.answer.slice(0, length);
    if (what === 'device') {
      if (answer[15]) asking.queue.push(['product', answer[15]]);
      if (this.endpoints) asking.queue.push(...midiNames(this.cdc.descriptors));
    } else if (answer[1] === DESCRIPTOR_STRING && this.hooks.onName) {
      this.hooks.onName(what, Buffer.from(answer.slice(2)).toString('utf16le'));
    }
    this.askNext();
  }

  // Raw MIDI bytes for the device, packed; they wait for its MIDI interface if it has none yet.
  send(bytes) {
    const packets = [];
    for (const byte of bytes) this.packer.feed(byte, packets);
    for (const packet of packets) this.queue.push(packet);
    this.deliver();
  }

  deliver() {
    if (!this.endpoints || !this.waiting || !this.queue.length) return;
    const room = Math.floor(Math.min(this.waiting, MAX_PACKET) / PACKET);
    const count = Math.min(this.queue.length, room);
    const buffer = new Uint8Array(count * PACKET);
    for (let k = 0; k < count; k++) buffer.set(this.queue.shift(), k * PACKET);
    this.waiting = 0;
    this.usb.endpointReadDone(this.endpoints.out, buffer);
  }
}

module.exports = { UsbMidiHost, walk, midiEndpoints, midiNames, unpack, Packer };
