// A set in a link's #set= part (host_tools/web/site/studio_link.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { linkedBytes, setHash } from "../../host_tools/web/site/studio_link.js";

test("a set travels in the link and back, byte for byte", () => {
  const text = '{"name": "année", "melds": []}';
  const hash = setHash(text);
  assert.match(hash, /^#set=[A-Za-z0-9_-]+$/);
  assert.equal(new TextDecoder().decode(linkedBytes(hash)), text);
  assert.equal(linkedBytes("#other"), null);
  assert.equal(linkedBytes(""), null);
});
