// The meld-set studio: open or build a meld set, check it with the core's own validator
// running in the page (the messages `chromawheel meldset validate` prints, each shown at its
// meld and field too), preview it on the wheel, and flash it to a board over Web Serial as
// `chromawheel meldset flash` does.
//
// Two views of one set, kept in step: the meld card (studio_card.js) with the list and the
// fields (studio_list.js), and the JSON source (#source). An edit on the card or in a field
// rewrites the JSON; JSON typed by hand is read back into them whenever it parses. The set and
// its undo steps are studio_model.js's; the files and links studio_files.js's; the validator's
// messages at their places studio_problems.js's; preview and send studio_send.js's. Here: the
// fields, the checks, and keeping the work in the browser (restored on reload).

import { MeldsByName } from "./studio_byname.js";
import { MeldCard } from "./studio_card.js";
import { SetFiles } from "./studio_files.js";
import { MeldList } from "./studio_list.js";
import { starter } from "./studio_melds.js";
import { SetModel } from "./studio_model.js";
import { CardPrinter } from "./studio_print.js";
import { Problems } from "./studio_problems.js";
import { Sender } from "./studio_send.js";
import { Share } from "./share.js";
import { fileNameOf } from "./studio_text.js";

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
const STORE = "chromawheel.studio";

export class Studio {
  constructor(site, host, board, sound = null) {
    this.site = site;
    this.host = host;
    this.board = board;
    this.sound = sound;
    this.doc = new SetModel();
    this.bytes = new Uint8Array(0);
    this.result = null;
    this.fresh = new WeakSet();     // new melds not yet touched (a kind chosen swaps them)
    this.limits = null;             // the validator's, asked in start()
    this.checks = 0;
    this.problems = new Problems(this);
    this.card = new MeldCard(this);
    this.list = new MeldList(this);
    this.send = new Sender(this);
    this.files = new SetFiles(this);
    this.share = new Share(this);
    this.byName = new MeldsByName(this);
    this.printer = new CardPrinter(this);
    this.wire();
    // Leaving asks only when this browser could not keep the work (its storage refused it).
    window.addEventListener("beforeunload", (event) => {
      if (this.unkept && this.doc.dirty) event.preventDefault();
    });
    this.ready = this.track(() => this.start());
  }

  wire() {
    $("undo").addEventListener("click", () => this.undo());
    $("redo").addEventListener("click", () => this.redo());
    let typing = null;
    $("source").addEventListener("input", () => {
      this.bytes = encoder.encode($("source").value);
      this.readText($("source").value);
      this.doc.record("source");
      this.keep();
      clearTimeout(typing);
      typing = setTimeout(() => this.validate(), 300);
    });
    $("validate").addEventListener("click", () => this.validate());
    for (const key of ["name", "title", "description"]) {
      $(`set-${key}`).addEventListener("input", (e) => this.setField(key, e.target.value));
    }
    $("meld-id").addEventListener("input", (e) => this.meldField("id", e.target.value));
    $("meld-name").addEventListener("input", (e) => this.meldField("name", e.target.value));
    $("meld-kind").addEventListener("change", (e) => this.meldField("kind", e.target.value));
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

  // The set this browser kept (restored as it was), a set in the link (#set=...), or for a
  // first visit an example.
  async start() {
    this.limits = await this.host.limits();
    // The limits are said, never enforced by cutting what is typed or pasted: the validator
    // says "56 characters, at most 40" at the field, and nothing is lost.
    for (const [id, limit] of [["set-name", "set_name"], ["meld-id", "id"], ["meld-name", "name"],
                               ["set-title", "text"], ["set-description", "text"]]) {
      $(id).dataset.limit = String(this.limits[limit]);
    }
    let kept = null;
    try {
      kept = JSON.parse(localStorage.getItem(STORE) || "null");
    } catch (_err) {
      kept = null;
    }
    if (this.doc.restore(kept)) {
      this.shown();
      this.bytes = encoder.encode(this.doc.text);
      this.keep();
      this.validate();
      this.said(`your set is back as you left it${this.doc.dirty ? " (not saved to a file)" : ""}`);
    } else {
      this.doc.baseline = null;
      await this.files.open("jazz.json", await this.host.example("jazz.json"), { record: false });
      this.said("an example set: jazz.json. Start your own with new set.");
    }
    await this.files.fromLink();
  }

  // For the tests and the page: the set's file name, and what the JSON view holds.
  get path() {
    return this.doc.path;
  }

  get text() {
    return this.doc.text;
  }

  // The JSON text read into the model, and the views drawn from it.
  readText(text) {
    const { old } = this.doc.read(text);
    const model = this.doc.model;
    if (model && old && Array.isArray(old.melds)) {
      // Melds typed over keep the letter rule's sectors while their degrees are unchanged.
      const auto = this.card.auto;
      model.melds.forEach((meld, i) => {
        const before = old.melds[i];
        if (before && auto.has(before) &&
            JSON.stringify(before.degrees) === JSON.stringify(meld.degrees)) {
          auto.set(meld, auto.get(before));
        }
      });
    }
    this.shown();
  }

  // The views drawn from the model as it is now.
  shown() {
    const why = this.doc.why;
    if ($("source").value !== this.doc.text) $("source").value = this.doc.text;
    $("source-name").textContent = this.doc.path;
    $("editor").dataset.paused = why ? "true" : "false";
    $("editor").title = why ? `the editor waits: ${why}` : "";
    this.list.showSet();
    this.card.step(null);
  }

  // The model changed in the editor: the JSON view rewritten, checked, kept.
  commit(field = null) {
    const text = this.doc.write();
    $("source").value = text;
    this.bytes = encoder.encode(text);
    this.doc.record(field);
    this.keep();
    this.validate();
  }

  undo() {
    if (!this.doc.undo()) return;
    this.applied();
    this.said("undone");
  }

  redo() {
    if (!this.doc.redo()) return;
    this.applied();
    this.said("done again");
  }

  applied() {
    this.bytes = encoder.encode(this.doc.text);
    this.shown();
    this.keep();
    this.validate();
  }

  // The set kept in the browser (its undo steps dropped first when the storage is full).
  keep() {
    const doc = this.doc;
    $("undo").disabled = !doc.undoStack.length;
    $("redo").disabled = !doc.redoStack.length;
    this.unkept = true;
    for (const steps of [true, false]) {
      try {
        localStorage.setItem(STORE, JSON.stringify(doc.toJSON(steps)));
        this.unkept = false;
        break;
      } catch (_err) { /* full, or refused: try without the steps, then say so */ }
    }
    const where = this.unkept ? "this browser could not keep it: save it to a file"
      : "kept in this browser as you work";
    $("kept").textContent = (doc.dirty ? "not saved to a file; " : "") + where;
    document.body.dataset.dirty = String(doc.dirty);
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
        $("ask-yes").onclick = null;
        $("ask-no").onclick = null;
        dialog.oncancel = null;
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
    const model = this.doc.model;
    if (!model) return;
    if (key === "title") {
      // The file name follows the title while it is the one the title gave (or none yet).
      const before = typeof model.title === "string" ? model.title : "";
      const follows = !model.name || model.name === "my-set" ||
        model.name === fileNameOf(before, this.site.device);
      if (follows) {
        model.name = fileNameOf(value, this.site.device);
        this.doc.path = `${model.name}.json`;
      }
    }
    if (value === "" && (key === "title" || key === "description")) delete model[key];
    else model[key] = value;
    if (key === "name" && value.trim()) this.doc.path = `${value.trim()}.json`;
    $("source-name").textContent = this.doc.path;
    this.commit(`set-${key}`);
    if (key === "title") this.list.showSet();
  }

  meldField(key, value) {
    const meld = this.doc.meld;
    if (!meld) return;
    const model = this.doc.model;
    if (key === "kind" && this.fresh.has(meld)) {
      // A new meld not touched yet: the kind's first meld the set lacks, in its place.
      const other = starter(value, model.melds.filter((m) => m !== meld));
      Object.assign(meld, other || {}, { kind: value });
      this.card.auto.set(meld, []);
      this.list.showSet();
      this.commit("meld-kind");
      this.card.step({});
      return;
    }
    this.fresh.delete(meld);
    meld[key] = value;
    this.list.show();
    this.commit(`meld-${key}${this.doc.selected}`);
    if (key === "kind") this.card.step({});       // the letter rule's sectors spelled again
  }

  // ---- the checks ---------------------------------------------------------------------------

  // Opening a file, an example, a new set: one after another (settled() waits for them).
  track(task) {
    this.tasks = (this.tasks || Promise.resolve()).then(task).catch((err) => {
      console.error(err);
      this.said(`the studio failed: ${err.message || err}`);
    });
    return this.tasks;
  }

  // Resolves when the opening, the card's queued steps and the latest check are done (the
  // tests wait).
  async settled() {
    let queue;
    let tasks;
    do {
      queue = this.card.queue;
      tasks = this.tasks;
      await tasks;
      await queue;
      await this.checking;
    } while (queue !== this.card.queue || tasks !== this.tasks);
    return this.result;
  }

  // The latest check wins: a slower one for older text is dropped.
  validate() {
    const asked = ++this.checks;
    const done = this.host.check(this.doc.path, this.bytes).then((result) => {
      // A valid set a flash would refuse (the default set's name), in the device's words.
      const device = this.site.device;
      if (result.valid && result.name === device.default_set) {
        result.refused = `${this.doc.path}: ${device.flash_refused}`;
      }
      if (asked !== this.checks) return result;
      this.result = result;
      this.problems.show(result, asked);
      return result;
    });
    this.checking = done;
    return done;
  }

  // Checked again now: what is sent is what passed, never an older result.
  async usable() {
    await this.card.queue;
    const result = await this.validate();
    return result.valid && !result.refused ? result : null;
  }

  flash() {
    return this.send.flash();
  }
}
