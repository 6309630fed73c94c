// The web board as the page sees it: the unmodified firmware on MicroPython WebAssembly, with
// board file `web`, running in a worker (board_worker.js has the pins' JavaScript side). Here:
// boots and resets, the knob and button commands, what it shows read back as the simulator
// reads it (frames.js), and the flash kept between boots. The page's storage stands in for the
// flash (settings, crash count, log); a scripted run (?script=) starts from a fresh flash and
// keeps nothing, as the simulator's; a studio preview runs on a copy that is never kept.

import { Frames } from "./frames.js";

// hardware/web_pins.py's command verbs: VERB + 8 * ARG.
export const TURN = 1, PRESS = 2, RELEASE = 3, WAIT = 4, VIRTUAL = 5, MIDI = 6, QUIT = 7;
const STORAGE_KEY = "chromawheel.flash";

// A line of the simulator's protocol (host_tools/sim/simulator.py) as a command for the pins.
export function encode(line) {
  const words = line.trim().split(/\s+/);
  const arg = words.length > 1 ? parseInt(words[words.length - 1], 10) : 0;
  switch (words[0]) {
    case "turn": return TURN + 8 * arg;
    case "press": return PRESS;
    case "release": return RELEASE;
    case "wait": return WAIT + 8 * arg;
    case "clock": return VIRTUAL + 8 * arg;       // "clock virtual UPTIME"
    case "quit": return QUIT;
  }
  throw new Error(`not a simulator command: ${line}`);
}

// MIDI bytes (a script's "midi HEX" line, Web MIDI input) as MIDI commands, one a channel
// message (status << 16 | data1 << 8 | data2); system messages are not the wheel's business.
export function midiCommands(bytes) {
  const out = [];
  let status = 0;
  let data = [];
  for (const byte of bytes) {
    if (byte >= 0xf0) {                 // real time passes; system common ends running status
      if (byte < 0xf8) status = 0;
      continue;
    }
    if (byte & 0x80) {
      status = byte;
      data = [];
      continue;
    }
    if (!status) continue;
    data.push(byte);
    const need = status >= 0xc0 && status < 0xe0 ? 1 : 2;
    if (data.length === need) {
      out.push(MIDI + 8 * ((status << 16) | (data[0] << 8) | (data[1] || 0)));
      data = [];
    }
  }
  return out;
}

// Protocol lines as commands ("midi HEX" may carry several messages).
export function commandsOf(lines) {
  return lines.flatMap((line) => {
    const words = line.trim().split(/\s+/);
    if (words[0] !== "midi") return [encode(line)];
    const hex = words[1] || "";
    const bytes = [];
    for (let at = 0; at + 1 < hex.length; at += 2) bytes.push(parseInt(hex.slice(at, at + 2), 16));
    return midiCommands(bytes);
  });
}

function base64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

function unbase64(text) {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

const HEAPSIZE = 1024 * 1024;

function newWorker() {
  return new Worker(new URL("board_worker.js", import.meta.url), { type: "module" });
}

// A board's worker that loads MicroPython now, before the page has its flash (the runtime's
// download and compile need neither): WebBoard's first boot takes it (options.loaded).
export function loadedWorker(heapsize = HEAPSIZE) {
  const worker = newWorker();
  worker.postMessage({ t: "load", heapsize });
  return { worker, heapsize };
}

export class WebBoard extends EventTarget {
  // site: site.json; flash: the bytes of flash.bin; options: {persist, heapsize, loaded}
  constructor(site, flash, options = {}) {
    super();
    this.site = site;
    this.board = site.board;
    this.flashBin = flash;
    this.persist = options.persist !== false;
    this.heapsize = options.heapsize || HEAPSIZE;
    this.loaded = options.loaded || null;
    this.state = this.persist ? this.loadState() : new Map();   // files the firmware wrote
    this.worker = null;
    this.frames = null;
    this.running = false;
    this.firstFrameAt = null;
    this.waiting = new Map();
    this.asked = 0;
  }

  // ---- the flash, kept between boots (and page loads, in the browser's storage) ----------

  loadState() {
    const state = new Map();
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "{}");
      for (const [path, data] of Object.entries(saved)) state.set(path, unbase64(data));
    } catch (err) {
      console.warn("the flash kept in this browser is unreadable: starting empty", err);
    }
    return state;
  }

  keep(files) {
    this.state = new Map(files);
    if (!this.persist || this.saved) return;       // a preview's flash is never kept
    const out = {};
    for (const [path, data] of this.state) out[path] = base64(data);
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(out));
    } catch (err) {
      console.warn("the browser's storage is full: the flash is not kept", err);
    }
  }

  // The flash as the running board has it now.
  async snapshot() {
    if (!this.worker) return this.state;
    const id = ++this.asked;
    const files = await new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ t: "snapshot", id });
    });
    if (files) this.keep(files);
    return this.state;
  }

  // ---- boot, reset ----------------------------------------------------------------------

  // Power-up ("power") or reset ("reset"). commands: protocol lines queued before the boot
  // (a script's clock and steps, or "press" to hold the button). code: run instead of
  // boot.py and main.py (the benchmark's measurements).
  boot(resetCause = "power", commands = [], code = null) {
    this.stop();
    this.frames = new Frames(this.board, this.site.glyphs, this.persist ? 500 : Infinity);
    this.firstFrameAt = null;
    this.bootedAt = performance.now();
    const loaded = this.loaded;            // the first boot's, loading since the page began
    this.loaded = null;
    const reuse = loaded && loaded.heapsize === this.heapsize;
    if (loaded && !reuse) loaded.worker.terminate();
    const worker = reuse ? loaded.worker : newWorker();
    this.worker = worker;
    this.running = true;
    worker.onmessage = (event) => this.received(worker, event.data);
    worker.onerror = (event) => this.dispatchEvent(new CustomEvent("stopped", {
      detail: event.message || "the board's worker failed" }));
    worker.postMessage({
      t: "boot", flash: this.flashBin, table: this.site.flash.files,
      state: Array.from(this.state), resetCause, commands: commandsOf(commands),
      heapsize: this.heapsize, width: this.board.display ? this.board.display.width : 0, code,
    });
    this.dispatchEvent(new CustomEvent("boot", { detail: { resetCause } }));
    return new Promise((resolve) => { this.booted = resolve; });
  }

  received(worker, message) {
    if (worker !== this.worker) return;            // a board that was reset says nothing more
    switch (message.t) {
      case "booting":
        this.runningAt = performance.now();        // MicroPython loaded, the flash laid out
        this.booted?.();
        break;
      case "events":
        for (const event of message.events) this.event(event);
        break;
      case "state":
        this.keep(message.files);
        break;
      case "snapshot":
        this.waiting.get(message.id)?.(message.files);
        this.waiting.delete(message.id);
        break;
      case "quit":
        this.running = false;
        this.dispatchEvent(new CustomEvent("quit"));
        break;
      case "failed":
        this.running = false;
        this.booted?.();
        this.dispatchEvent(new CustomEvent("stopped", { detail: message.why }));
        break;
    }
  }

  event(event) {
    switch (event.t) {
      case "console":
        this.frames.consoleLine(event.line);
        this.dispatchEvent(new CustomEvent("console", { detail: event.line }));
        break;
      case "ring": {
        const frame = this.frames.frame(event.wire);
        if (this.firstFrameAt === null) this.firstFrameAt = performance.now();
        this.dispatchEvent(new CustomEvent("frame", { detail: frame }));
        break;
      }
      case "display":
        this.frames.display(event.first, event.last, event.data);
        this.dispatchEvent(new CustomEvent("display", { detail: this.frames.image }));
        break;
      case "tone":
        this.frames.tone(event.ticks, event.freq, event.duty);
        this.dispatchEvent(new CustomEvent("tone", { detail: event }));
        break;
      case "notes":                // the notes the ring shows, spelled (firmware/ports/web.py)
        this.frames.notes(event.text);
        this.dispatchEvent(new CustomEvent("notes", { detail: this.frames.names }));
        break;
      case "midi":                 // what the wheel sent on its USB MIDI out
        this.frames.midi(event.data);
        this.dispatchEvent(new CustomEvent("midi", { detail: event.data }));
        break;
      case "reset":                // machine.reset()
        this.reset("reset");
        break;
      case "crashed":              // an error ended the app: a board resets, a script ends
        if (this.persist) this.reset("reset");
        else {
          this.running = false;
          this.dispatchEvent(new CustomEvent("quit"));
        }
        break;
      case "stopped":
        this.dispatchEvent(new CustomEvent("stopped", { detail: event.why }));
        break;
    }
  }

  // The chip stops dead (its worker ends); the flash keeps what was written.
  stop() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.running = false;
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
  }

  async reset(cause = "reset") {
    await this.snapshot();
    return this.boot(cause);
  }

  // ---- the flash, from the page's side (the studio's preview) -----------------------------

  // A preview: the board boots from a copy of its flash, changed (change(state): a Map of
  // path -> bytes); what it writes meanwhile goes to the copy. stopPreview(), or a reload of
  // the page, boots it from its own flash again, as it was when the preview began.
  async preview(change) {
    if (!this.saved) {
      await this.snapshot();
      this.saved = new Map(this.state);
    }
    const copy = new Map(this.saved);
    change(copy);
    this.state = copy;
    return this.boot("power");
  }

  get previewing() {
    return Boolean(this.saved);
  }

  async stopPreview() {
    if (!this.saved) return;
    this.stop();
    this.state = this.saved;
    this.saved = null;
    return this.boot("power");
  }

  eraseFlash() {
    this.keep([]);
  }

  // ---- the knob and the button ----------------------------------------------------------

  send(lines) {
    if (this.worker) this.worker.postMessage({ t: "send", commands: commandsOf(lines) });
  }

  // MIDI bytes from the page (Web MIDI input) to the wheel's USB MIDI input.
  midiIn(bytes) {
    const commands = midiCommands(bytes);
    if (this.worker && commands.length) this.worker.postMessage({ t: "send", commands });
  }
}
