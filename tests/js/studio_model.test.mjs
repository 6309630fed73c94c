// The set being edited and its undo steps (host_tools/web/site/studio_model.js) under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { HISTORY, SetModel, TYPING_MS, readSet } from "../../host_tools/web/site/studio_model.js";

const SET = '{"format": "chromawheel-meldset", "version": 1, "name": "a", "melds": [' +
  '{"id": "maj", "name": "major triad", "kind": "chord", "degrees": ["1", "3", "5"]}]}';

function model() {
  let now = 0;
  const doc = new SetModel(() => now);
  doc.tick = (ms) => { now += ms; };
  return doc;
}

test("a text is read when it is a set the editor can show, else why not", () => {
  assert.equal(readSet(SET).model.melds.length, 1);
  assert.equal(readSet("{").why, "the JSON does not read (the message below says where)");
  assert.equal(readSet("[]").why, "the JSON is not an object");
  assert.equal(readSet("{}").why, 'the JSON has no list of "melds"');
  assert.equal(readSet('{"melds": [3]}').why, "a meld in the JSON is not an object");
});

test("a set renamed in the JSON takes its file name; the meld chosen stays in range", () => {
  const doc = model();
  doc.read(SET);
  doc.selected = 5;
  assert.ok(doc.read(SET.replace('"name": "a"', '"name": "lesson"')).renamed);
  assert.equal(doc.path, "lesson.json");
  assert.equal(doc.selected, 0);
});

test("edits are undone and done again; keystrokes in one field are one step", () => {
  const doc = model();
  doc.read(SET);
  doc.baseline = SET;
  doc.settle();
  doc.model.name = "b";
  doc.write();
  doc.record("set-name");
  doc.tick(TYPING_MS / 2);
  doc.model.name = "bc";
  doc.write();
  doc.record("set-name");               // the same field, soon after: the same step
  doc.tick(TYPING_MS * 2);
  doc.model.name = "bcd";
  doc.write();
  doc.record("set-name");               // later: a step of its own
  assert.equal(doc.undoStack.length, 2);
  assert.ok(doc.dirty);
  assert.ok(doc.undo());
  assert.equal(JSON.parse(doc.text).name, "bc");
  assert.ok(doc.undo());
  assert.equal(doc.text, SET);
  assert.ok(!doc.dirty);
  assert.ok(!doc.undo());
  assert.ok(doc.redo());
  assert.ok(doc.redo());
  assert.equal(JSON.parse(doc.text).name, "bcd");
  assert.ok(!doc.redo());
});

test("at most HISTORY steps are kept, and what the browser keeps comes back", () => {
  const doc = model();
  doc.read(SET);
  doc.settle();
  for (let i = 0; i < HISTORY + 10; i++) {
    doc.model.name = `n${i}`;
    doc.write();
    doc.record(null);
  }
  assert.equal(doc.undoStack.length, HISTORY);
  doc.choose(0);
  const kept = JSON.parse(JSON.stringify(doc.toJSON()));
  const again = model();
  assert.ok(again.restore(kept));
  assert.equal(again.text, doc.text);
  assert.equal(again.undoStack.length, HISTORY);
  assert.equal(again.toJSON(false).undo.length, 0);
  assert.ok(!again.restore({ text: 3 }));
});
