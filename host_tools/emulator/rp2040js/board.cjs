// The ChromaWheel board around the emulated RP2040: the WS2812 ring read off its pin, the
// knob and the button driven on theirs, both in emulated time.
//
// Ring: every edge of the ring's data pin is timed on the emulator's clock; a high time of
// 0.25-0.55 us is a 0 bit and 0.65-0.95 us a 1 bit (WS2812B datasheet: T0H 0.4 us, T1H
// 0.8 us, each +-150 ns), anything else is counted as a timing fault; the line low for more
// than 50 us (the datasheet's reset time, RES) ends a frame. Frames go out as
//   F <ns of the last fall> <hex bytes> <faults> <shortest bit period ns> <longest> <ns of
//     the first rise>
// Knob and button: commands, one a line, run one after another in emulated time:
//   turn N      N detents (negative: anticlockwise) as quadrature edges, 1 ms apart, each
//               with contact bounce (a flick back 40 us later, settled 40 us after that);
//               the edge that completes a detent is reported as "K <ns>"
//   press, release   the push switch (to ground: active low, pulled up)
//   wait MS     let MS milliseconds of emulated time pass
//   done        answer "E <ns>" when everything before it has run
//   started     hold what follows until the firmware has started: its first line
//               ("meld set ..." or "safe mode") on the USB serial and a frame on the ring,
//               so a script starts at the same emulated moment on every run
//   unplug      the OLED stops answering (parts.cjs), when the board has one
//   cut K F     the power goes F of the way through the K-th flash operation (flash.cjs)
//   midi HEX    the computer sends these raw MIDI bytes to the device over USB MIDI
//               (midi_host.cjs); what the device sends comes out as "M <ns> <hex bytes>"
//   serial HEX  the computer types these bytes on the USB serial port (after any it holds)
//   offbus      hold what follows until the device is off the USB bus (its pull-up released;
//               at once if it is): typed bytes then wait for it to come back
'use strict';

const FORWARD = [3, 1, 0, 2];                 // clockwise from rest (A B = 1 1): A leads B
const EDGE_NS = 1000000;
const BOUNCE_NS = 40000;
const RESET_NS = 50000;
const [LOW, HIGH, PULL_UP, PULL_DOWN] = [0, 1, 3, 4];      // rp2040js GPIOPinState

function ringDecoder(mcu, pin, emit, onFrame = () => {}) {
  let lastRise = 0;
  let lastFall = 0;
  let firstRise = 0;
  let bits = [];
  let faults = 0;
  let shortest = Infinity;
  let longest = 0;
  const clock = mcu.clock;
  const end = clock.createAlarm(() => flush());

  function flush() {
    if (!bits.length) return;
    const bytes = [];
    for (let i = 0; i + 8 <= bits.length; i += 8) {
      let value = 0;
      for (let b = 0; b < 8; b++) value = (value << 1) | bits[i + b];
      bytes.push(value);
    }
    if (bits.length % 8) faults += 1;
    emit(`F ${Math.round(lastFall)} ${Buffer.from(bytes).toString('hex')} ${faults} ${
      Math.round(shortest === Infinity ? 0 : shortest)} ${Math.round(longest)} ${
      Math.round(firstRise)}`);
    bits = [];
    faults = 0;
    shortest = Infinity;
    longest = 0;
    onFrame();
  }

  // The line's level (rp2040js GPIOPinState): driven high or low; undriven, pulled up or
  // down, or else held where it was (the wire's capacitance: a WS2812 input has no pull). So
  // a pin handed from the PIO back to SIO, floating for a moment between gpio_init() and
  // its output enable (CircuitPython's neopixel_write), stays low, as the LED sees it.
  let level = 0;
  mcu.gpio[pin].addListener((state) => {
    const now = clock.nanos;
    const next = state === HIGH || state === PULL_UP ? 1
      : state === LOW || state === PULL_DOWN ? 0 : level;
    if (next === level) return;
    level = next;
    if (next === 1) {                        // rising
      if (bits.length && now - lastFall > RESET_NS) flush();
      if (!bits.length) firstRise = now;
      if (bits.length) {
        const period = now - lastRise;
        shortest = Math.min(shortest, period);
        longest = Math.max(longest, period);
      }
      lastRise = now;
      end.cancel();
    } else {                                 // falling
      const high = now - lastRise;
      if (high >= 250 && high <= 550) bits.push(0);
      else if (high >= 650 && high <= 950) bits.push(1);
      else { faults += 1; bits.push(high > 600 ? 1 : 0); }
      lastFall = now;
      end.schedule(RESET_NS + 1000);
    }
  });
}

function knob(mcu, config, emit, more = {}) {
  const [pinA, pinB] = config.encoder;
  const button = mcu.gpio[config.button];
  const a = mcu.gpio[pinA];
  const b = mcu.gpio[pinB];
  let state = 3;
  const set = (s) => { a.setInputValue(!!(s & 2)); b.setInputValue(!!(s & 1)); };
  set(state);
  button.setInputValue(!config.held);          // open switch, pulled up (or held at power-up)
  const queue = [];
  let busy = false;
  const alarm = mcu.clock.createAlarm(() => step());
  let steps = [];                              // [delay ns, action] of the command running

  function next() {
    if (steps.length) {
      const [delay, action] = steps.shift();
      pending = action;
      alarm.schedule(delay);
      return;
    }
    busy = false;
    run();
  }
  let pending = null;
  function step() {
    const action = pending;
    pending = null;
    if (action) action();
    next();
  }

  function edges(detents) {
    const out = [];
    const dir = detents > 0 ? 1 : -1;
    for (let d = 0; d < Math.abs(detents); d++) {
      for (let e = 0; e < config.ppd; e++) {
        const from = state;
        const to = FORWARD[(FORWARD.indexOf(state) + dir + 4) % 4];
        state = to;
        const completes = e === config.ppd - 1;
        out.push([EDGE_NS, () => {
          set(to);
          if (completes) emit(`K ${Math.round(mcu.clock.nanos)}`);
        }]);
        out.push([BOUNCE_NS, () => set(from)]);
        out.push([BOUNCE_NS, () => set(to)]);
      }
    }
    return out;
  }

  function run() {
    while (!busy && queue.length) {
      const words = queue.shift().trim().split(/\s+/);
      const verb = words[0];
      if (verb === 'turn') steps = edges(parseInt(words[1], 10));
      else if (verb === 'press') steps = [[0, () => button.setInputValue(false)]];
      else if (verb === 'release') steps = [[0, () => button.setInputValue(true)]];
      else if (verb === 'wait') steps = [[parseInt(words[1], 10) * 1000000, null]];
      else if (verb === 'done') { emit(`E ${Math.round(mcu.clock.nanos)}`); continue; }
      else if (more[verb]) {
        // pico.cjs's verbs, in turn; one that returns true holds the queue until it resumes
        if (more[verb](words.slice(1), () => { busy = false; run(); })) busy = true;
        continue;
      }
      else if (!verb) continue;
      else { emit(`? ${verb}`); continue; }
      busy = true;
      next();
    }
    // what the verbs gathered at this emulated instant goes now, together (pico.cjs: the
    // MIDI of one instant in one USB transfer)
    if (more.flush) more.flush();
  }

  return (line) => { queue.push(line); run(); };
}

module.exports = { ringDecoder, knob };
