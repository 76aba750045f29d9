"""Output figures: draw what a cell printed as a table or a diagram.

One job: turn a snippet's printed text, produced when the page was built, into a clearer picture
of the same facts. Nothing is drawn from anything but that text, so a picture can never
disagree with the output. A cell asks for it with a tag:

``output-table``
    Printed Markdown tables (``| a | b |`` lines, an optional caption line ending in ``:``
    above each) are shown as HTML tables; the printed text stays below, folded.
``graph-diagram``
    A printed backward graph, one node per line, indented two spaces per level under a title
    line ending in ``:``, is drawn as a tree. ``(...)`` nodes (inputs that need no gradient) are
    drawn dashed.
``storage-diagram``
    Lines ``<tensor> -> storage <n>[ <note>]`` are drawn as tensors pointing at the storages
    they use: tensors that share memory point at the same box.

Diagrams are inline SVG (no extra request), coloured through the theme's CSS variables.

What the site draws speaks the page's language: a table's caption, headers and answers, a
diagram's labels are looked up in the catalog (docs/locale/zh_CN/LC_MESSAGES/whatcopy.po, context
``output tables`` or ``output figures``), whole, then with their numbers as ``{0}``, ``{1}``;
what has no entry (code, values) is drawn as printed. The printed output itself, folded below,
stays as the program printed it.
"""

from __future__ import annotations

import html
import re
import unicodedata

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from whatcopy.sphinxext.messages import N_, NP_, translate

logger = logging.getLogger(__name__)

TAGS = ("output-table", "graph-diagram", "storage-diagram")
TEXT = {  # English msgids; the Chinese is in docs/locale/zh_CN/LC_MESSAGES/whatcopy.po
    "printed": N_("Printed output"),
    "graph": N_("Backward graph, drawn from the output above"),
    "storage": N_("Tensors and the storage they use, drawn from the output above"),
}
# the catalog's contexts of the labels drawn from printed output
TABLES = "output tables"
FIGURES = "output figures"
STORAGE_BOX = NP_(FIGURES, "storage {id}")
NUMBER = re.compile(r"\d+")
STORAGE_LINE = re.compile(r"^(?P<tensor>.+?)\s+->\s+storage\s+(?P<id>\d+)\s*(?P<note>.*)$")
CHAR_WIDTH = 7.8  # px per character of the monospace labels, generous
BOX_HEIGHT = 30
# The labels are drawn at 13px (docs/_static/site.css); on a screen a diagram shrinks to fit its
# column only as far as 12px labels (its --legible-width), then scrolls in its box instead.
LEGIBLE_SCALE = 12 / 13


def _text(env, key: str) -> str:
    """The label in the build's language (the catalog registered for it)."""
    return translate(env.config.language, TEXT[key])


def drawn(language: str | None, text: str, context: str) -> str:
    """A label the site draws from printed text, in `language`: the catalog's entry for the
    whole text, else for the text with its numbers as {0}, {1}... (filled in again), else the
    text as printed."""
    if not text or not language or language == "en":
        return text
    whole = translate(language, text, context)
    if whole != text:
        return whole
    numbers = NUMBER.findall(text)
    if not numbers:
        return text
    count = iter(range(len(numbers)))
    pattern = NUMBER.sub(lambda _: f"{{{next(count)}}}", text)
    shaped = translate(language, pattern, context)
    if shaped == pattern:
        return text
    return re.sub(r"\{(\d+)\}", lambda m: numbers[int(m[1])], shaped)


def text_width(text: str) -> float:
    """How wide a monospace label is drawn, in px: a wide (CJK) character takes two cells."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text) * CHAR_WIDTH


# ---------------------------------------------------------------------------------------------
# Tables


def parse_tables(text: str) -> list[tuple[str, list[list[str]]]]:
    """(caption, rows) of each Markdown table in the text; the first row is the header."""
    tables, caption, rows = [], "", []
    for line in text.splitlines() + [""]:
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if not all(re.fullmatch(r":?-{3,}:?", cell) for cell in cells):
                rows.append(cells)
            continue
        if rows:
            tables.append((caption, rows))
            caption, rows = "", []
        if stripped:
            caption = stripped
    return tables


def table_node(
    caption: str, rows: list[list[str]], language: str | None = None
) -> list[nodes.Node]:
    header, body = rows[0], rows[1:]
    table = nodes.table(classes=["output-table"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    group += head
    body_node = nodes.tbody()
    group += body_node
    for target, cells in [(head, header)] + [(body_node, row) for row in body]:
        row = nodes.row()
        for index, cell in enumerate(cells):
            entry = nodes.entry()
            paragraph = nodes.paragraph()
            shown = drawn(language, cell, TABLES)
            if index == 0 and target is body_node and shown == cell:
                paragraph += nodes.literal(text=cell)  # the row's name is code: an operation
            else:
                paragraph += nodes.Text(shown)
            entry += paragraph
            row += entry
        target += row
    if caption:
        title = nodes.title(text=drawn(language, caption.rstrip(":"), TABLES))
        table.insert(0, title)
    return [table]


# ---------------------------------------------------------------------------------------------
# Diagrams


def _svg(width: float, height: float, label: str, body: list[str], css_class: str) -> str:
    return (
        f'<svg class="output-diagram {css_class}" role="img" aria-label="{html.escape(label)}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" '
        f'style="--legible-width: {width * LEGIBLE_SCALE:.0f}px" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f"<title>{html.escape(label)}</title>" + "".join(body) + "</svg>"
    )


def _box(x: float, y: float, width: float, label: str, kind: str) -> str:
    return (
        f'<g class="node {kind}"><rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
        f'height="{BOX_HEIGHT}" rx="5"/><text x="{x + width / 2:.1f}" y="{y + 19:.1f}" '
        f'text-anchor="middle">{html.escape(label)}</text></g>'
    )


def _arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    return (
        f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        'marker-end="url(#arrow)"/>'
    )


ARROW_DEF = (
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
    'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>'
)


def parse_tree(text: str) -> list[tuple[int, str]]:
    """(depth, label) of each node line under the first title line ending in ':'."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.rstrip().endswith(":")), None)
    if start is None:
        return []
    tree = []
    for line in lines[start + 1 :]:
        if not line.startswith("  ") or not line.strip():
            break
        indent = len(line) - len(line.lstrip(" "))
        tree.append((indent // 2 - 1, line.strip()))
    return tree


def graph_svg(tree: list[tuple[int, str]], label: str, language: str | None = None) -> str:
    children: dict[int, list[int]] = {i: [] for i in range(len(tree))}
    stack: list[int] = []
    for index, (depth, _) in enumerate(tree):
        del stack[depth:]
        if stack:
            children[stack[-1]].append(index)
        stack.append(index)
    shown = [drawn(language, text, FIGURES) for _, text in tree]
    widths = [max(70.0, text_width(text) + 20) for text in shown]
    slot = max(widths) + 16
    x_of: dict[int, float] = {}
    next_leaf = [0]

    def place(index: int) -> float:
        kids = children[index]
        if not kids:
            x_of[index] = next_leaf[0] * slot + slot / 2
            next_leaf[0] += 1
        else:
            positions = [place(kid) for kid in kids]
            x_of[index] = sum(positions) / len(positions)
        return x_of[index]

    roots = [i for i, (depth, _) in enumerate(tree) if depth == 0]
    for root in roots:
        place(root)
    level_gap = 62
    body = [ARROW_DEF]
    for index, (depth, _) in enumerate(tree):
        for kid in children[index]:
            body.append(
                _arrow(
                    x_of[index],
                    depth * level_gap + BOX_HEIGHT + 8,
                    x_of[kid],
                    (depth + 1) * level_gap + 8,
                )
            )
    for index, (depth, text) in enumerate(tree):
        kind = "constant" if text.startswith("(") else ("leaf" if "->" in text else "function")
        body.append(
            _box(
                x_of[index] - widths[index] / 2,
                depth * level_gap + 8,
                widths[index],
                shown[index],
                kind,
            )
        )
    width = next_leaf[0] * slot
    height = (max(depth for depth, _ in tree) + 1) * level_gap + 8
    return _svg(width, height, label, body, "graph-diagram")


def storage_svg(links: list[tuple[str, str, str]], label: str, language: str | None = None) -> str:
    storages = list(dict.fromkeys(storage for _, storage, _ in links))
    tensors = [drawn(language, tensor, FIGURES) for tensor, _, _ in links]
    left = max(text_width(tensor) for tensor in tensors) + 24
    notes = {s: next((n for _, sid, n in links if sid == s and n), "") for s in storages}
    box = (
        translate(language, STORAGE_BOX, FIGURES) if language and language != "en" else STORAGE_BOX
    )
    texts = {
        s: f"{box.format(id=s)} {drawn(language, notes[s], FIGURES)}".strip() for s in storages
    }
    right = max(text_width(texts[s]) for s in storages) + 24
    gap, row = 90, BOX_HEIGHT + 14
    height = max(len(links), len(storages)) * row + 8
    storage_y = {
        s: 8 + (height - 8 - len(storages) * row) / 2 + i * row for i, s in enumerate(storages)
    }
    body = [ARROW_DEF]
    for i, (tensor, storage, _) in enumerate(links):
        y = 8 + i * row
        body.append(_box(4, y, left, tensors[i], "tensor"))
        body.append(
            _arrow(left + 4, y + BOX_HEIGHT / 2, left + gap, storage_y[storage] + BOX_HEIGHT / 2)
        )
    for storage in storages:
        body.append(_box(left + gap + 2, storage_y[storage], right, texts[storage], "storage"))
    return _svg(left + gap + right + 8, height, label, body, "storage-diagram")


# ---------------------------------------------------------------------------------------------


def _printed_block(cell: nodes.container) -> nodes.literal_block | None:
    for block in cell.findall(nodes.literal_block):
        if "stream" in block.get("classes", []):
            return block
    return None


def printed_cells(doctree: nodes.document, *tags: str):
    """Each code cell of the page with one of `tags`, the block of what it printed, and which of
    the tags it has: the cells an extension draws from their output (these figures, the error
    atlas, the claims, the operator reference). A tagged cell that printed nothing is an error at
    its place, and is passed over."""
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code":
            continue
        mine = [t for t in cell.get("cell_metadata", {}).get("tags", []) if t in tags]
        if not mine:
            continue
        block = _printed_block(cell)
        if block is None:
            logger.error("%s: the cell printed nothing to draw", ", ".join(mine), location=cell)
            continue
        yield cell, block, mine


def fold(env, block: nodes.literal_block) -> list[nodes.Node]:
    summary = html.escape(_text(env, "printed"))
    return [
        nodes.raw(
            "",
            # what the table, diagram or atlas entries above show, folded: searched there, not
            # twice (on the claims page, the printed text's Chinese column would enter the
            # English index, and make an index chunk that no word of a query reaches)
            f'<details class="printed-output" data-pagefind-ignore><summary>{summary}</summary>',
            format="html",
        ),
        block.deepcopy(),
        nodes.raw("", "</details>", format="html"),
    ]


def draw_outputs(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    for cell, block, tags in printed_cells(doctree, *TAGS):
        text = block.astext()
        if "output-table" in tags:
            tables = parse_tables(text)
            if not tables:
                logger.error("output-table: the cell printed no Markdown table", location=cell)
                continue
            language = env.config.language
            replacement = [
                n for caption, rows in tables for n in table_node(caption, rows, language)
            ]
            for table in replacement:
                doctree.set_id(table)
            block.replace_self(replacement + fold(env, block))
        if "graph-diagram" in tags:
            tree = parse_tree(text)
            if not tree:
                logger.error("graph-diagram: the cell printed no indented graph", location=cell)
                continue
            svg = graph_svg(tree, _text(env, "graph"), env.config.language)
            block.parent.insert(block.parent.index(block) + 1, _figure(svg))
        if "storage-diagram" in tags:
            links = [
                (m["tensor"], m["id"], m["note"].strip())
                for line in text.splitlines()
                if (m := STORAGE_LINE.match(line.strip()))
            ]
            if not links:
                logger.error(
                    "storage-diagram: the cell printed no '<tensor> -> storage <n>' line",
                    location=cell,
                )
                continue
            svg = storage_svg(links, _text(env, "storage"), env.config.language)
            block.parent.insert(block.parent.index(block) + 1, _figure(svg))


def _figure(svg: str) -> nodes.container:
    figure = nodes.container(classes=["output-figure"])
    figure += nodes.raw("", svg, format="html")
    return figure


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    # After myst-nb rendered the outputs (it does so while parsing), before snippet_cells reads them.
    app.connect("doctree-read", draw_outputs, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
