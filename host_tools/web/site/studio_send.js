// The set onto a wheel: a preview on the page's own wheel, the compiled set for a
// CircuitPython wheel's drive, and a send over Web Serial (flasher.js) as `chromawheel meldset
// flash` does. Each checks the set again first: what is sent is what passed, never an older
// result, and a set with a problem is never previewed or sent. Greyed with the reason beside.

import { FlashError, flashSet } from "./flasher.js";
import { KINDS, friendly } from "./studio_text.js";

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function download(name, bytes, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([bytes], { type }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// The board's settings.json made to open a preview at the meld being edited.
export function previewSettings(raw, setName, kind, within) {
  let settings = {};
  try {
    settings = raw ? JSON.parse(decoder.decode(raw)) : {};
  } catch (_err) {
    settings = {};
  }
  if (settings === null || typeof settings !== "object" || Array.isArray(settings)) settings = {};
  settings.meldset = setName;
  settings.mode = "explorer";
  if (kind >= 0) {
    const cursor = Array.isArray(settings.melds) && settings.melds.length === 3
      ? settings.melds.slice() : [0, 0, 0];
    cursor[kind] = within;
    settings.kind = kind;
    settings.melds = cursor;
  }
  return settings;
}

export class Sender {
  constructor(studio) {
    this.studio = studio;
    this.busy = false;
    this.serial = "serial" in navigator;
    $("serial-note").textContent = this.serial
      ? "Send to a wheel: a wheel with the ChromaWheel firmware on USB (the browser asks which port)."
      : "";
    $("no-serial").hidden = this.serial;
    document.body.dataset.webSerial = this.serial ? "yes" : "no";
    $("preview").addEventListener("click", () => this.preview());
    $("stop-preview").addEventListener("click", () => this.stopPreview());
    $("flash").addEventListener("click", () => this.flash());
    $("drive-file").addEventListener("click", () => this.driveFile());
  }

  // Preview and send: greyed with the reason beside them.
  showButtons() {
    const result = this.studio.result;
    const usable = result?.valid && !result.refused;
    $("preview").disabled = !usable || this.busy;
    $("flash").disabled = !usable || this.busy || !this.serial;
    $("drive-file").disabled = !usable;
    $("drive-name").textContent = usable ? `${result.name}.cwm` : "once the set has no problems";
    let why = "";
    if (!result) why = "checking the set…";
    else if (!result.valid) {
      const count = (result.problems || []).length || result.lines.length;
      why = `Preview and sending wait until the set is right: ${count} ` +
        `${count === 1 ? "problem is" : "problems are"} listed below, each also at its field.`;
    } else if (result.refused) why = `Preview and sending wait: ${friendly(result.refused)}`;
    else if (this.busy) why = "sending the set to the wheel…";
    else if (!this.serial) why = "This browser cannot send to a wheel over USB: see below.";
    $("why-not").textContent = why;
    this.studio.files.showLink();
    this.studio.share.update();
  }

  // On the page's own board: the compiled set beside the others on a copy of its flash, made
  // the active set (settings.json's "meldset", as `meldset flash` does) and opened at the meld
  // being edited; the board's own flash is kept as it was, and "stop preview" or a reload
  // returns to it.
  async preview() {
    const studio = this.studio;
    const set = await studio.usable();
    if (!set) return;
    const doc = studio.doc;
    const meld = doc.meld;
    const kind = meld ? KINDS.indexOf(meld.kind) : -1;
    const within = kind < 0 ? 0 : doc.model.melds.slice(0, doc.selected)
      .filter((m) => m.kind === meld.kind).length;
    await studio.board.preview((flash) => {
      flash.set(`melds/${set.name}.cwm`, set.blob);
      const settings = previewSettings(flash.get("settings.json"), set.name, kind, within);
      flash.set("settings.json", encoder.encode(JSON.stringify(settings)));
    });
    $("stop-preview").hidden = false;
    document.body.dataset.preview = set.name;
    this.log(`previewing ${set.name} on the wheel (${set.melds} melds) until you stop the ` +
             "preview or reload the page; the board's own sets are unchanged");
    studio.said(`the wheel runs ${set.name} now, as a preview (until stop preview)`);
    // On a phone the wheel is far above the studio: brought into view, not left unseen.
    const wheel = $("wheel").getBoundingClientRect();
    if (wheel.bottom < 0 || wheel.top > innerHeight) {
      $("wheel").scrollIntoView({ block: "center", behavior: "smooth" });
    }
  }

  async stopPreview() {
    await this.studio.board.stopPreview();
    $("stop-preview").hidden = true;
    delete document.body.dataset.preview;
    this.log("preview stopped: the wheel runs the board's own set again");
    this.studio.said("preview stopped: the wheel runs its own set again");
  }

  // The compiled set for a CircuitPython wheel's drive: melds/<name>.cwm.
  async driveFile() {
    const set = await this.studio.usable();
    if (!set) return;
    download(`${set.name}.cwm`, set.blob, "application/octet-stream");
    this.studio.said(`downloaded ${set.name}.cwm: copy it into the wheel's melds folder`);
  }

  log(line) {
    const view = $("flash-log");
    view.textContent += `${line}\n`;
    view.scrollTop = view.scrollHeight;
  }

  // The send, said in a teacher's words in the status line (the log keeps the details), the
  // progress bar gone again whatever happened.
  async flash() {
    if (!this.serial) {
      this.log("no Web Serial in this browser");
      return;
    }
    const studio = this.studio;
    const set = await studio.usable();
    if (!set) return;                  // never asks for a port, never sends
    let port;
    try {
      port = await navigator.serial.requestPort();
    } catch (_err) {
      this.log("no port chosen");
      studio.said("No wheel was chosen, so nothing was sent: plug the wheel in, press send " +
        "again and choose its port (a Pico shows as 'Board in FS mode' or 'USB serial').");
      return;
    }
    this.busy = true;
    this.showButtons();
    const bar = $("flash-progress");
    bar.hidden = false;
    bar.value = 0;
    document.body.dataset.flash = "running";
    studio.said(`sending ${set.name} to the wheel…`);
    try {
      const report = await flashSet(port, studio.site.device, set, (event) => {
        if (event.line) this.log(event.line);
        if (event.total) bar.value = event.done / event.total;
      }, { timeoutScale: globalThis.chromawheelSlowBoard || 1 });
      this.log(`flashed ${report.name}: ${report.bytes} bytes, ${report.melds} melds in ` +
               `${report.seconds.toFixed(1)} s (${report.rawPaste ? "raw-paste" : "raw REPL"})`);
      document.body.dataset.flash = "done";
      studio.report = report;
      studio.said(`the wheel has ${report.name} now (${report.melds} melds): it restarts with it`);
    } catch (err) {
      this.log(`error: ${err instanceof FlashError ? err.message : String(err.message || err)}`);
      document.body.dataset.flash = "failed";
      studio.said(failure(err));
    } finally {
      bar.hidden = true;
      this.busy = false;
      studio.validate();
    }
  }
}

// What a failed send means for the teacher, and what to do (the wheel keeps its old set: the
// set is written beside it and renamed over it only once whole).
export function failure(err) {
  const kind = err instanceof FlashError ? err.kind : "gone";
  if (kind === "busy") {
    return "The wheel's port is busy: another program has it open (Thonny, a terminal, " +
      "another browser tab). Close it and send again; the wheel keeps its old set.";
  }
  if (kind === "gone") {
    return "The wheel stopped answering (unplugged, or reset?). It keeps its old set: plug it " +
      "in and send again.";
  }
  return `The wheel did not take the set: ${err.message.replace(/^[^:]*: /, "")}. It keeps ` +
    "its old set.";
}
