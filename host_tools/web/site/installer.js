// "Install ChromaWheel": the firmware onto a board running stock MicroPython, over Web Serial,
// the way `chromawheel deploy --port PORT --board NAME` does it (host_tools/device/deploy.py,
// target.py sync, link.py): the board asked what it runs and refused, before anything is
// written, if it is not MicroPython on the board chosen or reads another .mpy version; every
// file it already has compared by hash, so only what differs is sent; then, if anything is to
// change, one reset into maintenance (no app, no watchdog: firmware/safemode.py), each file
// written to a temporary name and renamed, files of an older firmware removed, everything read
// back by hash, and one reset into the app, whose first line says it started. A board file
// the board already has (bring-up wrote it) is kept. The files are the command line's own,
// laid out by the build (site.json "install", install-BOARD.bin); the link is the flasher's
// (flasher.js), and what runs on the device is its code with the data quoted.

import { FlashError, SerialLink } from "./flasher.js";
import { digest } from "./serial_bytes.js";

const decoder = new TextDecoder();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What went wrong, for the page to say with what to do next: `kind` is "busy", "gone",
// "empty" (no MicroPython answers), "circuitpython", "board" (another board or port),
// "version" (another .mpy version) or "start" (the firmware did not start).
export class InstallError extends FlashError {}

// [[path, bytes]] of a board's files, cut out of its bundle by site.json's table.
export function unbundle(bytes, table) {
  return table.map(([path, at, size]) => [path, bytes.subarray(at, at + size)]);
}

// The board's answer to link.py's INFO against the board chosen: null, or why not
// (deploy.py check_platform, device_mpy_version).
export function boardProblem(info, board, mpy) {
  const runs = `${info.name} ${info.version.join(".")} on ${info.platform}`;
  if (info.name === "circuitpython") {
    return new InstallError(`the board runs ${runs}: CircuitPython boards are installed from ` +
      "the command line, onto their CIRCUITPY drive (chromawheel deploy --drive)", "circuitpython");
  }
  if (info.name !== board.implementation || !board.reports.includes(info.platform)) {
    return new InstallError(`the board runs ${runs}, not ${board.implementation} on ` +
      `${board.reports.join(" or ")} as board ${board.board} does, so nothing was written`, "board");
  }
  const have = info.mpy ? `${info.mpy & 0xff}.${(info.mpy >> 8) & 3}` : "none";
  if (have !== mpy) {
    return new InstallError(`${runs} loads .mpy version ${have}, and these files are ${mpy} ` +
      "(MicroPython 1.23 or newer), so nothing was written", "version");
  }
  return null;
}

// target.py sync(): the files whose hash differs from the board's, and the board's files in
// the firmware's folders that are not among them.
export async function plan(files, onBoard, codeDirs) {
  const changed = [];
  for (const [path, data] of files) {
    if (onBoard[path] !== (await digest(data, onBoard[path]))) changed.push([path, data]);
  }
  const wanted = new Set(files.map(([path]) => path));
  const stale = Object.keys(onBoard).filter((path) => onBoard[path] !== null &&
    codeDirs.includes(path.split("/")[0]) && path.includes("/") && !wanted.has(path)).sort();
  return { changed, stale };
}

// deploy.py _app_started: the firmware's first line once it runs (or safe mode's).
export function started(line) {
  return line.startsWith("safe mode") || (line.startsWith("meld set ") && line.includes("loaded:"));
}

// link.py traceback_of: the last complete traceback among the lines, or [].
export function tracebackOf(lines) {
  for (let start = lines.length - 1; start >= 0; start--) {
    if (!lines[start].startsWith("Traceback (most recent call last)")) continue;
    for (let end = start + 1; end < lines.length; end++) {
      if (/^\w+(Error|Exception|Interrupt|Exit)\b/.test(lines[end])) return lines.slice(start, end + 1);
    }
  }
  return [];
}

// The page's words for a failure: what happened, and what to do next.
export function advice(err) {
  const kind = err instanceof FlashError ? err.kind : "gone";
  // the link's messages start with the port's name (flasher.js portName)
  const said = String(err.message || err).replace(/^(USB [0-9a-f]{4}:[0-9a-f]{4}|the board): /, "");
  const next = {
    busy: "Another program has the board's port open (Thonny, a terminal, another tab): " +
      "close it and install again.",
    gone: "The board stopped answering (unplugged, or a charge-only cable?). Plug it in and " +
      "install again: what is already on it is checked and kept.",
    empty: "A new board has none yet: put MicroPython on it first (below), then install " +
      "again; if another program has the port open (Thonny, a terminal), close it.",
    circuitpython: "Install from the command line instead (chromawheel deploy --drive).",
    board: "Choose the board it is in the list, or put MicroPython for this board on it, and " +
      "install again.",
    version: "Put a newer MicroPython on it (below), then install again.",
    start: "The files are on the board, but the firmware stopped: install again; if it stops " +
      "again, run chromawheel deploy and report what it says.",
  }[kind] || "Nothing was changed that the board cannot run: install again.";
  if (kind === "empty") return `No MicroPython answered on that port. ${next}`;
  return `${said}. ${next}`;
}

// Reboot with the app held off (link.py enter_maintenance): the device uses the flag up at
// that boot; the next reset starts the app.
async function enterMaintenance(link, device) {
  await link.restart(`open('${device.maintenance_path}', 'w').close()\n`);
  await sleep(500);
  await link.connect();
}

// link.py reset_and_listen: a hard reset, then the firmware's lines until one says it started
// ({line}), or its traceback ({failure}), or nothing in time ({}).
async function resetAndListen(link, device) {
  await link.restart();
  const deadline = performance.now() + device.listen_s * 1000 * link.scale;
  let text = "";
  while (performance.now() < deadline) {
    if (!link.reader || link.closed) {
      try {
        await link.findPortAgain();
        await link.open();
      } catch (_err) {
        await link.close();
        await sleep(300);
        continue;
      }
    }
    await link.more(200);
    text += decoder.decode(link.take(link.buffer.length));
    const lines = text.replace(/[^\n\x20-\uffff]/g, "").split("\n").map((l) => l.trim());
    const line = lines.slice(0, -1).find(started);
    if (line) return { line };
    const failure = tracebackOf(lines.slice(0, -1));
    if (failure.length) return { failure };
  }
  return {};
}

// Install on `port` the files of `board` (site.json install.boards[i]) from `bundle` (its
// install-BOARD.bin); progress({line}) or progress({done, total}) in bytes sent.
export async function install(port, site, board, bundle, progress, options = {}) {
  const began = performance.now();
  const device = site.device;
  let files = unbundle(bundle, board.files);
  const link = new SerialLink(port, device, options);
  try {
    try {
      await link.connect();
    } catch (err) {
      throw new InstallError(err.message, err.kind === "gone" ? "empty" : err.kind);
    }
    const out = (await link.run(device.info)).trim().split(/\r?\n/);
    const info = JSON.parse(out[out.length - 1]);
    const problem = boardProblem(info, board, site.install.mpy);
    if (problem) throw problem;
    progress({ line: `${link.name}: ${info.name} ${info.version.join(".")} on ${info.platform}, ` +
                     `board ${board.board}, compiled .mpy v${site.install.mpy}` });
    // compared also under melds/ and lib/; only the firmware's own folders lose files
    const folders = files.map(([p]) => p).filter((p) => p.includes("/")).map((p) => p.split("/")[0]);
    const dirs = [...new Set([...device.code_dirs, ...folders])];
    const extra = files.map(([p]) => p).filter((p) => !p.includes("/"));
    const onBoard = await link.hashes(dirs, extra);
    if (onBoard["board.json"]) {
      files = files.filter(([path]) => path !== "board.json");
      progress({ line: "kept the board's own board.json (from bring-up, or an earlier install)" });
    }
    const { changed, stale } = await plan(files, onBoard, device.code_dirs);
    if (changed.length || stale.length) await enterMaintenance(link, device);
    const total = changed.reduce((sum, [, data]) => sum + data.length, 0);
    let sent = 0;
    for (const [path, data] of changed) {
      progress({ line: `writing ${path} (${data.length} bytes)` });
      await link.makedirs(path);
      await link.writeAtomic(path, data, (done) => progress({ done: sent + done, total }));
      sent += data.length;
    }
    for (const path of stale) {
      progress({ line: `removing ${path}` });
      await link.remove(path);
    }
    const after = await link.hashes(dirs, extra);
    const wrong = [];
    for (const [path, data] of files) {
      if (after[path] !== (await digest(data, after[path]))) wrong.push(path);
    }
    if (wrong.length) {
      throw new InstallError(`${wrong.length} files did not verify (${wrong.slice(0, 3).join(", ")})`, "gone");
    }
    if (!changed.length && !stale.length) progress({ line: `all ${files.length} files already there` });
    await link.remove(device.maintenance_path);       // unused by a board with no firmware yet
    const heard = await resetAndListen(link, device);
    if (!heard.line || heard.line.startsWith("safe mode")) {
      const said = heard.failure ? heard.failure.join("\n") : heard.line || "nothing in time";
      throw new InstallError(`the firmware did not start: ${said}`, "start");
    }
    progress({ line: `the board says: ${heard.line}` });
    return { board: board.board, files: files.length, sent: changed.length, bytes: total,
             removed: stale, started: heard.line, seconds: (performance.now() - began) / 1000 };
  } finally {
    await link.close();
  }
}

// The panel on the page: a board to choose, "Install ChromaWheel", a progress bar, what the
// board said, and in plain words what went wrong and what to do next. body[data-install] is
// "running", "done" or "failed" (the tests wait for it).
export class InstallPanel {
  constructor(site) {
    this.site = site;
    this.$ = (id) => document.getElementById(id);
    const choice = this.$("install-board");
    for (const board of site.install.boards) {
      const option = document.createElement("option");
      option.value = board.board;
      option.textContent = board.title;
      choice.append(option);
    }
    const serial = "serial" in navigator;
    this.$("install").disabled = !serial;
    this.$("install-status").textContent = serial ? "" :
      "This browser cannot talk to a board over USB: use Chrome or Edge on a computer, or " +
      "the command line (chromawheel deploy).";
    this.$("install").addEventListener("click", () => this.run());
  }

  log(line) {
    const view = this.$("install-log");
    view.textContent += `${line}\n`;
    view.scrollTop = view.scrollHeight;
  }

  async run() {
    const board = this.site.install.boards.find((b) => b.board === this.$("install-board").value);
    let port;
    try {
      port = await navigator.serial.requestPort();
    } catch (_err) {
      this.$("install-status").textContent = "No board was chosen, so nothing was installed: " +
        "plug it in, press Install again and choose its port (a Pico shows as 'Board in FS " +
        "mode').";
      return;
    }
    const button = this.$("install");
    const bar = this.$("install-progress");
    button.disabled = true;
    bar.hidden = false;
    bar.value = 0;
    document.body.dataset.install = "running";
    this.$("install-status").textContent = `installing ChromaWheel on the ${board.title}…`;
    try {
      const response = await fetch(board.bundle);
      if (!response.ok) throw new InstallError(`${board.bundle}: ${response.status}`, "gone");
      const bundle = new Uint8Array(await response.arrayBuffer());
      const report = await install(port, this.site, board, bundle, (event) => {
        if (event.line) this.log(event.line);
        if (event.total) bar.value = event.done / event.total;
      }, { timeoutScale: globalThis.chromawheelSlowBoard || 1 });
      this.report = report;
      this.log(`installed: ${report.sent} of ${report.files} files sent (${report.bytes} bytes) ` +
               `in ${report.seconds.toFixed(1)} s`);
      this.$("install-status").textContent = "ChromaWheel is installed and running: the ring " +
        "shows the C major triad. Next: wire and check each part with chromawheel bringup " +
        "(the maker's guide), or send it a meld set from the studio below.";
      document.body.dataset.install = "done";
    } catch (err) {
      this.log(`error: ${err.message || err}`);
      this.$("install-status").textContent = advice(err);
      this.$("install-empty").open = err.kind === "empty" || err.kind === "version";
      document.body.dataset.install = "failed";
    } finally {
      bar.hidden = true;
      button.disabled = false;
    }
  }
}
