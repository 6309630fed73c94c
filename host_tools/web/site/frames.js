// What the firmware shows, read back as the simulator reads it (host_tools/sim/simulator.py:
// decode_frame and _collect; host_tools/sim/display_image.py: rows), so that a script run in
// the page gives the frames `chromawheel sim --script ... --frames` writes:
// {"wheel": 12 [r,g,b] C first, "leds": count [r,g,b] in wire order, "console": "the lines
//  printed while it was shown", "display": ["rows"], "tones": [[freq_hz, ms], ...],
//  "midi": [[status, data1, data2], ...] the MIDI messages sent while it was shown}.

const PERIOD = 1 << 30;          // ticks wrap as on a 32-bit port

export function decodeFrame(ring, wire) {
  const order = ring.order;
  const bpp = order.length;
  const leds = [];
  for (let led = 0; led < ring.count; led++) {
    const at = led * bpp;
    leds.push(["R", "G", "B"].map((c) => wire[at + order.indexOf(c)]));
  }
  // The sectors' LEDs as hardware/ring.py maps them (sector_leds, put in site.json by the
  // build): a sector reads its first LED.
  const wheel = ring.sector_leds.map((row) => leds[row[0]]);
  return { wheel, leds };
}

// "3:E♭ 7:G" -> Map {3 => "E♭", 7 => "G"} (the first name of a pitch class kept: an octave
// repeats the root).
export function namesOf(text) {
  const names = new Map();
  for (const pair of String(text).split(" ")) {
    const at = pair.indexOf(":");
    const pc = Number(pair.slice(0, at));
    if (at > 0 && Number.isInteger(pc) && pc >= 0 && pc < 12 && !names.has(pc)) {
      names.set(pc, pair.slice(at + 1));
    }
  }
  return names;
}

// The title of the console's line for the state ("Eb major pentatonic (pent): Eb F G Bb C"
// -> "E♭ major pentatonic (pent)"), its note names with the display's signs, for the words
// under the wheel.
const SIGNS = { b: "♭", bb: "𝄫", "#": "♯", "##": "𝄪", x: "𝄪" };
export function titleOf(line) {
  const head = String(line || "").split(": ")[0].trim();
  return head.replace(/\b([A-G])(bb|##|b|#|x)(?=[\s)]|$)/g, (_, letter, sign) => letter + SIGNS[sign]);
}

export class DisplayImage {
  constructor(config, glyphs) {
    this.width = config.width;
    this.height = config.height;
    this.pixels = new Uint8Array((this.width * this.height) / 8);
    this.glyphs = glyphs;            // 8 column bytes as hex -> the character they draw
  }

  write(first, last, data) {
    this.pixels.set(data.subarray(0, (last - first + 1) * this.width), first * this.width);
  }

  rows() {
    const out = [];
    for (let page = 0; page < this.height / 8; page++) {
      const at = page * this.width;
      let text = "";
      for (let x = 0; x < this.width; x += 8) {
        let hex = "";
        for (let i = 0; i < 8; i++) hex += this.pixels[at + x + i].toString(16).padStart(2, "0");
        text += this.glyphs[hex] ?? "\ufffd";
      }
      out.push(text.replace(/[ \t\n\r\f\v]+$/, ""));
    }
    while (out.length && !out[out.length - 1]) out.pop();
    return out;
  }

  lit(x, y) {
    return (this.pixels[(y >> 3) * this.width + x] >> (y & 7)) & 1;
  }
}

// The frames of a run, built as events come (console lines, frames, display pages, tones),
// exactly as _collect builds them from the simulator's output afterwards.
export class Frames {
  constructor(board, glyphs, limit = Infinity) {
    this.board = board;
    this.image = board.display ? new DisplayImage(board.display, glyphs) : null;
    this.frames = [];
    this.console = [];
    this.since = [];
    this.sent = [];              // MIDI messages before the first frame: the first frame's
    this.tones = [];             // {start, freq, ms, duty, frame}
    this.names = new Map();      // pc -> the name the firmware spells it by now (notes())
    this.limit = limit;          // keep at most this many frames (an interactive session)
    this.dropped = 0;
  }

  // A line belongs to the frame the ring shows when it is printed (the firmware prints a
  // state's line once the ring shows it); lines before the first frame are the first frame's.
  consoleLine(text) {
    this.console.push(text);
    const last = this.frames[this.frames.length - 1];
    if (last) last.console = last.console ? `${last.console}\n${text}` : text;
    else this.since.push(text);
    if (this.console.length > 2000) this.console.splice(0, 1000);
  }

  frame(wire) {
    const { wheel, leds } = decodeFrame(this.board.ring, wire);
    const frame = { wheel, leds, console: this.since.join("\n"), midi: this.sent };
    if (this.image) frame.display = this.image.rows();
    if (this.board.buzzer) frame.tones = [];
    this.frames.push(frame);
    this.since = [];
    this.sent = [];
    // Tones that ended before the first frame belong to it, as in _collect.
    if (this.frames.length + this.dropped === 1) {
      for (const tone of this.tones) if (tone.ms !== null) frame.tones.push([tone.freq, tone.ms]);
    }
    if (this.frames.length > this.limit) {
      const drop = this.frames.length - this.limit;
      this.frames.splice(0, drop);
      this.dropped += drop;
    }
    return frame;
  }

  // MIDI bytes the wheel sent, as messages, to the frame shown (as the simulator's
  // midi_messages: the wheel sends whole channel messages).
  midi(data) {
    const last = this.frames[this.frames.length - 1];
    const into = last ? last.midi : this.sent;
    for (let at = 0; at < data.length;) {
      const status = data[at];
      const size = status >= 0xc0 && status < 0xe0 ? 2 : 3;
      if (status < 0x80 || status >= 0xf0) { at += 1; continue; }
      into.push(Array.from(data.subarray(at, at + size)));
      at += size;
    }
  }

  // The notes the ring shows as the firmware spells them ("3:E♭ 7:G", root first): the
  // name of each pitch class, in that order (a Map). Not part of a frame: the simulator's
  // frames have no such field.
  notes(text) {
    this.names = namesOf(text);
  }

  display(first, last, data) {
    this.image.write(first, last, data);
    if (this.frames.length) this.frames[this.frames.length - 1].display = this.image.rows();
  }

  tone(ticks, freq, duty) {
    const last = this.tones[this.tones.length - 1];
    if (last && last.ms === null) {            // the previous tone ends here
      last.ms = (((ticks - last.start) % PERIOD) + PERIOD) % PERIOD;
      const frame = this.frames[last.frame - this.dropped];
      if (frame) frame.tones.push([last.freq, last.ms]);
    }
    if (freq) {
      const index = Math.max(this.frames.length + this.dropped - 1, 0);
      this.tones.push({ start: ticks, freq, ms: null, duty, frame: index });
      if (this.tones.length > 4000) this.tones.splice(0, 2000);
    }
  }
}
