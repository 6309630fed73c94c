// The set as round MELD cards to print (or to save as a PDF from the print dialog): 6 or 8 a
// page with cut marks, A4 or Letter, laid out by the page's laptop side exactly as
// `chromawheel meldset cards` lays them out (host_tools/cards.py), then a last page with the
// set's share link and its QR code for the class.

import { qrImage } from "./share.js";

const $ = (id) => document.getElementById(id);
const PAPER_CSS = { a4: "210mm 297mm", letter: "8.5in 11in" };

export class CardPrinter {
  constructor(studio) {
    this.studio = studio;
    $("print-cards").addEventListener("click", () => studio.track(() => this.print()));
  }

  // The sheets in #print-sheets (shown only when printing); false when the set has problems.
  async lay(paper, perPage) {
    const studio = this.studio;
    const result = await studio.usable();
    if (!result && !studio.result?.valid) {
      studio.said("the cards wait until the set has no problems (listed below)");
      return false;
    }
    const answer = await studio.host.cards(studio.doc.path, studio.bytes, paper, perPage);
    if (answer.error) {
      studio.said(`the cards could not be laid out: ${answer.error}`);
      return false;
    }
    const sheets = $("print-sheets");
    sheets.replaceChildren(...answer.pages.map((svg) => {
      const sheet = document.createElement("div");
      sheet.className = "sheet";
      sheet.innerHTML = svg;             // made by cards.py from the checked set, text escaped
      return sheet;
    }), await this.sharePage());
    sheets.dataset.paper = paper;
    $("print-page-size").textContent = `@page { size: ${PAPER_CSS[paper]}; margin: 0; }`;
    document.body.dataset.cards = String(answer.pages.length);
    return true;
  }

  // The last page: the set's title and its share link as a QR code.
  async sharePage() {
    await this.studio.share.update();
    const page = document.createElement("div");
    page.className = "sheet share-sheet";
    const model = this.studio.doc.model;
    const title = document.createElement("h1");
    title.textContent = model.title || model.name;
    const img = document.createElement("img");
    const link = $("share-link").href;
    img.src = qrImage(link, 6).url;
    img.alt = "QR code of the link that opens this set on the wheel";
    const words = document.createElement("p");
    words.textContent = "Scan to open this set on the wheel (read-only): ";
    const shown = document.createElement("span");
    shown.className = "link";
    shown.textContent = link;
    words.append(shown);
    page.append(title, img, words);
    return page;
  }

  async print() {
    if (!(await this.lay($("cards-paper").value, Number($("cards-per-page").value)))) return;
    window.print();
    this.studio.said("the cards went to the print dialog (save them as a PDF there, too)");
  }
}
