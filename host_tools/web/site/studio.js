// The meld-set studio: open or write a meld set (JSON), check it with the core's own validator
// running in the page (the messages `chromawheel meldset validate` prints), preview it on the
// wheel, and flash it to a board over Web Serial as `chromawheel meldset flash` does. A set
// that fails the check is never previewed or sent: both check it again first.

import { FlashError, flashSet } from "./flasher.js";

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Studio {
  constructor(site, host, board) {
    this.site = site;
    this.host = host;
    this.board = board;
    this.path = "untitled.json";
    this.bytes = new Uint8Array(0);
    this.result = null;
    this.busy = false;
    for (const name of site.examples) {
      const option = document.createElement("option");
      option.value = option.textContent = name;
      $("example").appendChild(option);
    }
    $("meldset-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (file) this.open(file.name, new Uint8Array(await file.arrayBuffer()));
    });
    $("example").addEventListener("change", async (event) => {
      const name = event.target.value;
      if (name) this.open(name, await host.example(name));
    });
    let typing = null;
    $("source").addEventListener("input", () => {
      this.bytes = encoder.encode($("source").value);
      clearTimeout(typing);
      typing = setTimeout(() => this.validate(), 300);
    });
    $("validate").addEventListener("click", () => this.validate());
    $("save").addEventListener("click", () => this.save());
    $("preview").addEventListener("click", () => this.preview());
    $("flash").addEventListener("click", () => this.flash());
    this.serial = "serial" in navigator;
    $("serial-note").textContent = this.serial
      ? "Flash to a board: a MicroPython board with the ChromaWheel firmware on USB (the browser asks which port)."
      : "This browser has no Web Serial (Chrome, Edge or Opera on a computer have it): validating and the preview work; flash from the command line with chromawheel meldset flash PATH --port PORT.";
    document.body.dataset.webSerial = this.serial ? "yes" : "no";
    this.checks = 0;
    this.ready = host.example("jazz.json").then((bytes) => {
      $("example").value = "jazz.json";
      return this.open("jazz.json", bytes);
    });
  }

  // The file's own bytes are what is checked (a file that is not UTF-8 is said so, as the
  // command line says it); the editor shows them as text.
  open(path, bytes) {
    this.path = path;
    this.bytes = bytes;
    $("source-name").textContent = path;
    $("source").value = decoder.decode(bytes);
    return this.validate();
  }

  // The latest check wins: a slower one for older text is dropped.
  async validate() {
    const asked = ++this.checks;
    const result = await this.host.check(this.path, this.bytes);
    if (asked !== this.checks) return result;
    this.result = result;
    const list = $("problems");
    list.replaceChildren();
    for (const line of result.lines) {
      const item = document.createElement("li");
      item.className = result.valid ? "valid" : "error";
      item.textContent = line;
      list.appendChild(item);
    }
    if (result.valid && result.refused) {
      const item = document.createElement("li");
      item.className = "error";
      item.textContent = result.refused + " (to flash or preview it)";
      list.appendChild(item);
    }
    const usable = result.valid && !result.refused;
    $("studio").dataset.valid = String(result.valid);
    $("studio").dataset.checks = String(asked);
    $("preview").disabled = !usable || this.busy;
    $("flash").disabled = !usable || this.busy || !this.serial;
    return result;
  }

  // Checked again now: what is sent is what passed, never an older result.
  async usable() {
    const result = await this.validate();
    return result.valid && !result.refused ? result : null;
  }

  // On the page's own board: the compiled set beside the others on its flash, made the
  // active set as `meldset flash` makes it (settings.json's "meldset"), then a power cycle.
  async preview() {
    const set = await this.usable();
    if (!set) return;
    await this.board.editFlash((flash) => {
      flash.set(`melds/${set.name}.cwm`, set.blob);
      let settings = {};
      try {
        const raw = flash.get("settings.json");
        settings = raw ? JSON.parse(decoder.decode(raw)) : {};
      } catch (err) {
        settings = {};
      }
      if (settings === null || typeof settings !== "object" || Array.isArray(settings)) settings = {};
      settings.meldset = set.name;
      flash.set("settings.json", encoder.encode(JSON.stringify(settings)));
    });
    this.log(`previewing ${set.name} on the wheel (${set.melds} melds): the board restarts with it`);
    await this.board.boot("power");
  }

  // The source as it is in the editor, downloaded under its name.
  save() {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([this.bytes], { type: "application/json" }));
    link.download = this.path;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  log(line) {
    const view = $("flash-log");
    view.textContent += line + "\n";
    view.scrollTop = view.scrollHeight;
  }

  async flash() {
    if (!this.serial) {
      this.log("no Web Serial in this browser");
      return;
    }
    const set = await this.usable();
    if (!set) return;                  // never asks for a port, never sends
    let port;
    try {
      port = await navigator.serial.requestPort();
    } catch (err) {
      this.log("no port chosen");
      return;
    }
    this.busy = true;
    this.validate();
    const bar = $("flash-progress");
    bar.hidden = false;
    bar.value = 0;
    document.body.dataset.flash = "running";
    try {
      const report = await flashSet(port, this.site.device, set, (event) => {
        if (event.line) this.log(event.line);
        if (event.total) bar.value = event.done / event.total;
      }, { timeoutScale: globalThis.chromawheelSlowBoard || 1 });
      bar.value = 1;
      this.log(`flashed ${report.name}: ${report.bytes} bytes, ${report.melds} melds in ` +
               `${report.seconds.toFixed(1)} s (${report.rawPaste ? "raw-paste" : "raw REPL"})`);
      document.body.dataset.flash = "done";
      this.report = report;
    } catch (err) {
      this.log("error: " + (err instanceof FlashError ? err.message : String(err.message || err)));
      document.body.dataset.flash = "failed";
    } finally {
      this.busy = false;
      this.validate();
    }
  }
}
