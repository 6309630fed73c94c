// The set being edited and its history: its JSON text (what is checked, saved and sent), the
// set read from it when it parses (what the fields and the card edit), the file it came from,
// the meld chosen, and the undo and redo steps. Pure (no page): the studio draws it, and the
// browser keeps what toJSON() gives (tests/js unit-tests it under Node).

import { formatSet, ordered } from "./studio_text.js";

export const HISTORY = 60;                  // undo steps kept (in the browser too)
export const HISTORY_CHARS = 1500000;       // and their text at most (the storage holds ~5 MB)
export const TYPING_MS = 1200;              // keystrokes in one field this close: one step

// The set in a JSON text, when it is one the editor can show: {model, why}.
export function readSet(text) {
  let model;
  try {
    model = JSON.parse(text);
  } catch (_err) {
    return { model: null, why: "the JSON does not read (the message below says where)" };
  }
  let why = null;
  if (model === null || typeof model !== "object" || Array.isArray(model)) {
    why = "the JSON is not an object";
  } else if (!Array.isArray(model.melds)) {
    why = 'the JSON has no list of "melds"';
  } else if (model.melds.some((m) => m === null || typeof m !== "object" || Array.isArray(m))) {
    why = "a meld in the JSON is not an object";
  }
  return { model: why ? null : model, why };
}

export class SetModel {
  constructor(now = () => performance.now()) {
    this.now = now;
    this.text = "";
    this.path = "untitled.json";
    this.selected = 0;
    this.model = null;            // the parsed text, when it is a set the editor can show
    this.why = null;              // why it is not
    this.baseline = "";           // the text last opened or saved: unsaved when it differs
    this.undoStack = [];
    this.redoStack = [];
    this.current = null;          // {text, path, selected}: what undo comes back to
    this.lastEdit = { field: null, at: 0 };
  }

  get meld() {
    return this.model ? this.model.melds[this.selected] : undefined;
  }

  get dirty() {
    return this.baseline !== null && this.text !== this.baseline;
  }

  // The text read again: the model follows it when it parses; a set renamed in the JSON
  // takes its file name. `old` is the model it replaces ({model, renamed} answered).
  read(text) {
    const old = this.model;
    this.text = text;
    const { model, why } = readSet(text);
    this.model = model;
    this.why = why;
    let renamed = false;
    if (model) {
      this.selected = Math.min(this.selected, Math.max(model.melds.length - 1, 0));
      const name = model.name;
      if (old && typeof name === "string" && name.trim() && name !== old.name) {
        this.path = `${name.trim()}.json`;
        renamed = true;
      }
    }
    return { old, renamed };
  }

  // The model changed in the editor: the text written from it.
  write() {
    this.text = formatSet(ordered(this.model));
    return this.text;
  }

  snapshot() {
    return { text: this.text, path: this.path, selected: this.selected };
  }

  // After a change: the state before it becomes an undo step (keystrokes in one field, close
  // together, are one step).
  record(field) {
    const now = this.snapshot();
    if (this.current && this.current.text !== now.text) {
      const at = this.now();
      const typing = field && field === this.lastEdit.field && at - this.lastEdit.at < TYPING_MS;
      if (!typing) {
        this.undoStack.push(this.current);
        let size = this.undoStack.reduce((sum, step) => sum + step.text.length, 0);
        while (this.undoStack.length > 1 &&
               (this.undoStack.length > HISTORY || size > HISTORY_CHARS)) {
          size -= this.undoStack.shift().text.length;
        }
      }
      this.redoStack = [];
    }
    this.lastEdit = { field, at: this.now() };
    this.current = now;
  }

  // A new text with no step before it (a first visit's example).
  settle() {
    this.current = this.snapshot();
  }

  // The meld chosen is part of the step undo returns to.
  choose(index) {
    this.selected = Math.max(index, 0);
    if (this.current) this.current.selected = this.selected;
  }

  undo() {
    if (!this.undoStack.length) return false;
    this.redoStack.push(this.snapshot());
    this.apply(this.undoStack.pop());
    return true;
  }

  redo() {
    if (!this.redoStack.length) return false;
    this.undoStack.push(this.snapshot());
    this.apply(this.redoStack.pop());
    return true;
  }

  apply(state) {
    this.lastEdit = { field: null, at: 0 };
    this.path = state.path;
    this.selected = state.selected || 0;
    this.model = null;
    this.read(state.text);
    this.current = this.snapshot();
  }

  // What the browser keeps (with the steps, or without them when its storage is full).
  toJSON(steps = true) {
    return { text: this.text, path: this.path, selected: this.selected,
             baseline: this.baseline, undo: steps ? this.undoStack : [],
             redo: steps ? this.redoStack : [] };
  }

  // A kept state back as it was; false when `kept` is not one.
  restore(kept) {
    if (!kept || typeof kept.text !== "string") return false;
    this.undoStack = Array.isArray(kept.undo) ? kept.undo : [];
    this.redoStack = Array.isArray(kept.redo) ? kept.redo : [];
    this.baseline = typeof kept.baseline === "string" ? kept.baseline : "";
    this.apply({ text: kept.text, path: kept.path || "untitled.json",
                 selected: kept.selected || 0 });
    return true;
  }
}
