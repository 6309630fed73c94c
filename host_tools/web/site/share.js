// Share with a class: the set's share link (#share-link: a compact #s= link that opens the
// student view) and its QR code (#share-qr), drawn in the page by the vendored encoder
// (vendor/qrcode.mjs: qrcode-generator, MIT, pinned in package-lock.json), so it works offline.

import qrcode from "./vendor/qrcode.mjs";
import { shareHash } from "./studio_link.js";

const $ = (id) => document.getElementById(id);

// The QR code of `text` as a data: URL (an image of `cell` px a module, the quiet zone 4).
export function qrImage(text, cell = 4) {
  const qr = qrcode(0, "M");
  qr.addData(text, "Byte");
  qr.make();
  return { url: qr.createDataURL(cell, 4 * cell), modules: qr.getModuleCount() };
}

export class Share {
  constructor(studio) {
    this.studio = studio;
    this.shown = null;
    $("share-copy").addEventListener("click", () => this.copy());
  }

  // The link and its QR code for the set as it is, once it has no problems.
  async update() {
    const studio = this.studio;
    const result = studio.result;
    const model = studio.doc.model;
    const usable = result?.valid && model;
    $("share-ready").hidden = !usable;
    $("share-wait").hidden = Boolean(usable);
    if (!usable) return;
    const url = location.origin + location.pathname + (await shareHash(model));
    if (url === this.shown) return;
    this.shown = url;
    const link = $("share-link");
    link.href = url;
    link.textContent = url;
    const { url: image, modules } = qrImage(url);
    const qr = $("share-qr");
    qr.src = image;
    qr.dataset.modules = String(modules);
    document.body.dataset.shareLink = String(url.length);
  }

  async copy() {
    await this.update();
    try {
      await navigator.clipboard.writeText($("share-link").href);
      this.studio.said("the share link is copied: it opens the set on the wheel, read-only");
    } catch (_err) {
      this.studio.said("copy the share link by hand: press and hold it");
    }
  }
}
