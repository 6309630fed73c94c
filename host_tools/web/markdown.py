"""The help panel's documents as HTML pages for the site (make web): docs/*.md rendered with
the Markdown the repository's documents use (headings, paragraphs, lists, tables, code
blocks, inline code, bold, italics, links), so that a link opens a readable page when the site
is served locally, as GitHub renders them when it is published. Links to another bundled
document go to its page; links to one that is not bundled go to its text on GitHub when the
repository is known, else stay as written."""

import html
import re

_INLINE = re.compile(r"(`+)(.+?)\1|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|"
                     r"\[([^\]]+)\]\(([^)\s]+)\)")


def _slug(text):
    """GitHub's anchor for a heading."""
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def inline(text, link=lambda href: href):
    out = []
    at = 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[at:m.start()], quote=False))
        if m.group(1):
            out.append("<code>%s</code>" % html.escape(m.group(2).strip(), quote=False))
        elif m.group(3):
            out.append("<b>%s</b>" % inline(m.group(3), link))
        elif m.group(4):
            out.append("<i>%s</i>" % inline(m.group(4), link))
        else:
            out.append('<a href="%s">%s</a>' % (html.escape(link(m.group(6))),
                                                inline(m.group(5), link)))
        at = m.end()
    out.append(html.escape(text[at:], quote=False))
    return "".join(out)


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def render(text, link=lambda href: href):
    """Markdown text -> HTML (the body's contents)."""
    lines = text.splitlines()
    out = []
    i = 0
    para = []

    def flush():
        if para:
            out.append("<p>%s</p>" % inline(" ".join(para), link))
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i])
                i += 1
            out.append("<pre><code>%s</code></pre>" % html.escape("\n".join(body), quote=False))
        elif re.match(r"#{1,6} ", stripped):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            words = stripped[level:].strip()
            out.append('<h%d id="%s">%s</h%d>' % (level, _slug(words), inline(words, link),
                                                  level))
        elif stripped.startswith("|") and i + 1 < len(lines) and \
                re.match(r"^\|?\s*:?-{3,}", lines[i + 1].strip()):
            flush()
            rows = ["<tr>%s</tr>" % "".join("<th>%s</th>" % inline(c, link)
                                            for c in _cells(line))]
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append("<tr>%s</tr>" % "".join("<td>%s</td>" % inline(c, link)
                                                    for c in _cells(lines[i])))
                i += 1
            out.append("<table>%s</table>" % "".join(rows))
            continue
        elif re.match(r"([-*]|\d+\.) ", stripped):
            flush()
            ordered = stripped[0].isdigit()
            items = []
            while i < len(lines) and lines[i].strip():
                item = lines[i].strip()
                if re.match(r"([-*]|\d+\.) ", item):
                    items.append(item.split(" ", 1)[1])
                elif items:
                    items[-1] += " " + item
                i += 1
            tag = "ol" if ordered else "ul"
            out.append("<%s>%s</%s>" % (tag, "".join("<li>%s</li>" % inline(t, link)
                                                     for t in items), tag))
            continue
        elif stripped.startswith(">"):
            flush()
            out.append("<blockquote>%s</blockquote>" % inline(stripped.lstrip("> "), link))
        elif not stripped:
            flush()
        else:
            para.append(stripped)
        i += 1
    flush()
    return "\n".join(out)


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(title)s · ChromaWheel</title>
<style>
body { margin: 0 auto; max-width: 46rem; padding: 1rem; font: 16px/1.5 "Noto Music",
  system-ui, sans-serif; background: #15171c; color: #e6e6e6; }
a { color: #8ab4f8; } code, pre { font-family: ui-monospace, monospace; }
pre { background: #0d0e11; padding: 0.6rem; overflow-x: auto; border-radius: 6px; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { border: 1px solid #444a55; padding: 0.3rem 0.5rem; vertical-align: top; }
@font-face { font-family: "Noto Music"; src: url("../fonts/noto-music-signs.woff2")
  format("woff2"); unicode-range: U+266D-266F, U+1D12A-1D12B; }
</style>
</head>
<body>
<p><a href="../index.html">← back to the wheel</a></p>
<main>
%(body)s
</main>
</body>
</html>
"""


def page(text, bundled, repo_url=None):
    """A document as a whole page; `bundled`: the names of the documents the site has."""
    def link(href):
        target, _, anchor = href.partition("#")
        if target in bundled:
            return target[:-3] + ".html" + ("#" + anchor if anchor else "")
        if repo_url and target and "://" not in target and not target.startswith("mailto:"):
            return "%s/%s" % (repo_url, target.lstrip("./")) + ("#" + anchor if anchor else "")
        return href

    first = next((line for line in text.splitlines() if line.startswith("# ")),
                 "# ChromaWheel")
    return PAGE % {"title": html.escape(first[2:].strip()), "body": render(text, link)}
