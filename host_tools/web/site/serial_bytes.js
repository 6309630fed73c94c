// What the flasher writes and checks, byte by byte: Python's repr() of bytes and of a plain
// name (the code the device runs), the device's hashes, a search in a byte buffer. Pure,
// unit-tested under Node (tests/js).

export class NotAPlainName extends Error {}

// Python's repr() of bytes: what mpremote's fs_writefile sends, w(b'...').
export function pyBytes(data) {
  let hasSingle = false, hasDouble = false;
  for (const b of data) {
    if (b === 0x27) hasSingle = true;
    if (b === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = `b${quote}`;
  for (const b of data) {
    if (b === quote.charCodeAt(0) || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b === 0x09) out += "\\t";
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, "0")}`;
    else out += String.fromCharCode(b);
  }
  return out + quote;
}

// Python's repr() of a str made of [a-z0-9_./-] (device paths and set names, checked).
export function pyStr(text) {
  if (!/^[A-Za-z0-9_./-]*$/.test(text)) throw new NotAPlainName(`not a plain name: ${text}`);
  return `'${text}'`;
}

export function crc32(data) {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// host_tools/device/target.py digest(): the hash of data in the form the device gave.
export async function digest(data, like) {
  if (like?.startsWith("crc32:")) {
    return `crc32:${data.length}:${crc32(data).toString(16).padStart(8, "0")}`;
  }
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function indexOf(haystack, needle) {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
