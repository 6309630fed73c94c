// The meld-set studio: open or build a meld set, check it with the core's own validator
// running in the page (the messages `chromawheel meldset validate` prints, each shown at its
// meld and field too), preview it on the wheel, and flash it to a board over Web Serial as
// `chromawheel meldset flash` does. A set that fails the check is never previewed or sent:
// both check it again first.
//
// Two views of one set, kept in step: the meld-card editor (a wheel of 12 sectors, the root at
// the top, as the cardboard card; py/editor.py spells and reads it) and the JSON source
// (#source). An edit on the wheel or in a field rewrites the JSON; JSON typed by hand is read
// back into the editor whenever it parses.
//
// Nothing is lost: the set is kept in the browser as it is edited (restored on reload), every
// change can be undone, replacing work not saved to a file asks first, and a file that does
// not read is said at the top while the set being edited stays. The validator's places are
// said in a teacher's words (meld 2, counting from 1), each message at its field.

import { FlashError, flashSet } from "./flasher.js";

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const KINDS = ["interval", "chord", "scale"];            // core/meldset.py's order
const ROOTS = ["C", "C♯", "D♭", "D", "D♯", "E♭", "E", "F", "F♯", "G♭", "G", "G♯", "A♭", "A",
               "A♯", "B♭", "B"];
const SET_KEYS = ["format", "version", "name", "title", "description", "melds"];
const MELD_KEYS = ["id", "name", "kind", "degrees"];

// The JSON source as the shipped sets write it: one meld a line.
export function formatSet(set) {
  if (set === null || typeof set !== "object" || Array.isArray(set) ||
      !Array.isArray(set.melds)) {
    return JSON.stringify(set, null, 2) + "\n";
  }
  const lines = ["{"];
  const keys = Object.keys(set);
  keys.forEach((key, i) => {
    const comma = i < keys.length - 1 ? "," : "";
    if (key !== "melds") {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(set[key])}${comma}`);
      return;
    }
    lines.push('  "melds": [');
    set.melds.forEach((meld, j) => {
      const more = j < set.melds.length - 1 ? "," : "";
      lines.push("    " + formatMeld(meld) + more);
    });
    lines.push("  ]" + comma);
  });
  lines.push("}");
  return lines.join("\n") + "\n";
}

function formatMeld(meld) {
  if (meld === null || typeof meld !== "object" || Array.isArray(meld)) {
    return JSON.stringify(meld);
  }
  const parts = Object.keys(meld).map((key) => {
    const value = meld[key];
    const shown = Array.isArray(value)
      ? "[" + value.map((v) => JSON.stringify(v)).join(", ") + "]" : JSON.stringify(value);
    return `${JSON.stringify(key)}: ${shown}`;
  });
  return "{" + parts.join(", ") + "}";
}

// "melds[4].degrees[2]" -> {meld: 4, field: "degrees", index: 2}; "name" -> {field: "name"}.
export function place(where) {
  const match = /^melds\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?$/.exec(where);
  if (match) {
    return { meld: Number(match[1]), field: match[2] || "meld",
             index: match[3] === undefined ? null : Number(match[3]) };
  }
  return { meld: null, field: where.split(/[.[]/)[0] || "set", index: null };
}

// The validator's places in a teacher's words, counting from 1: "melds[4].degrees[2]" ->
// "meld 5, degree 3"; the set's "name" is its file name. The messages themselves are the
// command line's (core/meldset_compiler.py is the one source of truth); only places change.
const FIELD_WORDS = { id: "short name", name: "name", kind: "kind", degrees: "degrees" };
export function friendly(text) {
  return String(text)
    .replace(/melds\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?/g, (all, i, field, j) => {
      let words = "meld " + (Number(i) + 1);
      if (field === "degrees" && j !== undefined) words += ", degree " + (Number(j) + 1);
      else if (field) words += ", " + (FIELD_WORDS[field] || field);
      return words;
    })
    .replace(/^([^:\s]+\.json): name: /, "$1: file name: ");
}

// The field (an element id) a validator place belongs to, for the selected meld `selected`.
export function fieldOf(where, selected) {
  const at = place(where);
  if (at.meld !== null) {
    if (at.meld !== selected) return "meld-list";
    return { id: "meld-id", name: "meld-name", kind: "meld-kind", degrees: "editor-wheel" }[
      at.field] || "editor-wheel";
  }
  return { name: "set-name", title: "set-title", description: "set-description",
           melds: "meld-list" }[at.field] || "source";
}

// A title as a set's file name: small letters, digits and - (the validator's characters).
export function fileNameOf(title, limit = 24) {
  const plain = String(title).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+/, "").slice(0, limit).replace(/[-_]+$/, "");
  return plain || "my-set";
}

// What `new meld` adds: the first of these that the set lacks (a valid meld at once), chords
// or, after a scale, scales; a kind chosen for a new untouched meld picks that kind's first.
const STARTERS = {
  chord: [["maj", "major triad", ["1", "3", "5"]], ["min", "minor triad", ["1", "b3", "5"]],
          ["7", "dominant seventh", ["1", "3", "5", "b7"]],
          ["maj7", "major seventh", ["1", "3", "5", "7"]],
          ["m7", "minor seventh", ["1", "b3", "5", "b7"]],
          ["dim", "diminished triad", ["1", "b3", "b5"]],
          ["aug", "augmented triad", ["1", "3", "#5"]], ["sus4", "suspended fourth", ["1", "4", "5"]],
          ["sus2", "suspended second", ["1", "2", "5"]], ["6", "major sixth", ["1", "3", "5", "6"]],
          ["m6", "minor sixth", ["1", "b3", "5", "6"]],
          ["dim7", "diminished seventh", ["1", "b3", "b5", "bb7"]],
          ["m7b5", "half-diminished seventh", ["1", "b3", "b5", "b7"]]],
  scale: [["major", "major scale", ["1", "2", "3", "4", "5", "6", "7"]],
          ["blues", "blues scale", ["1", "b3", "4", "b5", "5", "b7"]],
          ["minor", "natural minor scale", ["1", "2", "b3", "4", "5", "b6", "b7"]],
          ["pent", "major pentatonic", ["1", "2", "3", "5", "6"]],
          ["m-pent", "minor pentatonic", ["1", "b3", "4", "5", "b7"]],
          ["harm-min", "harmonic minor scale", ["1", "2", "b3", "4", "5", "b6", "7"]],
          ["dorian", "dorian mode", ["1", "2", "b3", "4", "5", "6", "b7"]],
          ["mixolydian", "mixolydian mode", ["1", "2", "3", "4", "5", "6", "b7"]]],
  interval: [["P5", "perfect fifth", ["1", "5"]], ["M3", "major third", ["1", "3"]],
             ["m3", "minor third", ["1", "b3"]], ["P4", "perfect fourth", ["1", "4"]],
             ["M2", "major second", ["1", "2"]], ["m7", "minor seventh", ["1", "b7"]]],
};
const STORE = "chromawheel.studio";
const HISTORY = 60;                    // undo steps kept (in the browser too)
const HISTORY_CHARS = 1500000;         // and their text at most (the storage holds ~5 MB)
const TYPING_MS = 1200;                // keystrokes in one field this close are one undo step
const PC_OF = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

function button(text, attrs = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  return b;
}

function download(name, bytes, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([bytes], { type }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function base64url(text) {
  let raw = "";
  for (const b of encoder.encode(text)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

export class Studio {
  constructor(site, host, board, sound = null) {
    this.site = site;
    this.host = host;
    this.board = board;
    this.sound = sound;
    this.path = "untitled.json";
    this.bytes = new Uint8Array(0);
    this.result = null;
    this.busy = false;
    this.model = null;              // the parsed source, when it parses
    this.selected = 0;
    this.auto = new WeakMap();      // meld -> the sectors the letter rule spells
    this.fresh = new WeakSet();     // new melds not yet touched (a kind chosen swaps them)
    this.queue = Promise.resolve(); // editor steps, one after another
    this.previewing = false;
    this.undoStack = [];
    this.redoStack = [];
    this.current = null;            // {text, path, selected}: what undo comes back to
    this.lastEdit = { field: null, at: 0 };
    this.baseline = "";             // the text last opened or saved: unsaved when it differs
    this.answer = null;             // the editor's last answer (what play plays)
    this.limits = { id: 16, name: 40, set_name: 24, text: 255 };
    const start = $("example");
    start.add(new Option("the set on the wheel (a copy)", "@board"));
    for (const name of site.examples) start.add(new Option(name, name));
    for (const name of ROOTS) $("editor-root").add(new Option(name, name));
    this.buildWheel();
    this.wire();
    this.serial = "serial" in navigator;
    $("serial-note").textContent = this.serial
      ? "Send to a wheel: a wheel with the ChromaWheel firmware on USB (the browser asks which port)."
      : "";
    $("no-serial").hidden = this.serial;
    document.body.dataset.webSerial = this.serial ? "yes" : "no";
    this.checks = 0;
    // Leaving asks only when this browser could not keep the work (its storage refused it).
    window.addEventListener("beforeunload", (event) => {
      if (this.unkept && this.dirty) event.preventDefault();
    });
    this.ready = this.track(() => this.start());
  }

  wire() {
    $("meldset-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      event.target.value = "";           // the same file opened again is read again
      if (file) {
        await this.track(async () => this.openAsked(file.name,
                                                   new Uint8Array(await file.arrayBuffer())));
      }
    });
    $("example").addEventListener("change", async (event) => {
      const name = event.target.value;
      event.target.value = "";
      if (name === "@board") await this.track(() => this.fromBoard());
      else if (name === "default.json") await this.track(() => this.copyOf("default"));
      else if (name) await this.track(async () => this.openAsked(name, await this.host.example(name)));
    });
    $("new-set").addEventListener("click", () => this.track(() => this.newSet()));
    $("undo").addEventListener("click", () => this.undo());
    $("redo").addEventListener("click", () => this.redo());
    let typing = null;
    $("source").addEventListener("input", () => {
      this.bytes = encoder.encode($("source").value);
      this.readSource();
      this.record("source");
      clearTimeout(typing);
      typing = setTimeout(() => this.validate(), 300);
    });
    $("validate").addEventListener("click", () => this.validate());
    $("save").addEventListener("click", () => this.save());
    $("preview").addEventListener("click", () => this.preview());
    $("stop-preview").addEventListener("click", () => this.stopPreview());
    $("flash").addEventListener("click", () => this.flash());
    $("drive-file").addEventListener("click", () => this.driveFile());
    $("copy-link").addEventListener("click", () => this.copyLink());
    $("play-chord").addEventListener("click", () => this.play(false));
    $("play-arpeggio").addEventListener("click", () => this.play(true));

    $("set-name").addEventListener("input", (e) => this.setField("name", e.target.value));
    $("set-title").addEventListener("input", (e) => this.setField("title", e.target.value));
    $("set-description").addEventListener("input",
      (e) => this.setField("description", e.target.value));
    $("meld-id").addEventListener("input", (e) => this.meldField("id", e.target.value));
    $("meld-name").addEventListener("input", (e) => this.meldField("name", e.target.value));
    $("meld-kind").addEventListener("change", (e) => this.meldField("kind", e.target.value));
    $("editor-root").addEventListener("change", () => this.step(null));
    $("new-meld").addEventListener("click", () => this.newMeld());
    $("duplicate-meld").addEventListener("click", () => this.duplicateMeld());
    $("delete-meld").addEventListener("click", () => this.deleteMeld());
    $("meld-up").addEventListener("click", () => this.moveMeld(-1));
    $("meld-down").addEventListener("click", () => this.moveMeld(1));
    // The meld list is one Tab stop: the arrow keys choose, focus stays on the chosen meld.
    $("meld-list").addEventListener("keydown", (event) => {
      if (!this.model || !this.model.melds.length) return;
      const last = this.model.melds.length - 1;
      const to = { ArrowUp: this.selected - 1, ArrowDown: this.selected + 1, Home: 0, End: last,
                   PageUp: this.selected - 8, PageDown: this.selected + 8 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      this.select(Math.max(0, Math.min(last, to)));
    });
    // Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) in the studio, but not where a text box has its own.
    $("studio").addEventListener("keydown", (event) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (event.target.closest("input, textarea, select")) return;
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey) this.undo();
      else if (key === "y" || (key === "z" && event.shiftKey)) this.redo();
      else return;
      event.preventDefault();
    });
  }

  // ---- the wheel's elements --------------------------------------------------------------

  buildWheel() {
    const wheel = $("editor-wheel");
    this.sectors = [];
    this.chips = [];
    for (let s = 0; s < 12; s++) {
      const angle = (s * 30 * Math.PI) / 180;
      const sector = button("", { "data-editor-sector": String(s), "data-state": "off" });
      sector.className = "sector";
      sector.style.setProperty("--x", Math.sin(angle).toFixed(4));
      sector.style.setProperty("--y", (-Math.cos(angle)).toFixed(4));
      sector.addEventListener("click", () => this.step({ tap: s }));
      const chip = button("", { "data-alt-sector": String(s) });
      chip.className = "alt";
      chip.hidden = true;
      chip.style.setProperty("--x", Math.sin(angle).toFixed(4));
      chip.style.setProperty("--y", (-Math.cos(angle)).toFixed(4));
      chip.addEventListener("click", () => {
        const next = chip.dataset.degree;
        if (next === "8") this.step({ octave: chip.getAttribute("aria-pressed") !== "true" });
        else if (next) this.step({ degree: next });
      });
      wheel.append(sector, chip);
      this.sectors.push(sector);
      this.chips.push(chip);
    }
  }

  // The set this browser kept (restored as it was), a set in the link (#set=...), or for a
  // first visit an example.
  async start() {
    try {
      this.limits = await this.host.limits();
    } catch (err) {
      console.warn("the validator's limits: the defaults", err);
    }
    $("set-name").maxLength = this.limits.set_name;
    $("meld-id").maxLength = this.limits.id;
    $("meld-name").maxLength = this.limits.name;
    $("set-title").maxLength = this.limits.text;
    $("set-description").maxLength = this.limits.text;
    let kept = null;
    try {
      kept = JSON.parse(localStorage.getItem(STORE) || "null");
    } catch (err) {
      kept = null;
    }
    if (kept && typeof kept.text === "string") {
      this.undoStack = Array.isArray(kept.undo) ? kept.undo : [];
      this.redoStack = Array.isArray(kept.redo) ? kept.redo : [];
      this.baseline = typeof kept.baseline === "string" ? kept.baseline : "";
      this.apply({ text: kept.text, path: kept.path || "untitled.json",
                   selected: kept.selected || 0 });
      this.said("your set is back as you left it" + (this.dirty ? " (not saved to a file)" : ""));
    } else {
      this.baseline = null;
      await this.open("jazz.json", await this.host.example("jazz.json"), { record: false });
      this.said("an example set: jazz.json. Start your own with new set.");
    }
    await this.fromLink();
  }

  // ---- the set as a model, and its JSON ---------------------------------------------------

  get meld() {
    return this.model && this.model.melds[this.selected];
  }

  get text() {
    return $("source").value;
  }

  get dirty() {
    return this.baseline !== null && this.text !== this.baseline;
  }

  // A file, an example, a linked set: read first; one that does not read is said at the top
  // and the set being edited stays. Work not saved to a file is asked about first.
  async openAsked(path, bytes) {
    const result = await this.host.check(path, bytes);
    if (!result.valid && !result.problems.length) {
      const error = $("open-error");
      error.textContent = `${path} could not be opened, so your set is unchanged: ` +
        result.lines.map(friendly).join("; ");
      error.hidden = false;
      error.scrollIntoView({ block: "nearest" });
      document.body.dataset.openError = path;
      return false;
    }
    if (!(await this.replaceOk(`open ${path}`))) return false;
    await this.open(path, bytes);
    return true;
  }

  async replaceOk(what) {
    if (!this.dirty) return true;
    const name = this.model && typeof this.model.title === "string" ? this.model.title : this.path;
    return this.ask(`“${name}” has changes not saved to a file. ${what[0].toUpperCase() +
      what.slice(1)} in its place? (undo brings it back)`, [], what, "keep my set");
  }

  // The file's own bytes are what is checked (a file that is not UTF-8 is said so, as the
  // command line says it); the editor shows them as text.
  open(path, bytes, { record = true } = {}) {
    $("open-error").hidden = true;
    $("open-error").textContent = "";
    delete document.body.dataset.openError;
    this.setPath(path);
    this.model = null;                   // a new file: its name is what was opened
    this.bytes = bytes;
    this.selected = 0;
    $("source").value = decoder.decode(bytes);
    this.baseline = $("source").value;
    this.readSource();
    if (record) this.record(null);
    else this.current = this.snapshot();
    this.keep();
    return this.validate();
  }

  async newSet() {
    if (!(await this.replaceOk("start a new set"))) return;
    const set = { format: "chromawheel-meldset", version: 1, name: "my-set", melds: [] };
    await this.open("my-set.json", encoder.encode(formatSet(set)));
    this.said("a new set: give it a title, then add melds with new meld");
    $("set-title").focus();
  }

  // The set the wheel runs now, as a copy to change: the page's examples are its sets.
  async fromBoard() {
    let name = "default";
    try {
      const state = await this.board.snapshot();
      const raw = state.get("settings.json");
      const settings = raw ? JSON.parse(decoder.decode(raw)) : {};
      if (settings && typeof settings.meldset === "string") name = settings.meldset;
    } catch (err) {
      name = "default";
    }
    if (!this.site.examples.includes(name + ".json")) {
      this.said(`the wheel runs the set “${name}”, which this page cannot read back`);
      return;
    }
    await this.copyOf(name, `copy the wheel's set “${name}”`);
  }

  // A shipped set as a copy of one's own: another name (the wheel's own "default" is never
  // replaced by a flash), "My …" as its title.
  async copyOf(name, what = `start from a copy of “${name}”`) {
    const source = JSON.parse(decoder.decode(await this.host.example(name + ".json")));
    source.name = fileNameOf("my " + name, this.limits.set_name);
    source.title = "My " + (source.title || name);
    if (!(await this.replaceOk(what))) return;
    await this.open(source.name + ".json", encoder.encode(formatSet(source)));
    this.baseline = "";                  // a copy never saved to a file: asked about
    this.keep();
  }

  // #set=... in the address: a set sent as a link (see copyLink).
  async fromLink() {
    const match = /^#set=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!match) return;
    history.replaceState(null, "", location.pathname + location.search);
    let bytes;
    try {
      bytes = unbase64url(match[1]);
    } catch (err) {
      this.said("the link's set is damaged (it was cut short?)");
      return;
    }
    let name = "linked-set";
    try {
      name = JSON.parse(decoder.decode(bytes)).name || name;
    } catch (err) { /* openAsked says what is wrong */ }
    await this.openAsked(String(name) + ".json", bytes);
  }

  setPath(path) {
    this.path = path;
    $("source-name").textContent = path;
  }

  // The JSON view read into the editor, when it is a set the editor can show.
  readSource() {
    let model = null;
    let why = null;
    try {
      model = JSON.parse($("source").value);
      if (model === null || typeof model !== "object" || Array.isArray(model)) {
        why = "the JSON is not an object";
      } else if (!Array.isArray(model.melds)) {
        why = 'the JSON has no list of "melds"';
      } else if (model.melds.some((m) => m === null || typeof m !== "object" || Array.isArray(m))) {
        why = "a meld in the JSON is not an object";
      }
    } catch (err) {
      why = "the JSON does not read (the message below says where)";
    }
    const old = this.model;
    this.model = why ? null : model;
    if (this.model && old && Array.isArray(old.melds)) {
      // Melds typed over keep the letter rule's sectors while their degrees are unchanged.
      this.model.melds.forEach((meld, i) => {
        const before = old.melds[i];
        if (before && this.auto.has(before) &&
            JSON.stringify(before.degrees) === JSON.stringify(meld.degrees)) {
          this.auto.set(meld, this.auto.get(before));
        }
      });
    }
    $("editor").dataset.paused = why ? "true" : "false";
    $("editor").title = why ? "the editor waits: " + why : "";
    if (this.model) {
      this.selected = Math.min(this.selected, Math.max(this.model.melds.length - 1, 0));
      // The set renamed in the JSON: the file name follows it.
      const name = this.model.name;
      if (old && typeof name === "string" && name.trim() && name !== old.name) {
        this.setPath(name.trim() + ".json");
      }
    }
    this.showSet();
    this.step(null);
  }

  // The model changed in the editor: the JSON view rewritten, checked, kept.
  commit(field = null) {
    const ordered = {};
    for (const key of SET_KEYS) if (key in this.model) ordered[key] = this.model[key];
    for (const key of Object.keys(this.model)) if (!(key in ordered)) ordered[key] = this.model[key];
    const text = formatSet(ordered);
    $("source").value = text;
    this.bytes = encoder.encode(text);
    this.record(field);
    this.validate();
  }

  // ---- nothing lost: undo, redo, the browser's copy ----------------------------------------

  snapshot() {
    return { text: this.text, path: this.path, selected: this.selected };
  }

  // After a change: the state before it becomes an undo step (keystrokes in one field, close
  // together, are one step); the set is kept in the browser.
  record(field) {
    const now = this.snapshot();
    if (this.current && this.current.text !== now.text) {
      const typing = field && field === this.lastEdit.field &&
        performance.now() - this.lastEdit.at < TYPING_MS;
      if (!typing) {
        this.undoStack.push(this.current);
        // At most HISTORY steps, and no more text than the browser's storage keeps easily.
        let size = this.undoStack.reduce((sum, step) => sum + step.text.length, 0);
        while (this.undoStack.length > 1 &&
               (this.undoStack.length > HISTORY || size > HISTORY_CHARS)) {
          size -= this.undoStack.shift().text.length;
        }
      }
      this.redoStack = [];
    }
    this.lastEdit = { field, at: performance.now() };
    this.current = now;
    this.keep();
  }

  undo() {
    if (!this.undoStack.length) return;
    this.redoStack.push(this.snapshot());
    this.apply(this.undoStack.pop());
    this.said("undone");
  }

  redo() {
    if (!this.redoStack.length) return;
    this.undoStack.push(this.snapshot());
    this.apply(this.redoStack.pop());
    this.said("done again");
  }

  apply(state) {
    this.lastEdit = { field: null, at: 0 };
    $("source").value = state.text;
    this.bytes = encoder.encode(state.text);
    this.setPath(state.path);
    this.selected = state.selected || 0;
    this.model = null;
    this.readSource();
    this.current = this.snapshot();
    this.keep();
    this.validate();
  }

  keep() {
    $("undo").disabled = !this.undoStack.length;
    $("redo").disabled = !this.redoStack.length;
    const kept = { text: this.text, path: this.path, selected: this.selected,
                   baseline: this.baseline, undo: this.undoStack, redo: this.redoStack };
    try {
      localStorage.setItem(STORE, JSON.stringify(kept));
      this.unkept = false;
    } catch (err) {
      // Full (or refused): the undo steps go first; if even the set is refused, leaving asks.
      try {
        localStorage.setItem(STORE, JSON.stringify({ ...kept, undo: [], redo: [] }));
        this.unkept = false;
      } catch (again) {
        this.unkept = true;
      }
    }
    const where = this.unkept ? "this browser could not keep it: save it to a file"
      : "kept in this browser as you work";
    $("kept").textContent = (this.dirty ? "not saved to a file; " : "") + where;
    document.body.dataset.dirty = String(this.dirty);
  }

  // The page's status line, and where it is out of view (a phone, down in the studio) the
  // same words for a few seconds at the foot of the screen.
  said(text) {
    $("status").textContent = text;
    const line = $("status").getBoundingClientRect();
    if (line.bottom > 0 && line.top < innerHeight) return;
    const toast = $("toast");
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { toast.hidden = true; }, 5000);
  }

  // A question in a dialog of the page's own: resolves true for `yes`.
  ask(text, items, yes, no) {
    const dialog = $("ask");
    $("ask-text").textContent = text;
    $("ask-list").replaceChildren(...items.map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }));
    $("ask-yes").textContent = yes;
    $("ask-no").textContent = no;
    return new Promise((resolve) => {
      const done = (answer) => {
        $("ask-yes").onclick = $("ask-no").onclick = dialog.oncancel = null;
        dialog.close();
        resolve(answer);
      };
      $("ask-yes").onclick = () => done(true);
      $("ask-no").onclick = () => done(false);
      dialog.oncancel = () => done(false);
      dialog.showModal();
      $("ask-no").focus();
    });
  }

  // ---- fields -------------------------------------------------------------------------------

  setField(key, value) {
    if (!this.model) return;
    if (key === "title") {
      // The file name follows the title while it is the one the title gave (or none yet).
      const before = typeof this.model.title === "string" ? this.model.title : "";
      const follows = !this.model.name || this.model.name === "my-set" ||
        this.model.name === fileNameOf(before, this.limits.set_name);
      if (follows) {
        this.model.name = fileNameOf(value, this.limits.set_name);
        this.setPath(this.model.name + ".json");
      }
    }
    if (value === "" && (key === "title" || key === "description")) delete this.model[key];
    else this.model[key] = value;
    if (key === "name" && value.trim()) this.setPath(value.trim() + ".json");
    this.commit("set-" + key);
    if (key === "title") this.showSet();
  }

  meldField(key, value) {
    const meld = this.meld;
    if (!meld) return;
    if (key === "kind" && this.fresh.has(meld) && STARTERS[value]) {
      // A new meld not touched yet: the kind's first meld the set lacks, in its place.
      const others = this.model.melds.filter((m) => m !== meld);
      const starter = this.starter(value, others) || meld;
      Object.assign(meld, starter, { kind: value });
      this.auto.set(meld, []);
      this.showSet();
      this.commit("meld-kind");
      this.step({});
      return;
    }
    this.fresh.delete(meld);
    meld[key] = value;
    this.showList();
    this.commit("meld-" + key + this.selected);
    if (key === "kind") this.step({});            // the letter rule's sectors spelled again
  }

  // ---- the meld list ------------------------------------------------------------------------

  // The first of the kind's starters whose shape, short name and name the set lacks.
  starter(kind, melds) {
    const ids = new Set(melds.map((m) => String(m.id).toLowerCase()));
    const names = new Set(melds.map((m) => String(m.name).toLowerCase()));
    const shapes = new Set(melds.filter((m) => m.kind === kind)
      .map((m) => JSON.stringify((m.degrees || []).map((d) => String(d).replace(/[()]/g, "")))));
    for (const [id, name, degrees] of STARTERS[kind]) {
      if (!shapes.has(JSON.stringify(degrees)) && !ids.has(id.toLowerCase()) &&
          !names.has(name)) {
        return { id, name, kind, degrees: degrees.slice() };
      }
    }
    return null;
  }

  unused(prefix) {
    const ids = new Set(this.model.melds.map((m) => String(m.id)));
    const names = new Set(this.model.melds.map((m) => String(m.name).toLowerCase()));
    for (let n = 1; ; n++) {
      if (!ids.has(prefix + n) && !names.has(("new meld " + n).toLowerCase())) return n;
    }
  }

  newMeld() {
    if (!this.model) return;
    const kind = this.meld && this.meld.kind === "scale" ? "scale" : "chord";
    let meld = this.starter(kind, this.model.melds);
    if (!meld) {
      const n = this.unused("new");
      meld = { id: "new" + n, name: "new meld " + n, kind, degrees: ["1"] };
    }
    this.auto.set(meld, []);
    this.fresh.add(meld);
    this.model.melds.push(meld);
    this.select(this.model.melds.length - 1, false);
    this.commit();
  }

  duplicateMeld() {
    const meld = this.meld;
    if (!meld) return;
    const copy = JSON.parse(JSON.stringify(meld));
    const taken = (key, value) => this.model.melds.some(
      (m) => String(m[key]).toLowerCase() === String(value).toLowerCase());
    for (let n = 2; ; n++) {
      const id = String(meld.id).slice(0, this.limits.id - 2) + "-" + n;
      const name = String(meld.name).slice(0, this.limits.name - 4) + " " + n;
      if (!taken("id", id) && !taken("name", name)) {
        copy.id = id;
        copy.name = name;
        break;
      }
    }
    if (this.auto.has(meld)) this.auto.set(copy, this.auto.get(meld).slice());
    this.model.melds.splice(this.selected + 1, 0, copy);
    this.select(this.selected + 1, false);
    this.commit();
  }

  deleteMeld() {
    if (!this.meld) return;
    this.model.melds.splice(this.selected, 1);
    this.select(Math.min(this.selected, this.model.melds.length - 1), false);
    this.commit();
    const still = this.model.melds.length ? "#delete-meld" : "#new-meld";
    document.querySelector(still).focus();     // the button that was tapped may have gone
  }

  moveMeld(by) {
    const to = this.selected + by;
    if (!this.meld || to < 0 || to >= this.model.melds.length) return;
    const melds = this.model.melds;
    [melds[this.selected], melds[to]] = [melds[to], melds[this.selected]];
    this.select(to, false);
    this.commit();
  }

  select(index, keep = true) {
    this.selected = Math.max(index, 0);
    this.showSet();
    this.step(null);
    if (keep && this.current) {
      this.current.selected = this.selected;
      this.keep();
    }
  }

  showSet() {
    const model = this.model;
    const text = (key) => (model && typeof model[key] === "string" ? model[key] : "");
    for (const [id, key] of [["set-name", "name"], ["set-title", "title"],
                             ["set-description", "description"]]) {
      if (document.activeElement !== $(id)) $(id).value = text(key);
      $(id).disabled = !model;
    }
    const meld = this.meld;
    for (const key of ["id", "name"]) {
      const input = $("meld-" + key);
      const value = meld ? meld[key] : "";
      if (document.activeElement !== input) input.value = typeof value === "string" ? value : "";
      input.disabled = !meld;
    }
    $("meld-kind").value = meld && KINDS.includes(meld.kind) ? meld.kind : "";
    $("meld-kind").disabled = !meld;
    $("new-meld").disabled = !model;
    for (const id of ["duplicate-meld", "delete-meld", "play-chord", "play-arpeggio"]) {
      $(id).disabled = !meld;
    }
    $("meld-up").disabled = !meld || this.selected === 0;
    $("meld-down").disabled = !meld || this.selected >= model.melds.length - 1;
    this.showList();
  }

  showList() {
    const list = $("meld-list");
    const focused = list.contains(document.activeElement);
    list.replaceChildren();
    if (!this.model) return;
    this.model.melds.forEach((meld, i) => {
      const item = document.createElement("li");
      const b = button("", { "data-meld": String(i), tabindex: i === this.selected ? "0" : "-1" });
      const id = document.createElement("b");
      id.textContent = String(meld.id ?? "");
      const rest = document.createElement("span");
      rest.textContent = ` ${meld.name ?? ""} · ${meld.kind ?? ""}`;
      b.append(id, rest);
      if (i === this.selected) b.setAttribute("aria-current", "true");
      b.addEventListener("click", () => this.select(i));
      item.appendChild(b);
      list.appendChild(item);
    });
    // The selected meld in view within the list (never the page scrolled to it).
    const current = list.querySelector("[aria-current]");
    if (current) {
      const item = current.parentElement;
      if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
      else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
      }
      if (focused) current.focus({ preventScroll: true });
    }
    this.showProblems();
  }

  // ---- the wheel ------------------------------------------------------------------------

  // One editor step (a tap, an alternative, the octave, or only a redraw), queued so that
  // taps in quick succession each see the last one's meld.
  step(action) {
    this.queue = this.queue.then(() => this.runStep(action)).catch((err) => {
      console.error(err);
      $("editor-degrees").textContent = "the editor failed: " + (err.message || err);
    });
    return this.queue;
  }

  async runStep(action) {
    const meld = this.meld;
    if (!meld) {
      this.showWheel(null);
      return;
    }
    const answer = await this.host.edit({
      kind: meld.kind, degrees: meld.degrees, auto: this.auto.get(meld) || [],
      root: $("editor-root").value || "C", action,
    });
    if (meld !== this.meld) return;             // another meld was chosen meanwhile
    this.auto.set(meld, answer.auto);
    this.answer = answer;
    if (action && answer.changed && answer.editable) {   // a redraw never rewrites the JSON
      meld.degrees = answer.degrees;
      if (Object.keys(action).length) this.fresh.delete(meld);
      this.commit();
    }
    this.showWheel(answer);
  }

  showWheel(answer) {
    const editable = Boolean(answer && answer.editable);
    $("editor-wheel").dataset.editable = String(editable);
    this.sectors.forEach((sector, s) => {
      // A meld the card cannot edit still shows the positions it can read (tapping is off).
      const view = answer && answer.sectors.length ? answer.sectors[s] : null;
      sector.dataset.state = view ? view.state : "off";
      sector.disabled = !editable;
      sector.replaceChildren();
      const degree = document.createElement("span");
      degree.className = "degree";
      const note = document.createElement("span");
      note.className = "note";
      // The accessible name begins with the text shown (degree, note), then the state.
      const state = document.createElement("span");
      state.className = "sr-only";
      if (view && view.state !== "off") {
        sector.dataset.degree = view.degree;
        degree.textContent = s === 0 && answer.octave ? "1·8" : view.label;
        note.textContent = view.note;
        state.textContent = ", " + view.state;
      } else {
        delete sector.dataset.degree;
        degree.textContent = "·";
        state.textContent = `${s} semitones above the root, off`;
      }
      sector.append(degree, note, state);
      if (meldKind(this.meld)) sector.dataset.kind = meldKind(this.meld);
      const chip = this.chips[s];
      chip.hidden = true;
      if (!view || !editable) return;
      if (s === 0) {
        chip.hidden = false;
        chip.dataset.degree = "8";
        chip.textContent = "8";
        chip.setAttribute("aria-pressed", String(Boolean(answer.octave)));
        chip.title = answer.octave ? "the octave (8) is in the meld: tap to leave it out"
          : "add the octave (8)";
      } else if (view.state !== "off" && view.alternatives.length) {
        const next = view.alternatives[0];
        chip.hidden = false;
        chip.dataset.degree = next.degree;
        chip.textContent = "⇄" + next.label;
        chip.removeAttribute("aria-pressed");
        chip.title = `spell it ${next.label} (${next.note}) instead of ${view.label}` +
          (view.alternatives.length > 1 ? "; tap again for " +
            view.alternatives.slice(1).map((a) => a.label).join(", ") : "");
        chip.setAttribute("aria-label", chip.title);
      }
    });
    const line = $("editor-degrees");
    if (!answer) line.textContent = this.model ? "no meld: add one" : $("editor").title;
    else if (!editable) {
      const why = answer.why.replace(/degrees\[(\d+)\]/g, (_, j) => "degree " + (Number(j) + 1));
      const shown = answer.sectors.some((v) => v.state !== "off")
        ? "shows what it can read but " : "";
      line.textContent = `the card ${shown}cannot edit this meld (${why}): put it right in the ` +
        "JSON below";
    }
    else {
      line.textContent = "degrees " + answer.degrees.join(" ") + " · notes " +
        answer.notes.join(" ");
    }
    this.showProblems();
    document.body.dataset.editorSteps = String(Number(document.body.dataset.editorSteps || 0) + 1);
  }

  // Opening a file, an example, a new set: one after another (settled() waits for them).
  track(task) {
    this.tasks = (this.tasks || Promise.resolve()).then(task).catch((err) => {
      console.error(err);
      this.said("the studio failed: " + (err.message || err));
    });
    return this.tasks;
  }

  // Resolves when the opening, the editor's queued steps and the latest check are done (the
  // tests wait).
  async settled() {
    let queue;
    let tasks;
    do {
      queue = this.queue;
      tasks = this.tasks;
      await tasks;
      await queue;
      await this.checking;
    } while (queue !== this.queue || tasks !== this.tasks);
    return this.result;
  }

  // ---- checks -----------------------------------------------------------------------------

  // The latest check wins: a slower one for older text is dropped.
  validate() {
    const asked = ++this.checks;
    const done = this.host.check(this.path, this.bytes).then((result) => {
      if (asked !== this.checks) return result;
      this.show(result, asked);
      return result;
    });
    this.checking = done;
    return done;
  }

  show(result, asked) {
    this.result = result;
    const list = $("problems");
    list.replaceChildren();
    const problems = result.problems || [];
    result.lines.forEach((line, i) => {
      const item = document.createElement("li");
      item.className = result.valid ? "valid" : "error";
      if (result.valid) item.textContent = friendly(line);
      else {
        item.dataset.errorFor = problems[i] ? fieldOf(problems[i][0], this.selected) : "source";
        // A tap on a message goes to its place: the meld chosen, its field focused.
        const go = button(friendly(line), { class: "goto" });
        go.addEventListener("click", () => this.goTo(problems[i] ? problems[i][0] : ""));
        item.appendChild(go);
      }
      list.appendChild(item);
    });
    if (result.valid && result.refused) {
      const item = document.createElement("li");
      item.className = "error";
      item.dataset.errorFor = "set-name";
      item.textContent = friendly(result.refused) + " (to preview or send it)";
      list.appendChild(item);
    }
    $("studio").dataset.valid = String(result.valid);
    $("studio").dataset.checks = String(asked);
    this.showButtons();
    this.showProblems();
  }

  // The field of a validator place, its meld chosen first.
  goTo(where) {
    const at = place(where);
    if (at.meld !== null && this.model && at.meld < this.model.melds.length) this.select(at.meld);
    const field = $(at.meld !== null ? fieldOf(where, at.meld) : fieldOf(where, this.selected));
    const target = field && field.id === "editor-wheel" ? this.sectors[0] : field;
    if (target) {
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    }
  }

  // Preview and send: greyed with the reason beside them.
  showButtons() {
    const result = this.result;
    const usable = result && result.valid && !result.refused;
    $("preview").disabled = !usable || this.busy;
    $("flash").disabled = !usable || this.busy || !this.serial;
    $("drive-file").disabled = !usable;
    $("drive-name").textContent = usable ? result.name + ".cwm" : "once the set has no problems";
    let why = "";
    if (!result) why = "checking the set…";
    else if (!result.valid) {
      const count = (result.problems || []).length || result.lines.length;
      why = `Preview and sending wait until the set is right: ${count} ` +
        `${count === 1 ? "problem is" : "problems are"} listed below, each also at its field.`;
    } else if (result.refused) why = "Preview and sending wait: " + friendly(result.refused);
    else if (this.busy) why = "sending the set to the wheel…";
    else if (!this.serial) why = "This browser cannot send to a wheel over USB: see below.";
    $("why-not").textContent = why;
    const link = $("set-link");
    link.href = location.origin + location.pathname + "#set=" + base64url(
      this.model ? JSON.stringify(this.model) : this.text);
  }

  // Each problem at its place: the meld in the list, the field (its message tied to it by
  // aria-describedby), the sector of a degree.
  showProblems() {
    const problems = (this.result && this.result.problems) || [];
    const byMeld = new Map();
    const fields = new Map();
    const sectors = new Set();
    const meld = this.meld;
    const add = (field, what) => fields.set(field, [...(fields.get(field) || []), what]);
    for (const [where, what] of problems) {
      const at = place(where);
      const field = fieldOf(where, this.selected);
      if (at.meld !== null) {
        if (!byMeld.has(at.meld)) byMeld.set(at.meld, []);
        byMeld.get(at.meld).push(friendly(`${where}: ${what}`));
        if (at.meld !== this.selected) continue;
        // Under the card, which degree (counting from 1): a mistyped one has no sector.
        const which = at.field === "degrees" && at.index !== null ? `degree ${at.index + 1}: ` : "";
        add(field, which + friendly(what));
        if (at.field === "degrees" && at.index !== null && meld && Array.isArray(meld.degrees)) {
          const text = String(meld.degrees[at.index] ?? "");
          const hit = this.sectors.find((s) => s.dataset.degree === text.replace(/[()]/g, ""));
          if (hit) sectors.add(hit);
        }
      } else {
        // A place the fields do not show ("format", "melds[3].colour"): said with it.
        add(field, friendly(field === "source" && where ? `${where}: ${what}` : what));
      }
    }
    if (this.result && !this.result.valid && !problems.length) {
      add("source", this.result.lines.map(friendly).join("; "));
    }
    for (const b of $("meld-list").querySelectorAll("button[data-meld]")) {
      const said = byMeld.get(Number(b.dataset.meld));
      b.classList.toggle("bad", Boolean(said));
      b.title = said ? said.join("\n") : "";
    }
    const others = [...byMeld.keys()].filter((i) => i !== this.selected);
    if (others.length) {
      add("meld-list", "meld " + others.map((i) => i + 1).join(", ") +
        (others.length === 1 ? " has a problem" : " have problems") + " (marked ⚠)");
    }
    for (const p of document.querySelectorAll("#studio .field-problem[data-error-for]")) {
      const said = fields.get(p.dataset.errorFor);
      p.textContent = said ? said.join("; ") : "";
      const input = $(p.dataset.errorFor);
      if (input && input.matches("input, select, textarea")) {
        input.setAttribute("aria-invalid", String(Boolean(said)));
      }
    }
    $("editor-wheel").classList.toggle("bad", fields.has("editor-wheel"));
    for (const s of this.sectors) s.classList.toggle("bad", sectors.has(s));
  }

  // Checked again now: what is sent is what passed, never an older result.
  async usable() {
    await this.queue;
    const result = await this.validate();
    return result.valid && !result.refused ? result : null;
  }

  // ---- preview, save, flash ---------------------------------------------------------------

  // On the page's own board, for now: the compiled set beside the others on a copy of its
  // flash, made the active set (settings.json's "meldset", as `meldset flash` does) and opened
  // at the meld being edited; the board's own flash is kept as it was, and "stop preview" or
  // a reload returns to it.
  async preview() {
    const set = await this.usable();
    if (!set) return;
    const meld = this.meld;
    const kind = meld ? KINDS.indexOf(meld.kind) : -1;
    const within = kind < 0 ? 0 : this.model.melds.slice(0, this.selected)
      .filter((m) => m.kind === meld.kind).length;
    await this.board.preview((flash) => {
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
      settings.mode = "explorer";
      if (kind >= 0) {
        const cursor = Array.isArray(settings.melds) && settings.melds.length === 3
          ? settings.melds.slice() : [0, 0, 0];
        cursor[kind] = within;
        settings.kind = kind;
        settings.melds = cursor;
      }
      flash.set("settings.json", encoder.encode(JSON.stringify(settings)));
    });
    this.previewing = true;
    $("stop-preview").hidden = false;
    document.body.dataset.preview = set.name;
    this.log(`previewing ${set.name} on the wheel (${set.melds} melds) until you stop the ` +
             "preview or reload the page; the board's own sets are unchanged");
    this.said(`the wheel runs ${set.name} now, as a preview (until stop preview)`);
  }

  async stopPreview() {
    await this.board.stopPreview();
    this.previewing = false;
    $("stop-preview").hidden = true;
    delete document.body.dataset.preview;
    this.log("preview stopped: the wheel runs the board's own set again");
    this.said("preview stopped: the wheel runs its own set again");
  }

  // The set as it is in the editor, downloaded as <set name>.json; a set with problems only
  // when asked for, as a draft.
  async save() {
    const name = this.model && typeof this.model.name === "string" && this.model.name.trim();
    let file = name ? name.trim() + ".json" : this.path;
    const result = await this.settled();
    if (result && !result.valid) {
      const lines = result.lines.map(friendly);
      const yes = await this.ask("The set has problems, so a wheel cannot use it yet. Save " +
        "it anyway as a draft, to finish later?", lines.slice(0, 6).concat(
          lines.length > 6 ? [`and ${lines.length - 6} more`] : []), "save as a draft",
        "cancel");
      if (!yes) return null;
      file = file.replace(/\.json$/, "") + "-draft.json";
    }
    download(file, this.bytes, "application/json");
    this.baseline = this.text;
    this.keep();
    this.said("saved as " + file + " (in your downloads)");
    return file;
  }

  // The compiled set for a CircuitPython wheel's drive: melds/<name>.cwm.
  async driveFile() {
    const set = await this.usable();
    if (!set) return;
    download(set.name + ".cwm", set.blob, "application/octet-stream");
    this.said(`downloaded ${set.name}.cwm: copy it into the wheel's melds folder`);
  }

  async copyLink() {
    this.showButtons();
    const url = $("set-link").href;
    try {
      if (navigator.share) await navigator.share({ title: this.path, url });
      else await navigator.clipboard.writeText(url);
      this.said("the link is copied: open it on a computer with Chrome or Edge");
    } catch (err) {
      this.said("copy the link by hand: press and hold it");
    }
  }

  // The selected meld from the root shown on the card, as a chord or one note at a time.
  play(arpeggio) {
    const answer = this.answer;
    if (!this.sound || !answer) return;      // a meld the card cannot edit: what it shows
    const name = $("editor-root").value || "C";
    const root = (PC_OF[name[0]] + (name.includes("♯") ? 1 : 0) - (name.includes("♭") ? 1 : 0)
      + 12) % 12;
    const notes = answer.sectors.filter((s) => s.state !== "off").map((s) => 60 + root + s.sector);
    if (answer.octave) notes.push(72 + root);
    if (arpeggio) this.sound.arpeggio(notes);
    else this.sound.chord(notes);
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
    this.showButtons();
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

function meldKind(meld) {
  return meld && KINDS.includes(meld.kind) ? meld.kind : null;
}
