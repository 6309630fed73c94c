// A set in a link's #set= part: the JSON's UTF-8 as base64url (nothing is sent anywhere: the
// part after # stays in the browser). Pure, unit-tested under Node.

const encoder = new TextEncoder();

export function base64url(bytes) {
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function unbase64url(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

// The #set= part for a set's JSON text.
export function setHash(text) {
  return `#set=${base64url(encoder.encode(text))}`;
}

// The bytes a #set= part carries, null for an address without one; throws when its encoding
// is broken.
export function linkedBytes(hash) {
  const match = /^#set=([A-Za-z0-9_-]+)$/.exec(hash);
  return match ? unbase64url(match[1]) : null;
}
