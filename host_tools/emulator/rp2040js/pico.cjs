// An emulated Raspberry Pi Pico (npm rp2040js) running a MicroPython UF2, its USB serial port
// on this process's stdin and stdout. host_tools/emulator/rp2040.py puts a pty in front of it,
// so mpremote talks to it as to a board.
//   node pico.cjs BOOTROM UF2 [FLASH_IMAGE [BOARD_JSON]]
// With FLASH_IMAGE the flash (firmware and littlefs) lives in that file (flash.cjs): loaded at
// power-up, written through on every erase and program, so it survives a power cycle.
// BOARD_JSON ({"ring": pin, "encoder": [a, b], "button": pin, "ppd": 4, "reset": 0|1|2,
// "events_fd": N, "commands_fd": M}) wires the ChromaWheel board (board.cjs): frames out on
// one pipe, knob commands in on the other. "reset" is
// the watchdog's REASON after a reset (1 timer, 2 forced); a watchdog reset ends this process
// with status 3 (forced: machine.reset()) or 4 (the timer ran out), for the host to power it
// up again with that reason.
// The computer's side of the USB (midi_host.cjs beside rp2040js's CDC host) also plays MIDI
// when the device has a MIDI interface, and enumerates the device afresh when it comes back
// to the bus. Commands (board.cjs's stream, in emulated time):
//   midi HEX    send these raw MIDI bytes to the device, as USB-MIDI event packets
//   serial HEX  type these bytes on the serial port (after any not yet delivered)
//   offbus      hold what follows until the device is off the bus (at once if it is)
// Events:
//   M <ns> <hex>   the raw MIDI bytes the device sent, a line a transfer
//   C <ns> <hex> <json>   the configuration descriptor the host read (at each enumeration),
//               and what its walk found there (midi_host.cjs walk(): the interfaces, their
//               endpoints, the MIDI endpoints it plays on), one JSON object without spaces
//   U <ns>      the host has configured the device (again after each re-enumeration)
//   N <ns> <what> <hex UTF-8>   a name the device gives itself, read after configuring it:
//               "product", "midi" (its MIDIStreaming interface), "jack"
//   D <ns>      the device released its pull-up: it left the bus (serial bytes the host had
//               not delivered wait for it to come back)
// With "uart" in BOARD_JSON ({"uart": 0|1, "tx": gpio, "rx": gpio}: the MIDI jacks) the UART is
// the chip's (uart.cjs: FIFOs, 31,250 baud in emulated time, its interrupts), and
//   J <ns> <hex>   a byte the board sent on its MIDI OUT jack, whole at <ns>
// with the commands
//   jacks HEX   these bytes arrive on the MIDI IN jack from a device sending at 31,250 baud
//   cable off, cable on   the cable from this board's MIDI OUT is pulled out, put back
//   off MS      the power goes for MS ms (event "O <ns> <table ns it comes back at>"): the
//               process ends with status 6, for the host to power the board up then
//   until NS    wait until the table's time NS (ns; with "wire", the boards' shared clock)
// and "wire" ({"in_fd", "out_fd", "offset", "byte_ns"}) its jacks cabled to other boards'
// (wire.cjs): this board's clock starts at the table's time "offset", and runs no further
// than the board cabled into its IN lets it.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const { basename } = require('node:path');
// (before rp2040js loads: its CPU's instruction decode as a table, decode.cjs)
require('./decode.cjs').install();
const { Simulator, USBCDC } = require('rp2040js');
const { attachFlash, loadFlash } = require('./flash.cjs');
const { ringDecoder, knob } = require('./board.cjs');
const { oled, piezo } = require('./parts.cjs');
const { attachPioTiming } = require('./pio_timing.cjs');
const { attachSpinSkip } = require('./spin.cjs');
const { UsbMidiHost } = require('./midi_host.cjs');
const { attachUart } = require('./uart.cjs');
const { attachWire } = require('./wire.cjs');

const [bootromPath, uf2Path, imagePath, boardJson] = process.argv.slice(2);
const board = boardJson ? JSON.parse(boardJson) : null;
const simulator = new Simulator();
const mcu = simulator.rp2040;
const debug = process.env.CHROMAWHEEL_EMULATOR_DEBUG;
mcu.logger = { debug() {}, info() {}, warn(n, m) { if (debug) process.stderr.write(`${n}: ${m}\n`); },
  error(n, m) { process.stderr.write(`${n}: ${m}\n`); } };

// The ring oscillator's RANDOMBIT (0x1c): rp2040js leaves ROSC unimplemented, every read all
// ones, so every emulated board drew the same "random" numbers (CircuitPython's os.urandom
// whitens ROSC bits: two QT Pys at one table drew one link id). Here a generator seeded by the
// flash image's name and the power-up's time on the table, as two real chips' oscillators and
// two power-ups differ; ROSC's other registers read as before.
{
  const rosc = mcu.peripherals[0x40060];
  const read = rosc.readUint32.bind(rosc);
  let seed = (board?.wire?.offset || 0) % 0x7fffffff;
  // (the file's name, not its folder: a table's images lie in a fresh temporary folder each
  // run, and a run must draw what the last one drew)
  for (const c of basename(String(imagePath || ''))) {
    seed = (Math.imul(seed ^ c.charCodeAt(0), 16777619) >>> 0);
  }
  let state = (seed >>> 0) || 0x9e3779b9;
  rosc.readUint32 = (offset) => {
    if (offset !== 0x1c) return read(offset);
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state & 1;
  };
}

const rom = fs.readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));

// UF2: 512-byte blocks, each carrying up to 256 bytes for a flash address (0x10000000 up).
const FLASH_BASE = 0x10000000;
function loadUf2(path) {
  const uf2 = fs.readFileSync(path);
  for (let at = 0; at + 512 <= uf2.length; at += 512) {
    const block = uf2.subarray(at, at + 512);
    if (block.readUInt32LE(0) !== 0x0a324655 || block.readUInt32LE(4) !== 0x9e5d5157) {
      throw new Error(`${path}: block ${at / 512} is not a UF2 block`);
    }
    const address = block.readUInt32LE(12);
    const size = block.readUInt32LE(16);
    mcu.flash.set(block.subarray(32, 32 + size), address - FLASH_BASE);
  }
}
loadFlash(mcu, uf2Path, imagePath || null, loadUf2);
// Sockets, not fs streams: a pending fs read on a pipe holds a thread-pool worker that
// process.exit() would wait for (a reset would hang).
const events = board ? new net.Socket({ fd: board.events_fd, readable: false, writable: true }) : null;
const emit = events ? (line) => events.write(`${line}\n`) : null;
const flashChip = attachFlash(mcu, imagePath || null, emit);

// BOOTSEL: the QSPI chip select, pulled up by the flash and low only while the button is
// held; rp2040js reads the pin low, and CircuitPython's safe-mode check (a held BOOTSEL, read
// through SIO GPIO_HI_IN) would wait for its release forever. The button is never held here.
Object.defineProperty(mcu.qspi[1], 'inputValue', { get: () => true });

const watchdog = mcu.peripherals[0x40058];
const OFF_STATUS = 6;                          // ended by "off": the host powers it up later
let serialEvents = null;
let wire = null;                              // the cables to other boards' jacks (wire.cjs)
let midiAtOnce = [];                          // the knob commands' MIDI of this instant
// `started` (board.cjs): the script waits for the firmware's first line and the frame after
// it (safe mode: any frame), seen here in emulated time, never for the host to notice them.
const STARTED = /meld set |safe mode/;
const start = { said: '', line: null, frames: 0, framesAtLine: 0, resume: null };
function startedNow() {
  const shown = start.line === 'safe mode' ? start.frames > 0 : start.frames > start.framesAtLine;
  if (start.resume && start.line && shown) {
    const resume = start.resume;
    start.resume = null;
    resume();
  }
}
if (board) {
  ringDecoder(mcu, board.ring, emit, () => { start.frames += 1; startedNow(); });
  const display = board.parts?.oled ? oled(mcu, board.parts.oled, emit) : null;
  if (board.parts && board.parts.piezo !== undefined) piezo(mcu, board.parts.piezo, emit);
  serialEvents = (buffer) => {
    if (buffer.length) emit(`S ${Math.round(mcu.clock.nanos)} ${Buffer.from(buffer).toString('hex')}`);
    if (!start.line) {
      start.said = (start.said + Buffer.from(buffer).toString('latin1')).slice(-256);
      const complete = start.said.slice(0, start.said.lastIndexOf('\n') + 1);
      const found = complete.match(STARTED);
      if (found) {
        start.line = found[0].trim();
        start.framesAtLine = start.frames;
        startedNow();
      }
    }
  };
  const verbs = {
    // cut K FRACTION: the power goes FRACTION of the way through the K-th flash operation
    // from now (flash.cjs); the process ends with status 5 and the image keeps the chip's state
    cut: ([k, fraction]) => { flashChip.cutDuring(parseInt(k, 10), parseFloat(fraction)); },
    // serial HEX: the computer types these bytes on the serial port (behind any it has not
    // yet delivered: while the device is off the bus, they wait for it)
    serial: ([hex]) => {
      if (!hex || !/^([0-9a-fA-F]{2})+$/.test(hex)) emit(`? serial ${hex || ''}`);
      else pending = Buffer.concat([pending, Buffer.from(hex, 'hex')]);
    },
    // offbus: hold what follows until the device is off the bus (at once if it is now)
    offbus: (_, resume) => {
      if (usbState.off) return false;
      usbState.whenOff = resume;
      return true;
    },
    // midi HEX: sent with the other MIDI commands of the same emulated instant, in one
    // transfer as a computer's MIDI driver packs what is played at once (the simulator reads
    // them in one pass too), not the first alone and the rest at the device's next poll
    midi: ([hex]) => {
      if (!hex || !/^([0-9a-fA-F]{2})+$/.test(hex)) emit(`? midi ${hex || ''}`);
      else midiAtOnce.push(Buffer.from(hex, 'hex'));
    },
    flush: () => {
      if (!midiAtOnce.length) return;
      const bytes = Buffer.concat(midiAtOnce);
      midiAtOnce = [];
      midiHost.send(bytes);
    },
    started: (_, resume) => {
      start.resume = resume;
      startedNow();
      return start.resume !== null;
    },
  };
  if (display) verbs.unplug = () => display.unplug();
  if (board.uart) Object.assign(verbs, jackVerbs(board, emit));
  const command = knob(mcu, board, emit, verbs);
  let partial = '';
  new net.Socket({ fd: board.commands_fd, readable: true, writable: false }).on('data', (chunk) => {
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop();
    lines.forEach(command);
    wake();
  });
  watchdog.reason = board.reset || 0;
}
// The MIDI jacks: the chip's UART on the board file's pins, bytes sent reported (and onto the
// cable when there is one), and the verbs that play into the IN jack, pull the OUT cable, cut
// the power for a while and wait for the table's time.
function jackVerbs(config, emit) {
  let receive = () => {};
  if (config.wire) {
    wire = attachWire(config.wire, mcu.clock, {
      receive: (byte, byteNanos) => receive(byte, byteNanos),
      resume: () => simulator.execute(),
    });
  }
  const uart = attachUart(mcu, config.uart, (byte, endNanos, byteNanos) => {
    emit(`J ${Math.round(endNanos)} ${byte.toString(16).padStart(2, '0')}`);
    if (wire) wire.sent(byte, endNanos, byteNanos);
  });
  receive = uart.receive;
  const byteNanos = config.wire ? config.wire.byte_ns : 320000;
  const playing = [];                         // bytes a device plays into MIDI IN, in turn
  const player = mcu.clock.createAlarm(() => {
    uart.receive(playing.shift(), byteNanos);
    if (playing.length) player.schedule(byteNanos);
  });
  const toTable = (nanos) => (wire ? wire.toTable(nanos) : Math.round(nanos));
  return {
    jacks: ([hex]) => {
      if (!hex || !/^([0-9a-fA-F]{2})+$/.test(hex)) { emit(`? jacks ${hex || ''}`); return; }
      const idle = !playing.length;
      playing.push(...Buffer.from(hex, 'hex'));
      if (idle) player.schedule(byteNanos);   // the first byte ends a byte time from now
    },
    cable: ([state]) => {
      if (!wire || (state !== 'on' && state !== 'off')) { emit(`? cable ${state || ''}`); return; }
      wire.plugged = state === 'on';
    },
    off: ([ms]) => {
      const until = toTable(mcu.clock.nanos) + parseInt(ms, 10) * 1000000;
      emit(`O ${Math.round(mcu.clock.nanos)} ${until}`);
      simulator.stop();
      const end = () => events.end(() => process.exit(OFF_STATUS));
      if (wire) wire.off(until, end);
      else end();
      return true;                            // nothing after it runs in this process
    },
    until: ([ns], resume) => {
      const delay = Number(ns) - toTable(mcu.clock.nanos);
      if (delay < 0) { emit(`? until ${ns} late by ${-delay}`); return false; }
      mcu.clock.createAlarm(resume).schedule(delay);
      return true;
    },
  };
}

watchdog.onWatchdogTrigger = () => {
  if (process.env.CHROMAWHEEL_EMULATOR_DEBUG) process.stderr.write(`watchdog reset, reason ${watchdog.reason}\n`);
  simulator.stop();
  const status = watchdog.reason === 1 ? 4 : 3;   // the flash image is already current
  if (!wire) process.exit(status);
  // Cabled: the chip comes back at once, at the table's time now (event "Z <ns>"), its
  // neighbour told to wait for it there.
  emit(`Z ${Math.round(mcu.clock.nanos)}`);
  wire.off(wire.toTable(mcu.clock.nanos), () => events.end(() => process.exit(status)));
};

// The host's bytes wait here: the CDC FIFO drops what does not fit, so it is fed only as it
// has room, every 1024 instructions of the emulation loop (below).
const cdc = new USBCDC(mcu.usbCtrl);
let pending = Buffer.alloc(0);
let connected = false;
cdc.onDeviceConnected = () => {
  connected = true;
  if (debug && pending.length) process.stderr.write(`usb: back, ${pending.length} bytes go\n`);
  if (emit) emit(`U ${Math.round(mcu.clock.nanos)}`);     // the host has configured the device
};
cdc.onSerialData = (buffer) => {
  process.stdout.write(Buffer.from(buffer));
  if (serialEvents) serialEvents(buffer);      // the same bytes, timed, beside the frames
};
// MIDI beside the CDC, and a device that leaves the bus and comes back enumerated afresh.
const usbState = { off: false, whenOff: null };
const midiHost = new UsbMidiHost(mcu, cdc, {
  onMidi: (bytes) => {
    if (emit) emit(`M ${Math.round(mcu.clock.nanos)} ${bytes.toString('hex')}`);
  },
  onName: (what, text) => {
    if (emit) emit(`N ${Math.round(mcu.clock.nanos)} ${what} ${Buffer.from(text).toString('hex')}`);
  },
  onConfiguration: (descriptor, walked) => {
    if (emit) {
      emit(`C ${Math.round(mcu.clock.nanos)} ${descriptor.toString('hex')} ${JSON.stringify(walked)}`);
    }
  },
  onDrop: (held) => {
    connected = false;
    pending = Buffer.concat([held, pending]);
    if (debug) process.stderr.write(`usb: off the bus, ${pending.length} bytes wait\n`);
    if (emit) emit(`D ${Math.round(mcu.clock.nanos)}`);
    usbState.off = true;
    if (usbState.whenOff) {
      const resume = usbState.whenOff;
      usbState.whenOff = null;
      resume();
    }
  },
  onUp: () => {
    usbState.off = false;
  },
});
process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  talking();
  wake();
});
process.stdin.on('end', () => { simulator.stop(); process.exit(0); });
function feed() {
  if (!connected || !pending.length) return;
  const count = Math.min(cdc.txFIFO.size - cdc.txFIFO.itemCount, pending.length);
  for (let k = 0; k < count; k++) cdc.sendSerialByte(pending[k]);
  pending = pending.subarray(count);
  if (count) midiHost.serialQueued();        // the device's OUT poll waited for them
}

// rp2040js finds a peripheral by its number in an object keyed by large integers, a dictionary
// V8 hashes into at every peripheral access and every store (6% of a CircuitPython run): the
// same map as a dense array, built once (the chip's peripherals are fixed when it is made).
const peripheralTable = new Array(0x40000).fill(null);
for (const [key, peripheral] of Object.entries(mcu.peripherals)) {
  if (Number(key) % 4 === 0) peripheralTable[Number(key) >>> 2] = peripheral;
}
mcu.findPeripheral = (address) => peripheralTable[address >>> 14];

// The PIO ticks on the emulated clock at each state machine's divided clock, with its delay
// cycles (pio_timing.cjs; rp2040js runs it on wall-clock timers and ignores both).
const CYCLE_NANOS = 1e9 / 125000000;          // both ports run the RP2040 at 125 MHz
const pioTiming = attachPioTiming(mcu, CYCLE_NANOS);

// While the computer talks to the board on its serial port (its last bytes came less than
// TALK_MS ago), the sleeping CPU's clock runs no faster than the wall clock, as a real board's
// does: the app's watchdog (8 s from the Ctrl-C that stops it) and the firmware's waits then
// meet the computer's round trips (a browser's Web Serial behind a bridge: seconds) as on a
// chip, where jumping from alarm to alarm let 8 emulated seconds pass in under 5 wall ones.
// (Running ahead there gained nothing: the computer is what the board waits for.) Otherwise
// the clock jumps at once, and what the knob's commands and a script do, in emulated time, is
// the same either way.
const TALK_MS = 1000;
const STEP_NANOS = 1000000;                   // a step of the paced clock: 1 ms
let talkedAt = null;                          // wall ms of the computer's last bytes
let pace = null;                              // {wall, nanos}: the paced clock's last step
function talking() {
  talkedAt = performance.now();
  if (!pace) pace = { wall: talkedAt, nanos: mcu.clock.nanos };
}
// How far the sleeping CPU's clock may go now (ns): Infinity unless the computer is talking.
function paceLimit() {
  if (talkedAt === null) return Infinity;
  const wall = performance.now();
  if (wall - talkedAt > TALK_MS) {
    talkedAt = null;
    pace = null;
    return Infinity;
  }
  const allowed = pace.nanos + (wall - pace.wall) * 1e6;
  if (allowed < mcu.clock.nanos) return allowed;     // ahead of the wall clock: wait for it
  pace.wall = wall;
  pace.nanos = mcu.clock.nanos;
  return pace.nanos + STEP_NANOS;
}

// A CPU spinning on the timer (CircuitPython's power-up windows) moves on in steps of
// emulated time, never past what the sleeping CPU's clock may reach (spin.cjs).
attachSpinSkip(mcu, CYCLE_NANOS, () => Math.min(
  mcu.clock.nextAlarm ? mcu.clock.nextAlarm.nanos : Infinity, pioTiming.dueNanos, paceLimit()));

// A CPU asleep with no alarm, no state machine running and no board cabled in wakes only for
// what the host sends (its serial bytes, a knob's command): the slice ends there, and the next
// starts when they come (wake()), or a millisecond later, not at once. (It ran slice after
// slice of nothing at once: an emulator waiting on mpremote or the page's installer kept a core
// busy, 61% of its CPU in an install.)
let asleep = false;
function wake() {
  if (!asleep || simulator.stopped || simulator.executeTimer === null) return;
  asleep = false;
  clearTimeout(simulator.executeTimer);
  simulator.executeTimer = null;
  simulator.executeImmediate = setImmediate(() => simulator.execute());
}

simulator.execute = function execute() {
  const { clock } = this;
  const core = mcu.core;
  this.executeTimer = null;
  this.stopped = false;
  let paced = false;
  asleep = false;
  // A board cabled to another runs no further than that one has promised (wire.cjs); it is
  // resumed when the promise moves on.
  const horizon = wire ? wire.horizon : Infinity;
  let blocked = false;
  // Slices of 200k instructions (rp2040js: 1M): the host's bytes, which arrive between
  // slices, wait less (a raw-REPL round trip is several of them).
  for (let i = 0; i < 200000 && !this.stopped; i++) {
    if (core.waiting) {
      // The CPU sleeps until its next alarm (rp2040js: the clock jumps there); running state
      // machines tick through the gap, and one may wake the CPU earlier.
      const alarm = clock.nextAlarm;
      const pioDue = pioTiming.due < Infinity;
      if (alarm || pioDue || horizon < Infinity) {
        let until = alarm ? alarm.nanos : clock.nanos + 1000000;
        const limit = paceLimit();
        if (until > limit) {
          if (limit <= clock.nanos) {
            paced = true;                     // the wall clock has to catch up
            break;
          }
          until = limit;
        }
        if (until > horizon) {
          if (horizon <= clock.nanos) {
            blocked = true;                   // the board cabled in has to catch up
            break;
          }
          until = horizon;
        }
        const reached = pioDue ? pioTiming.idle(until) : until;
        i += (reached - clock.nanos) / CYCLE_NANOS;
        clock.tick(reached - clock.nanos);
      } else if (!connected || !pending.length) {
        asleep = true;                        // nothing due: only the host can wake it
        break;
      }
      // The host's bytes, also while the CPU sleeps: the count above jumps, and a device
      // waiting for them (its OUT poll held, not answered empty) would sleep on.
      feed();
    } else {
      // clock.tick(), its alarm list walked only when an alarm is due (most instructions)
      const delta = core.executeInstruction() * CYCLE_NANOS;
      const target = clock.nanosCounter + delta;
      const next = clock.nextAlarm;
      if (next !== null && next.nanos <= target) clock.tick(delta);
      else clock.nanosCounter = target;
      // (dueNanos is a little early, so the exact test, a division, runs only near a tick;
      // due is whole: due <= x is due <= floor(x), without a call a cycle)
      if (clock.nanosCounter >= pioTiming.dueNanos) {
        const now = (clock.nanosCounter / CYCLE_NANOS) * 256;
        if (pioTiming.due <= now) pioTiming.catchUp(Math.floor(now));
      }
      if (clock.nanosCounter >= horizon) {
        blocked = true;
        break;
      }
    }
    if ((i & 0x3ff) === 0) feed();           // the host's bytes, as the FIFO makes room
  }
  // setImmediate, not rp2040js's setTimeout(0): Node holds a timer at least 1 ms, and a
  // sleeping firmware ends a slice every 1.6 emulated ms (the jumps count as instructions
  // above), so the wall clock waited about as long as the emulated one ran. An immediate
  // still lets the host's bytes and the knob's commands in between slices.
  if (this.stopped) return;
  if (wire) {
    wire.report(clock.nanos);
    if (blocked && clock.nanos >= wire.horizon) {
      wire.blocked = true;                    // wire.cjs resumes it
      return;
    }
  }
  if (paced || asleep) this.executeTimer = setTimeout(() => this.execute(), 1);
  else this.executeImmediate = setImmediate(() => this.execute());
};
const stopSimulator = simulator.stop;
simulator.stop = function stop() {
  if (this.executeImmediate) clearImmediate(this.executeImmediate);
  this.executeImmediate = null;
  stopSimulator.call(this);
};

mcu.core.PC = FLASH_BASE;
simulator.execute();
