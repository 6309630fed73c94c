// The ring's names as the firmware spells them (host_tools/web/site/frames.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { namesOf, titleOf } from "../../host_tools/web/site/frames.js";

test("the ring's names come by pitch class, the root first", () => {
  assert.deepEqual([...namesOf("3:E♭ 7:G 10:B♭ 0:C")], [[3, "E♭"], [7, "G"], [10, "B♭"], [0, "C"]]);
  assert.deepEqual([...namesOf("0:C 4:E 7:G 0:C")], [[0, "C"], [4, "E"], [7, "G"]]);   // the 8
  assert.deepEqual([...namesOf("")], []);
  assert.deepEqual([...namesOf("12:X x:Y 5")], []);
});

test("the title of the console's line, with the display's signs", () => {
  assert.equal(titleOf("Eb major pentatonic (pent): Eb F G Bb C"), "E♭ major pentatonic (pent)");
  assert.equal(titleOf("F# minor triad (min): F# A C#"), "F♯ minor triad (min)");
  assert.equal(titleOf("Bbb diminished seventh (dim7): Bbb Dbb"), "B𝄫 diminished seventh (dim7)");
  assert.equal(titleOf("C 7(b9) (7b9): C E G Bb Db"), "C 7(b9) (7b9)");
  assert.equal(titleOf(undefined), "");
});
