// What `new meld` and `duplicate` add (host_tools/web/site/studio_melds.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { duplicateOf, newMeld, sameShape, starter } from "../../host_tools/web/site/studio_melds.js";

const maj = { id: "maj", name: "major triad", kind: "chord", degrees: ["1", "3", "5"] };

test("new meld adds a chord the set lacks, a scale after a scale", () => {
  assert.equal(newMeld([], undefined).id, "maj");
  assert.equal(newMeld([maj], maj).id, "min");
  const scale = { id: "major", name: "major scale", kind: "scale",
                  degrees: ["1", "2", "3", "4", "5", "6", "7"] };
  assert.equal(newMeld([maj, scale], scale).id, "blues");
  // The same shape under another name counts as had.
  assert.equal(starter("chord", [{ ...maj, id: "M", name: "big" }]).id, "min");
  assert.equal(starter("interval", []).id, "P5");
  assert.equal(starter("nothing", []), null);
});

test("when every starter is there, a numbered new meld", () => {
  let melds = [];
  for (let i = 0; i < 13; i++) melds.push(newMeld(melds, melds[0]));
  assert.deepEqual(melds[12], { id: "m7b5", name: "half-diminished seventh", kind: "chord",
                                degrees: ["1", "b3", "b5", "b7"] });
  const next = newMeld(melds, melds[0]);
  assert.deepEqual(next, { id: "new1", name: "new meld 1", kind: "chord", degrees: ["1"] });
  melds = melds.concat([next]);
  assert.equal(newMeld(melds, melds[0]).id, "new2");
});

test("a duplicate takes a short name and a name the set lacks, within the limits", () => {
  const limits = { id: 16, name: 40 };
  const copy = duplicateOf(maj, [maj], limits);
  assert.deepEqual(copy, { ...maj, id: "maj-2", name: "major triad 2" });
  assert.equal(duplicateOf(maj, [maj, copy], limits).id, "maj-3");
  const long = { ...maj, id: "x".repeat(16), name: "y".repeat(40) };
  const made = duplicateOf(long, [long], limits);
  assert.ok(made.id.length <= 16 && made.name.length <= 40);
  assert.equal(sameShape({ kind: "chord", degrees: ["1", "3", "(5)"] }, [maj]), 0);
  assert.equal(sameShape({ kind: "scale", degrees: ["1", "3", "5"] }, [maj]), -1);
});
