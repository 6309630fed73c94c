// A set in a link (host_tools/web/site/studio_link.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LinkError, linked, setHash, shareHash } from "../../host_tools/web/site/studio_link.js";
import { formatSet } from "../../host_tools/web/site/studio_text.js";

const SET = { format: "chromawheel-meldset", version: 1, name: "year-8", title: "Année 8",
              melds: [{ id: "maj", name: "major triad", kind: "chord", degrees: ["1", "3", "5"] },
                      { id: "min", name: "minor triad", kind: "chord", degrees: ["1", "b3", "5"] }] };

test("a set travels in the share link and back, one meld a line", async () => {
  const hash = await shareHash(SET);
  assert.match(hash, /^#s=[A-Za-z0-9_-]+$/);
  assert.ok(hash.length < setHash(JSON.stringify(SET)).length);
  const back = await linked(hash);
  assert.equal(back.kind, "share");
  assert.equal(new TextDecoder().decode(back.bytes), formatSet(SET));
});

test("the studio's older link too, its set one meld a line (not one long line)", async () => {
  const back = await linked(setHash(JSON.stringify(SET)));
  assert.equal(back.kind, "set");
  assert.equal(new TextDecoder().decode(back.bytes), formatSet(SET));
  assert.equal(await linked("#other"), null);
  assert.equal(await linked(""), null);
});

test("a link cut short is said in plain words, never a parser's", async () => {
  const share = await shareHash(SET);
  const old = setHash(JSON.stringify(SET));
  for (const hash of [share.slice(0, share.length - 10), old.slice(0, old.length - 20),
                      old.slice(0, 7), "#s="]) {
    await assert.rejects(linked(hash), (err) => err instanceof LinkError &&
      err.message.startsWith("the link's set is damaged: it was cut short?"), hash);
  }
});
