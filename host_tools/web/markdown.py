"""The help panel's documents as HTML pages for the site (make web): docs/*.md rendered by
markdown-it-py (CommonMark with GitHub's tables and strikethrough), so that a link opens a
readable page when the site is served locally, as GitHub renders them when it is published:
each heading has GitHub's anchor, so a link to a section lands where GitHub's does. Links to
another bundled document go to its page; links to one that is not bundled go to its text on
GitHub when the repository is known, else stay as written."""

import html
import re

from markdown_it import MarkdownIt

_MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _slug(text):
    """GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _text(inline):
    """A heading's words, as GitHub reads them for its anchor (code spans' too)."""
    return "".join(child.content for child in inline.children or ()
                   if child.type in ("text", "code_inline"))


def render(text, link=lambda href: href, picture=None):
    """Markdown text -> HTML (the body's contents): every heading with its anchor (a second
    heading of the same words gets -1, as on GitHub), every link's target through `link`, an
    image's through `picture` (by default `link`)."""
    picture = picture or link
    tokens = _MARKDOWN.parse(text)
    seen = {}
    for k, token in enumerate(tokens):
        if token.type == "heading_open":
            slug = _slug(_text(tokens[k + 1]))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            token.attrSet("id", slug if not count else "%s-%d" % (slug, count))
        for child in token.children or ():
            if child.type == "link_open":
                child.attrSet("href", link(child.attrGet("href")))
            elif child.type == "image":
                child.attrSet("src", picture(child.attrGet("src")))
    return _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})


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

    def picture(src):
        found = link(src)
        published = repo_url and found != src and found.startswith(repo_url)
        return found + "?raw=true" if published else found

    first = next((line for line in text.splitlines() if line.startswith("# ")),
                 "# ChromaWheel")
    return PAGE % {"title": html.escape(first[2:].strip()),
                   "body": render(text, link, picture)}
