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

function button(text, attrs = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  return b;
}

export class Studio {
  constructor(site, host, board) {
    this.site = site;
    this.host = host;
    this.board = board;
    this.path = "untitled.json";
    this.bytes = new Uint8Array(0);
    this.result = null;
    this.busy = false;
    this.model = null;              // the parsed source, when it parses
    this.selected = 0;
    this.auto = new WeakMap();      // meld -> the sectors the letter rule spells
    this.queue = Promise.resolve(); // editor steps, one after another
    this.previewing = false;
    for (const name of site.examples) {
      const option = document.createElement("option");
      option.value = option.textContent = name;
      $("example").appendChild(option);
    }
    for (const name of ROOTS) {
      const option = document.createElement("option");
      option.value = option.textContent = name;
      $("editor-root").appendChild(option);
    }
    this.buildWheel();
    $("meldset-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (file) this.open(file.name, new Uint8Array(await file.arrayBuffer()));
      event.target.value = "";           // the same file opened again is read again
    });
    $("example").addEventListener("change", async (event) => {
      const name = event.target.value;
      if (name) this.open(name, await host.example(name));
    });
    let typing = null;
    $("source").addEventListener("input", () => {
      this.bytes = encoder.encode($("source").value);
      this.readSource();
      clearTimeout(typing);
      typing = setTimeout(() => this.validate(), 300);
    });
    $("validate").addEventListener("click", () => this.validate());
    $("save").addEventListener("click", () => this.save());
    $("preview").addEventListener("click", () => this.preview());
    $("stop-preview").addEventListener("click", () => this.stopPreview());
    $("flash").addEventListener("click", () => this.flash());

    $("set-name").addEventListener("input", (e) => this.setField("name", e.target.value));
    $("set-title").addEventListener("input", (e) => this.setField("title", e.target.value));
    $("meld-id").addEventListener("input", (e) => this.meldField("id", e.target.value));
    $("meld-name").addEventListener("input", (e) => this.meldField("name", e.target.value));
    $("meld-kind").addEventListener("change", (e) => this.meldField("kind", e.target.value));
    $("editor-root").addEventListener("change", () => this.step(null));
    $("new-meld").addEventListener("click", () => this.newMeld());
    $("duplicate-meld").addEventListener("click", () => this.duplicateMeld());
    $("delete-meld").addEventListener("click", () => this.deleteMeld());
    $("meld-up").addEventListener("click", () => this.moveMeld(-1));
    $("meld-down").addEventListener("click", () => this.moveMeld(1));

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

  // ---- the set as a model, and its JSON ---------------------------------------------------

  get meld() {
    return this.model && this.model.melds[this.selected];
  }

  // The file's own bytes are what is checked (a file that is not UTF-8 is said so, as the
  // command line says it); the editor shows them as text.
  open(path, bytes) {
    this.setPath(path);
    this.model = null;                   // a new file: its name is what was opened
    this.bytes = bytes;
    this.selected = 0;
    $("source").value = decoder.decode(bytes);
    this.readSource();
    return this.validate();
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

  // The model changed in the editor: the JSON view rewritten, checked.
  commit() {
    const text = formatSet(this.model);
    $("source").value = text;
    this.bytes = encoder.encode(text);
    this.validate();
  }

  setField(key, value) {
    if (!this.model) return;
    if (value === "" && key === "title") delete this.model.title;
    else this.model[key] = value;
    if (key === "name" && value.trim()) this.setPath(value.trim() + ".json");
    this.commit();
  }

  meldField(key, value) {
    const meld = this.meld;
    if (!meld) return;
    meld[key] = value;
    this.showList();
    this.commit();
    if (key === "kind") this.step({});            // the letter rule's sectors spelled again
  }

  // ---- the meld list ------------------------------------------------------------------------

  unused(prefix) {
    const ids = new Set(this.model.melds.map((m) => String(m.id)));
    const names = new Set(this.model.melds.map((m) => String(m.name).toLowerCase()));
    for (let n = 1; ; n++) {
      if (!ids.has(prefix + n) && !names.has(("new meld " + n).toLowerCase())) return n;
    }
  }

  newMeld() {
    if (!this.model) return;
    const n = this.unused("new");
    const meld = { id: "new" + n, name: "new meld " + n, kind: "chord", degrees: ["1"] };
    this.auto.set(meld, []);
    this.model.melds.push(meld);
    this.select(this.model.melds.length - 1);
    this.commit();
  }

  duplicateMeld() {
    const meld = this.meld;
    if (!meld) return;
    const copy = JSON.parse(JSON.stringify(meld));
    const taken = (key, value) => this.model.melds.some(
      (m) => String(m[key]).toLowerCase() === String(value).toLowerCase());
    for (let n = 2; ; n++) {
      const id = String(meld.id).slice(0, 14) + "-" + n;
      const name = String(meld.name).slice(0, 36) + " " + n;
      if (!taken("id", id) && !taken("name", name)) {
        copy.id = id;
        copy.name = name;
        break;
      }
    }
    if (this.auto.has(meld)) this.auto.set(copy, this.auto.get(meld).slice());
    this.model.melds.splice(this.selected + 1, 0, copy);
    this.select(this.selected + 1);
    this.commit();
  }

  deleteMeld() {
    if (!this.meld) return;
    this.model.melds.splice(this.selected, 1);
    this.select(Math.min(this.selected, this.model.melds.length - 1));
    this.commit();
  }

  moveMeld(by) {
    const to = this.selected + by;
    if (!this.meld || to < 0 || to >= this.model.melds.length) return;
    const melds = this.model.melds;
    [melds[this.selected], melds[to]] = [melds[to], melds[this.selected]];
    this.select(to);
    this.commit();
  }

  select(index) {
    this.selected = Math.max(index, 0);
    this.showSet();
    this.step(null);
  }

  showSet() {
    const model = this.model;
    $("set-name").value = model && typeof model.name === "string" ? model.name : "";
    $("set-title").value = model && typeof model.title === "string" ? model.title : "";
    const meld = this.meld;
    for (const key of ["id", "name"]) {
      const input = $("meld-" + key);
      const value = meld ? meld[key] : "";
      if (document.activeElement !== input) input.value = typeof value === "string" ? value : "";
      input.disabled = !meld;
    }
    $("meld-kind").value = meld && KINDS.includes(meld.kind) ? meld.kind : "";
    $("meld-kind").disabled = !meld;
    for (const id of ["set-name", "set-title", "new-meld"]) $(id).disabled = !model;
    for (const id of ["duplicate-meld", "delete-meld"]) $(id).disabled = !meld;
    $("meld-up").disabled = !meld || this.selected === 0;
    $("meld-down").disabled = !meld || this.selected >= model.melds.length - 1;
    this.showList();
  }

  showList() {
    const list = $("meld-list");
    list.replaceChildren();
    if (!this.model) return;
    this.model.melds.forEach((meld, i) => {
      const item = document.createElement("li");
      const b = button("", { "data-meld": String(i) });
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
    if (action && answer.changed && answer.editable) {   // a redraw never rewrites the JSON
      meld.degrees = answer.degrees;
      this.commit();
    }
    this.showWheel(answer);
  }

  showWheel(answer) {
    const editable = Boolean(answer && answer.editable);
    $("editor-wheel").dataset.editable = String(editable);
    this.sectors.forEach((sector, s) => {
      const view = editable ? answer.sectors[s] : null;
      sector.dataset.state = view ? view.state : "off";
      sector.disabled = !editable;
      sector.replaceChildren();
      const degree = document.createElement("span");
      degree.className = "degree";
      const note = document.createElement("span");
      note.className = "note";
      if (view && view.state !== "off") {
        sector.dataset.degree = view.degree;
        degree.textContent = s === 0 && answer.octave ? "1·8" : view.label;
        note.textContent = view.note;
        sector.setAttribute("aria-label", `${view.label} (${view.note}), ${view.state}`);
      } else {
        delete sector.dataset.degree;
        degree.textContent = "·";
        sector.setAttribute("aria-label", `${s} semitones above the root: off`);
      }
      sector.append(degree, note);
      if (meldKind(this.meld)) sector.dataset.kind = meldKind(this.meld);
      const chip = this.chips[s];
      chip.hidden = true;
      if (!view) return;
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
    else if (!editable) line.textContent = "the wheel cannot show this meld (" + answer.why +
      "): edit it in the JSON below";
    else {
      line.textContent = "degrees " + answer.degrees.join(" ") + " · notes " +
        answer.notes.join(" ");
    }
    this.showProblems();
    document.body.dataset.editorSteps = String(Number(document.body.dataset.editorSteps || 0) + 1);
  }

  // Resolves when the editor's queued steps and the latest check are done (the tests wait).
  async settled() {
    let queue;
    do {
      queue = this.queue;
      await queue;
      await this.checking;
    } while (queue !== this.queue);
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
    this.showProblems();
  }

  // Each problem at its place: the meld in the list, the field, the sector of a degree.
  showProblems() {
    const problems = (this.result && this.result.problems) || [];
    const byMeld = new Map();
    const fields = new Map();
    const sectors = new Set();
    const meld = this.meld;
    for (const [where, what] of problems) {
      const at = place(where);
      if (at.meld !== null) {
        if (!byMeld.has(at.meld)) byMeld.set(at.meld, []);
        byMeld.get(at.meld).push(`${where}: ${what}`);
        if (at.meld !== this.selected) continue;
        const field = ["id", "name", "kind", "degrees"].includes(at.field) ? at.field : "meld";
        fields.set(field, [...(fields.get(field) || []), what]);
        if (field === "degrees" && at.index !== null && meld && Array.isArray(meld.degrees)) {
          const text = String(meld.degrees[at.index] ?? "");
          const hit = this.sectors.find((s) => s.dataset.degree === text.replace(/[()]/g, ""));
          if (hit) sectors.add(hit);
        }
      } else if (at.field === "name") {
        fields.set("set-name", [...(fields.get("set-name") || []), what]);
      }
    }
    for (const b of $("meld-list").querySelectorAll("button[data-meld]")) {
      const said = byMeld.get(Number(b.dataset.meld));
      b.classList.toggle("bad", Boolean(said));
      b.title = said ? said.join("\n") : "";
    }
    for (const p of document.querySelectorAll("#meld-card .field-problem")) {
      const said = fields.get(p.dataset.for);
      p.textContent = said ? said.join("; ") : "";
      const input = p.dataset.for === "degrees" || p.dataset.for === "meld" ? null
        : $("meld-" + p.dataset.for);
      if (input) input.setAttribute("aria-invalid", String(Boolean(said)));
    }
    const setName = fields.get("set-name");
    $("set-name-problem").textContent = setName ? setName.join("; ") : "";
    $("set-name").setAttribute("aria-invalid", String(Boolean(setName)));
    $("editor-wheel").classList.toggle("bad", fields.has("degrees"));
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
  }

  async stopPreview() {
    await this.board.stopPreview();
    this.previewing = false;
    $("stop-preview").hidden = true;
    delete document.body.dataset.preview;
    this.log("preview stopped: the wheel runs the board's own set again");
  }

  // The set as it is in the editor, downloaded as <set name>.json.
  save() {
    const name = this.model && typeof this.model.name === "string" && this.model.name.trim();
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([this.bytes], { type: "application/json" }));
    link.download = name ? name.trim() + ".json" : this.path;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    return link.download;
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

function meldKind(meld) {
  return meld && KINDS.includes(meld.kind) ? meld.kind : null;
}
