// What the flasher writes and checks (host_tools/web/site/serial_bytes.js), under Node.
import assert from "node:assert/strict";
import { test } from "node:test";

import { crc32, digest, indexOf, pyBytes, pyStr } from "../../host_tools/web/site/serial_bytes.js";

const bytes = (text) => new TextEncoder().encode(text);

test("Python's repr() of bytes, as mpremote sends them", () => {
  assert.equal(pyBytes(bytes("ab")), "b'ab'");
  assert.equal(pyBytes(bytes("it's")), `b"it's"`);
  assert.equal(pyBytes(bytes(`'"`)), `b'\\'"'`);
  assert.equal(pyBytes(Uint8Array.from([0, 9, 10, 13, 92, 200])), "b'\\x00\\t\\n\\r\\\\\\xc8'");
  assert.equal(pyStr("melds/jazz.cwm"), "'melds/jazz.cwm'");
  assert.throws(() => pyStr("a'; import os"), /not a plain name/);
});

test("the device's hashes", async () => {
  assert.equal(crc32(bytes("123456789")), 0xcbf43926);        // the CRC-32 check value
  assert.equal(await digest(bytes("abc"), "crc32:3:0"), "crc32:3:352441c2");
  assert.equal(await digest(bytes("abc"), "ba78"),
               "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(indexOf(bytes("raw REPL>"), bytes(">")), 8);
  assert.equal(indexOf(bytes("abc"), bytes("d")), -1);
});
