// Flashing a compiled meld set over Web Serial, the way `chromawheel meldset flash` does it
// (host_tools/device/sets.py flash on a SerialTarget, host_tools/device/link.py DeviceLink,
// mpremote's serial transport): the port opened once, the app stopped in the raw REPL,
// raw-paste where the board has it (MicroPython's docs/reference/repl.rst), the file written
// in 1 KB chunks of Python bytes literals to NAME.cwm.tmp beside the old one and renamed,
// checked by hash, then the device's maintenance request "use" (firmware/maintenance.py): its
// own loader takes the set and makes it the active one, and its one line of JSON is the
// verdict. Then one reset starts the app with it.
//
// What runs on the device is the command line's own code (site.json "device": the hashes
// walker, the maintenance request line and the layout's constants, from host_tools/device and
// firmware/layout.py by the build) or mpremote's, with the data quoted: the set is data, the
// request a JSON string, and the only text that reaches the device's Python is code built here
// from validated values. Answers are parsed as JSON, never executed.

import { digest, indexOf, pyBytes, pyStr } from "./serial_bytes.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const RAW_PROMPT = "raw REPL; CTRL-B to exit\r\n";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A failure said in the words the studio shows: `kind` is "busy" (another program has the
// port), "gone" (the wheel stopped answering) or "refused" (the wheel said no).
export class FlashError extends Error {
  constructor(message, kind = "refused") {
    super(message);
    this.kind = kind;
  }
}

function portName(port) {
  const info = port.getInfo ? port.getInfo() : {};
  if (info.usbVendorId !== undefined) {
    const hex = (n) => n.toString(16).padStart(4, "0");
    return `USB ${hex(info.usbVendorId)}:${hex(info.usbProductId)}`;
  }
  return "the board";
}

// A session with the board's REPL (DeviceLink): bytes in a buffer, read up to a marker.
export class SerialLink {
  constructor(port, device, options = {}) {
    this.port = port;
    this.device = device;
    this.scale = options.timeoutScale || 1;
    this.name = portName(port);
    this.buffer = new Uint8Array(0);
    this.reader = null;
    this.writer = null;
    this.useRawPaste = true;
    this.inRawRepl = false;
    this.made = new Set();
    this.stats = { rawPaste: 0, rawRepl: 0, sent: 0 };
  }

  // ---- the port ----------------------------------------------------------------------------

  async open() {
    await this.port.open({ baudRate: 115200 });
    this.buffer = new Uint8Array(0);
    this.writer = this.port.writable.getWriter();
    this.reader = this.port.readable.getReader();
    this.closed = false;
    this.pump = (async () => {
      try {
        for (;;) {
          const { value, done } = await this.reader.read();
          if (done) break;
          const joined = new Uint8Array(this.buffer.length + value.length);
          joined.set(this.buffer);
          joined.set(value, this.buffer.length);
          this.buffer = joined;
          this.wake?.();
        }
      } catch (_err) {
        // the device went away (a reset): the reads below time out or see `closed`
      }
      this.closed = true;
      this.wake?.();
    })();
  }

  async close() {
    this.inRawRepl = false;
    if (this.reader) {
      try { await this.reader.cancel(); } catch (_err) { /* gone already */ }
      await this.pump;
      try { this.reader.releaseLock(); } catch (_err) { /* released */ }
      this.reader = null;
    }
    if (this.writer) {
      try { this.writer.releaseLock(); } catch (_err) { /* released */ }
      this.writer = null;
    }
    try { await this.port.close(); } catch (_err) { /* closed already */ }
  }

  async write(data) {
    if (typeof data === "string") data = encoder.encode(data);
    await this.writer.write(data);
    this.stats.sent += data.length;
  }

  // Wait for more bytes, up to `ms`; false when none came.
  async more(ms) {
    if (this.closed) return false;
    const before = this.buffer.length;
    await Promise.race([sleep(ms), new Promise((resolve) => { this.wake = resolve; })]);
    this.wake = null;
    return this.buffer.length > before;
  }

  take(n) {
    const out = this.buffer.slice(0, n);
    this.buffer = this.buffer.slice(n);
    return out;
  }

  // mpremote's read_until: up to and including `ending`; idle: seconds without a byte.
  async readUntil(ending, idle = 10, overall = null) {
    const want = typeof ending === "string" ? encoder.encode(ending) : ending;
    const started = performance.now();
    let last = performance.now();
    for (;;) {
      const at = indexOf(this.buffer, want);
      if (at >= 0) return this.take(at + want.length);
      const now = performance.now();
      if (now - last > idle * 1000 * this.scale) break;
      if (overall !== null && now - started > overall * 1000 * this.scale) break;
      if (await this.more(50)) last = performance.now();
      else if (this.closed) break;
    }
    throw new FlashError(`${this.name}: no answer (waited for ${JSON.stringify(
      decoder.decode(want))}, got ${JSON.stringify(decoder.decode(this.buffer.slice(-60)))})`,
    "gone");
  }

  // pyserial's read(n) with the link's 2 s timeout: up to n bytes.
  async read(n, seconds = 2) {
    const started = performance.now();
    while (this.buffer.length < n && performance.now() - started < seconds * 1000 * this.scale) {
      if (!(await this.more(50)) && this.closed) break;
    }
    return this.take(Math.min(n, this.buffer.length));
  }

  // ---- the raw REPL (mpremote's SerialTransport) ------------------------------------------

  async enterRawRepl(overall = 4) {
    await this.write("\r\x03");
    await sleep(20);
    this.buffer = new Uint8Array(0);              // flush input
    await this.write("\r\x01");
    await this.readUntil(RAW_PROMPT, 10, overall);
    this.inRawRepl = true;
  }

  async execNoFollow(code) {
    const command = encoder.encode(code);
    await this.readUntil(">");
    if (this.useRawPaste) {
      await this.write("\x05A\x01");
      const answer = decoder.decode(await this.read(2));
      if (answer === "R\x01") {
        await this.rawPasteWrite(command);
        this.stats.rawPaste += 1;
        return;
      }
      if (answer !== "R\x00") await this.readUntil("w REPL; CTRL-B to exit\r\n>");
      this.useRawPaste = false;
    }
    for (let i = 0; i < command.length; i += 256) {
      await this.write(command.subarray(i, i + 256));
      await sleep(10);
    }
    await this.write("\x04");
    const ok = decoder.decode(await this.read(2));
    if (ok !== "OK") throw new FlashError(`${this.name}: could not exec command (response: ${JSON.stringify(ok)})`);
    this.stats.rawRepl += 1;
  }

  // Raw-paste: a window of bytes at a time, the device adds a window with \x01; \x04 ends.
  async rawPasteWrite(command) {
    const header = await this.read(2);
    if (header.length < 2) throw new FlashError(`${this.name}: no raw-paste window size`);
    const windowSize = header[0] | (header[1] << 8);
    let remain = windowSize;
    let i = 0;
    while (i < command.length) {
      while (remain === 0 || this.buffer.length) {
        const got = await this.read(1, 10);
        if (!got.length) throw new FlashError(`${this.name}: raw paste stalled`);
        if (got[0] === 0x01) remain += windowSize;
        else if (got[0] === 0x04) {
          await this.write("\x04");
          return;
        } else throw new FlashError(`${this.name}: unexpected read during raw paste: ${got[0]}`);
      }
      const chunk = command.subarray(i, Math.min(i + remain, command.length));
      await this.write(chunk);
      remain -= chunk.length;
      i += chunk.length;
    }
    await this.write("\x04");
    await this.readUntil("\x04");
  }

  async follow(idle = 10) {
    const out = await this.readUntil("\x04", idle);
    const err = await this.readUntil("\x04", idle);
    return { out: decoder.decode(out.subarray(0, -1)), err: decoder.decode(err.subarray(0, -1)) };
  }

  // DeviceLink.run: the code's printed output; an exception on the device is an error.
  async run(code) {
    await this.execNoFollow(code);
    const { out, err } = await this.follow();
    if (err.trim()) {
      const lines = err.trim().split("\n");
      throw new FlashError(`${this.name}: the device raised ${lines[lines.length - 1].trim()}`);
    }
    return out;
  }

  // ---- DeviceLink's steps ------------------------------------------------------------------

  // Open the port and enter the raw REPL, retrying while a board re-enumerates.
  // A port the browser cannot open three times running is held by another program: said at
  // once, not after the reconnect time (15 s).
  async connect(seconds = this.device.reconnect_s) {
    const deadline = performance.now() + seconds * 1000 * this.scale;
    let refused = 0;
    for (;;) {
      let opened = false;
      try {
        await this.open();
        opened = true;
        await this.enterRawRepl();
        return;
      } catch (err) {
        await this.close();
        refused = opened ? 0 : refused + 1;
        if (refused >= 3) {
          throw new FlashError(`${this.name}: the port would not open (${err.message || err})`, "busy");
        }
        if (performance.now() > deadline) {
          throw new FlashError(`${this.name}: no MicroPython REPL answered (${err.message || err}); is another program using the port?`, "gone");
        }
        await sleep(300);
        await this.findPortAgain();
      }
    }
  }

  // A real USB board comes back as another port object after its reset: the same device.
  async findPortAgain() {
    if (!navigator.serial || !this.port.getInfo) return;
    const info = this.port.getInfo();
    try {
      const ports = await navigator.serial.getPorts();
      const same = ports.filter((p) => {
        const other = p.getInfo();
        return other.usbVendorId === info.usbVendorId && other.usbProductId === info.usbProductId;
      });
      if (same.length && !same.includes(this.port)) this.port = same[0];
    } catch (_err) {
      // keep the port we have
    }
  }

  async refuseCircuitPython() {
    const name = (await this.run("import sys\nprint(sys.implementation.name)")).trim();
    if (name === "circuitpython") {
      throw new FlashError(`${this.name} runs CircuitPython: copy the set onto its CIRCUITPY drive instead (chromawheel meldset flash --drive PATH)`);
    }
  }

  // Hard reset and let go; `before` runs in the same breath (link.py restart()).
  async restart(before = "") {
    const pause = before ? "" : "import time\ntime.sleep_ms(100)\n";
    try {
      await this.execNoFollow(`${before + pause}import machine\nmachine.reset()`);
    } catch (_err) {
      // the board may go before it answers
    }
    await this.close();
  }

  // target.call: a maintenance request, the same line as host_tools/device/target.py's
  // call_line (the request as a JSON string); the device's one line of JSON.
  async call(request, ...args) {
    const words = JSON.stringify(JSON.stringify([request, ...args]));
    const out = (await this.run(this.device.call.replace("%s", words))).trim().split(/\r?\n/);
    let answer;
    try {
      answer = JSON.parse(out[out.length - 1]);
    } catch (_err) {
      throw new FlashError(`${this.name}: unexpected answer from the device: ${JSON.stringify(out.slice(-3))}`);
    }
    if (answer?.ok !== true) {
      throw new FlashError(`${this.name}: the device says: ${answer?.error}`);
    }
    return answer;
  }

  async makedirs(path) {
    const parts = path.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      if (this.made.has(folder)) continue;
      await this.run(`import os\ntry:\n    os.mkdir(${pyStr(folder)})\nexcept OSError:\n    pass`);
      this.made.add(folder);
    }
  }

  // path.tmp in chunks (mpremote's fs_writefile), then renamed over path.
  async writeAtomic(path, data, progress) {
    const temporary = `${path}.tmp`;
    const chunk = this.device.write_chunk;
    await this.run(`f=open(${pyStr(temporary)},'wb')\nw=f.write`);
    for (let at = 0; at < data.length; at += chunk) {
      const part = data.subarray(at, at + chunk);
      await this.run(`w(${pyBytes(part)})`);
      progress?.(at + part.length, data.length);
    }
    await this.run("f.close()");
    await this.run(`import os\nos.rename(${pyStr(temporary)}, ${pyStr(path)})`);
  }

  async remove(path) {
    await this.run(`import os\ntry:\n    os.remove(${pyStr(path)})\nexcept OSError:\n    pass`);
  }

  // DeviceLink.hashes: the device prints one [path, hash] line a file (one JSON line of
  // every hash would need a contiguous block a fragmented heap may not have).
  async hashes(dirs, extra) {
    const code = `DIRS = ${JSON.stringify(dirs)}\nEXTRA = ${JSON.stringify(extra)}\n${this.device.hashes}`;
    const found = {};
    for (const line of (await this.run(code)).trim().split(/\r?\n/)) {
      if (!line) continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch (_err) {
        throw new FlashError(`${this.name}: unexpected answer from the device: ${JSON.stringify(line)}`);
      }
      if (!Array.isArray(entry) || entry.length !== 2) {
        throw new FlashError(`${this.name}: unexpected answer from the device: ${JSON.stringify(line)}`);
      }
      found[entry[0]] = entry[1];
    }
    return found;
  }

}


// Why a set name may not be flashed, by the device's own rule (site.json "device", from
// core/meldset.py and firmware/layout.py: its characters, its length, the default set), or "".
export function nameProblem(name, device) {
  const fits = typeof name === "string" && name && name.length <= device.set_name_max &&
    [...name].every((ch) => device.set_name_chars.includes(ch));
  if (!fits) return `set name ${JSON.stringify(name)} cannot be flashed`;
  return name === device.default_set ? device.flash_refused : "";
}

// sets.flash on a SerialTarget: `set` is the studio's check of a valid set {name, melds, blob}.
export async function flashSet(port, device, set, progress, options = {}) {
  const problem = nameProblem(set.name, device);
  if (problem) throw new FlashError(problem);
  const started = performance.now();
  const path = `${device.meld_dir}/${set.name}${device.set_suffix}`;
  const link = new SerialLink(port, device, options);
  try {
    await link.connect();
    await link.refuseCircuitPython();
    progress({ line: `${link.name}: writing ${path} (${set.blob.length} bytes, ${set.melds} melds)` });
    await link.makedirs(path);
    await link.writeAtomic(path, set.blob, (done, total) => progress({ done, total }));
    const onDevice = (await link.hashes([], [path]))[path];
    if (onDevice !== (await digest(set.blob, onDevice))) {
      throw new FlashError(`${link.name}: ${path} did not verify; the device keeps its last good set`);
    }
    const answer = await link.call("use", set.name);
    if (answer.set !== set.name || answer.melds !== set.melds) {
      throw new FlashError(`${link.name}: the device did not take ${set.name} (it answered ${JSON.stringify(answer)})`);
    }
    progress({ line: `the device says: ${answer.said}` });
    progress({ line: `${link.name}: resetting into the app` });
    await link.restart();
    return { name: set.name, bytes: set.blob.length, melds: set.melds,
             seconds: (performance.now() - started) / 1000, rawPaste: link.stats.rawPaste,
             rawRepl: link.stats.rawRepl, sent: link.stats.sent };
  } finally {
    await link.close();
  }
}
