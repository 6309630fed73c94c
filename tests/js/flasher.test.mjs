// The flasher's check of a set's name, by the device's rule that site.json carries
// (host_tools/web/site/flasher.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { nameProblem } from "../../host_tools/web/site/flasher.js";

const DEVICE = { set_name_chars: "abcdefghijklmnopqrstuvwxyz0123456789-_", set_name_max: 24,
                 default_set: "default", flash_refused: "the set named 'default' comes with the firmware" };

test("a set name the device takes, and the ones it refuses", () => {
  assert.equal(nameProblem("year-7_chords", DEVICE), "");
  assert.equal(nameProblem("x".repeat(24), DEVICE), "");
  for (const name of ["x".repeat(25), "Year7", "a b", "../x", "", null]) {
    assert.equal(nameProblem(name, DEVICE), `set name ${JSON.stringify(name)} cannot be flashed`);
  }
  assert.equal(nameProblem("default", DEVICE), DEVICE.flash_refused);
  assert.equal(nameProblem("x".repeat(30), { ...DEVICE, set_name_max: 32 }), "");
});
