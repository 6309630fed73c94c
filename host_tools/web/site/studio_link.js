// A set in a link (nothing is sent anywhere: the part after # stays in the browser).
//   #s=...    the share link: the set's JSON without its format and version, compact, deflated
//             (deflate-raw) and in base64url: short enough for a QR code a phone reads from
//             across a classroom. It opens the student view.
//   #set=...  the studio's older, longer link: the JSON's UTF-8 as base64url.
// Pure (the browser's and Node's CompressionStream), unit-tested under Node.

import { formatSet, ordered } from "./studio_text.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const FORMAT = { format: "chromawheel-meldset", version: 1 };

export class LinkError extends Error {}

export function base64url(bytes) {
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function unbase64url(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function through(bytes, stream) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

// The #set= part for a set's JSON text.
export function setHash(text) {
  return `#set=${base64url(encoder.encode(text))}`;
}

// The #s= part for a set (an object).
export async function shareHash(set) {
  const rest = { ...set };
  delete rest.format;
  delete rest.version;
  const packed = await through(encoder.encode(JSON.stringify(rest)), new CompressionStream("deflate-raw"));
  return `#s=${base64url(packed)}`;
}

const CUT = "the link's set is damaged: it was cut short? Copy the whole link again, or scan its " +
  "QR code";

// What a link carries: {kind: "share" | "set", bytes} (the set's JSON, one meld a line), null
// for an address with neither; LinkError saying, in plain words, a link that is damaged.
export async function linked(hash) {
  const match = /^#(s|set)=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!match) return null;
  let bytes;
  try {
    bytes = unbase64url(match[2]);
    if (match[1] === "s") bytes = await through(bytes, new DecompressionStream("deflate-raw"));
  } catch (_err) {
    throw new LinkError(CUT);
  }
  let set;
  try {
    set = JSON.parse(decoder.decode(bytes));
  } catch (_err) {
    throw new LinkError(CUT);
  }
  if (match[1] === "s" && set && typeof set === "object" && !Array.isArray(set)) {
    set = ordered({ ...FORMAT, ...set });
  }
  return { kind: match[1] === "s" ? "share" : "set", bytes: encoder.encode(formatSet(set)) };
}
