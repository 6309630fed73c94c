// The table view's Web MIDI side (host_tools/web/site/table_relay.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describe, hex, isLink, messages, relayTargets } from "../../host_tools/web/site/table_relay.js";

// A HELLO as core/link.py frames it (tests/core/test_link.py works its bytes out by hand).
const HELLO = Uint8Array.from([0xf0, 0x7d, 0x43, 0x57, 1, 1, 0, 11, 0, 1, 0, 11,
                               0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x6b, 0xf7]);

test("the link's SysEx is told from a synth's and another maker's", () => {
  assert.ok(isLink(HELLO));
  assert.ok(!isLink(Uint8Array.from([0x90, 60, 100])));
  assert.ok(!isLink(Uint8Array.from([0xf0, 0x41, 0x10, 0x42, 0xf7])));
  assert.ok(!isLink(Uint8Array.from([0xf0, 0x7d, 0x00, 0x01, 0xf7])));   // another 7D use
});

test("a wheel's message goes to every other wheel, not back to its own", () => {
  const outputs = [{ name: "ChromaWheel A" }, { name: "ChromaWheel B" }, { name: "Synth" }];
  assert.deepEqual(relayTargets({ name: "ChromaWheel A" }, outputs).map((o) => o.name),
                   ["ChromaWheel B", "Synth"]);
  assert.deepEqual(relayTargets({ name: "Keyboard" }, outputs).length, 3);
});

test("the worker's queue comes out as whole messages", () => {
  const two = hex(HELLO) + hex(HELLO);
  const out = messages(two);
  assert.equal(out.length, 2);
  assert.deepEqual([...out[1]], [...HELLO]);
  assert.deepEqual(messages(""), []);
});

test("the view's words: the seats, who plays, the link", () => {
  const view = { known: true, members: [1, 3], entries: 7, digest: "0a1b2c3d4e", heard: true,
                 title: "The Original", round: 2, rounds: 3, dealer: 0, current: 1,
                 over: false, totals: [40, 70, 0], leaders: [1], news: [] };
  const words = describe(view);
  assert.equal(words.head, "The Original, round 2 of 3: P1 deals, P2 to play");
  assert.deepEqual(words.seats.map((s) => [s.seat, s.total, s.playing, s.leading, s.heard]),
                   [[1, 40, false, false, true], [2, 70, true, true, false],
                    [3, 0, false, false, true]]);
  assert.equal(words.status, "2 wheels heard (P1 P3); 7 entries; digest 0a1b2c3d4e");
  assert.match(describe({ ...view, heard: false }).status, /^no wheel heard for 3 s/);
  assert.equal(describe({ ...view, over: true }).head, "The Original: game over, winner P2");
  assert.match(describe({ known: false, members: [], heard: true, entries: 0, digest: "" }).head,
               /^waiting for a wheel's game/);
});
