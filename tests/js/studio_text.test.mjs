// The studio's words and the set's JSON text (host_tools/web/site/studio_text.js), under Node's
// own test runner: `node --test tests/js` (make check runs it).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  degreesCounted, fieldOf, fileNameOf, formatSet, friendly, ordered, place,
} from "../../host_tools/web/site/studio_text.js";

test("a set is written one meld a line, as the shipped sets are", () => {
  const set = { format: "chromawheel-meldset", version: 1, name: "x",
                melds: [{ id: "maj", name: "major triad", kind: "chord", degrees: ["1", "3", "5"] },
                        { id: "min", name: "minor triad", kind: "chord", degrees: ["1", "b3", "5"] }] };
  assert.equal(formatSet(set), [
    "{", '  "format": "chromawheel-meldset",', '  "version": 1,', '  "name": "x",',
    '  "melds": [',
    '    {"id": "maj", "name": "major triad", "kind": "chord", "degrees": ["1", "3", "5"]},',
    '    {"id": "min", "name": "minor triad", "kind": "chord", "degrees": ["1", "b3", "5"]}',
    "  ]", "}", ""].join("\n"));
  assert.deepEqual(JSON.parse(formatSet(set)), set);
  // Not a set: plain JSON, kept as it is.
  assert.equal(formatSet([1, 2]), "[\n  1,\n  2\n]\n");
  assert.deepEqual(JSON.parse(formatSet({ melds: [null, 3] })), { melds: [null, 3] });
});

test("a set's keys in the shipped order, others after", () => {
  assert.deepEqual(Object.keys(ordered({ melds: [], extra: 1, name: "a", format: "f" })),
                   ["format", "name", "melds", "extra"]);
});

test("the validator's places, and in a teacher's words", () => {
  assert.deepEqual(place("melds[4].degrees[2]"), { meld: 4, field: "degrees", index: 2 });
  assert.deepEqual(place("melds[0]"), { meld: 0, field: "meld", index: null });
  assert.deepEqual(place("name"), { meld: null, field: "name", index: null });
  assert.equal(friendly("melds[4].degrees[2]: 'b4' is not a degree"),
               "meld 5, degree 3: 'b4' is not a degree");
  assert.equal(friendly("melds[1].id: duplicate id 'maj' (also melds[0])"),
               "meld 2, short name: duplicate id 'maj' (also meld 1)");
  assert.equal(friendly("year.json: name: too long"), "year.json: file name: too long");
  assert.equal(friendly("Year 8.json: name: 'Year 8': characters 'Y', ' ' are not allowed"),
               "Year 8.json: file name: 'Year 8': characters 'Y', ' ' are not allowed");
  assert.equal(degreesCounted("degrees[0] is not text"), "degree 1 is not text");
});

test("each place has its field", () => {
  assert.equal(fieldOf("melds[2].name", 2), "meld-name");
  assert.equal(fieldOf("melds[2].degrees[1]", 2), "editor-wheel");
  assert.equal(fieldOf("melds[2].name", 0), "meld-list");
  assert.equal(fieldOf("name", 0), "set-name");
  assert.equal(fieldOf("format", 0), "source");
});

// site.json's "device" carries the set name's rule (core/meldset.py): as the build writes it.
const DEVICE = { set_name_chars: "abcdefghijklmnopqrstuvwxyz0123456789-_", set_name_max: 24 };

test("a title as a file name, by the device's rule for a set's name", () => {
  assert.equal(fileNameOf("Year 7 chords", DEVICE), "year-7-chords");
  assert.equal(fileNameOf("Année 8: les accords", DEVICE), "annee-8-les-accords");
  assert.equal(fileNameOf("!!!", DEVICE), "my-set");
  assert.equal(fileNameOf("a".repeat(40), DEVICE), "a".repeat(24));
  assert.equal(fileNameOf("ab cd", { ...DEVICE, set_name_max: 3 }), "ab");
  // Another rule, another name: the page writes none of its own.
  assert.equal(fileNameOf("Year 7", { set_name_chars: "abcdefghijklmnopqrstuvwxyz-", set_name_max: 24 }),
               "year");
});
