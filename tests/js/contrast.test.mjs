// A lit LED's label reads on its colour (host_tools/web/site/contrast.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { contrast, labelOn } from "../../host_tools/web/site/contrast.js";

test("WCAG's contrast ratio", () => {
  assert.equal(contrast([0, 0, 0], [255, 255, 255]).toFixed(1), "21.0");
  // issue 48's cases: #111 on these failed 4.5:1
  assert.ok(contrast([0x11, 0x11, 0x11], [0x86, 0x3a, 0x00]) < 4.5);
  assert.ok(contrast([0x11, 0x11, 0x11], [0x23, 0x86, 0x23]) < 4.5);
});

test("black or white, whichever reads: at least 4.5:1 on every colour", () => {
  let worst = 21;
  for (let r = 0; r < 256; r += 17) {
    for (let g = 0; g < 256; g += 17) {
      for (let b = 0; b < 256; b += 17) {
        const text = labelOn([r, g, b]) === "#000" ? [0, 0, 0] : [255, 255, 255];
        worst = Math.min(worst, contrast([r, g, b], text));
      }
    }
  }
  assert.ok(worst >= 4.5, worst);
  assert.equal(labelOn([0x86, 0x3a, 0x00]), "#fff");
  assert.equal(labelOn([255, 220, 150]), "#000");
});
