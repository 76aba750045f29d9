"""Operator reference: the table generators/operators.py printed, drawn as a table to filter.

One job: turn what the reference page's cell printed (read by whatcopy.reference.op_table) into the page's
table, in the build's language, with

* an anchor per entry (``id="op-<full name>"``), its name in the row's text (which the page's
  script makes a link to the row: written there, not sent with every row), registered with Sphinx so that ``[](operators.md#op-view)`` resolves from other pages;
  the entry's aliases after its name, each with an anchor of its own (``op-swapaxes`` in the
  row of ``transpose``) where no row has that name;
* headings and answers translated (the catalog, context "operator reference"); operator,
  ``grad_fn`` and schema names stay as printed;
* a filter form (name or alias; shares or copies; a view or not; depends on the input; schema
  and run disagree) run by an inline script, no third-party code: lean_theme hashes it into the page's
  Content-Security-Policy like every inline script. Without scripts the form stays hidden and
  the whole table shows;
* a CUDA column when a current CUDA transcript of the generator exists (``nox -s cuda --
  record`` writes it, as for every snippet), drawn from that transcript; without one, a note
  above the table that says there is no CUDA run yet (for readers: no maintainer's command),
  and no statement about CUDA. A transcript that comes, goes or
  changes makes the next build read the page again (as device_prose does for its boxes).

The printed text stays below, folded, as under every output table. A cell asks for all this with
the tag ``op-reference``; a printed text this module cannot read fails the build at the cell.
"""

from __future__ import annotations

import hashlib
import html

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from whatcopy.core import transcripts
from whatcopy.reference import op_table
from whatcopy.sphinxext import build_guards
from whatcopy.sphinxext.messages import NP_, translate
from whatcopy.sphinxext.output_figures import fold, printed_cells

logger = logging.getLogger(__name__)

TAG = "op-reference"
CONTEXT = "operator reference"
# The printed columns drawn as columns: the aliases are drawn in the operator's cell, and the
# number of runs is left to the printed text below the table (1 KB of the page's weight).
DRAWN = [column for column in op_table.COLUMNS if column not in ("aliases", "runs")]
HEADINGS = {
    "operator": NP_(CONTEXT, "Operator"),
    "memory": NP_(CONTEXT, "Memory"),
    "view": NP_(CONTEXT, "View"),
    "grad_fn": NP_(CONTEXT, "grad_fn"),
    "schema": NP_(CONTEXT, "Schema"),
    "schema vs run": NP_(CONTEXT, "Schema vs run"),
    "in-place": NP_(CONTEXT, "In-place"),
    "kinds": NP_(CONTEXT, "Kinds of input"),
    "cuda": NP_(CONTEXT, "CUDA"),
}
# The words the generator prints in its cells; the rest (names, shapes, numbers) stays.
WORDS = {
    "same tensor": NP_(CONTEXT, "same tensor"),
    "shares": NP_(CONTEXT, "shares"),
    "copies": NP_(CONTEXT, "copies"),
    "shares an argument": NP_(CONTEXT, "shares an argument"),
    "no tensor": NP_(CONTEXT, "no tensor"),
    "no tensor input": NP_(CONTEXT, "no tensor input"),
    "not strided": NP_(CONTEXT, "not strided"),
    "no elements": NP_(CONTEXT, "no elements"),
    "no dtype": NP_(CONTEXT, "no dtype"),
    "no samples": NP_(CONTEXT, "no samples"),
    "did not run": NP_(CONTEXT, "did not run"),
    "yes": NP_(CONTEXT, "yes"),
    "no": NP_(CONTEXT, "no"),
    "other base": NP_(CONTEXT, "other base"),
    "no or other base": NP_(CONTEXT, "no or other base"),
    "no autograd": NP_(CONTEXT, "no autograd"),
    "no input required grad": NP_(CONTEXT, "no input required grad"),
    "agrees": NP_(CONTEXT, "agrees"),
    "declares an alias, copied": NP_(CONTEXT, "declares an alias, copied"),
    "declares no alias, shared": NP_(CONTEXT, "declares no alias, shared"),
    "another tensor": NP_(CONTEXT, "another tensor"),
    "depends": NP_(CONTEXT, "depends"),
}
# How an input is described ("transposed float32 (5, 5) with (25,)"): its first word(s)
LAYOUTS = {
    "contiguous": NP_(CONTEXT, "contiguous"),
    "non-contiguous": NP_(CONTEXT, "non-contiguous"),
    "transposed": NP_(CONTEXT, "transposed"),
    "strided": NP_(CONTEXT, "strided"),
    "list": NP_(CONTEXT, "list"),
}
TEXT = {
    "with": NP_(CONTEXT, " with "),
    "more": NP_(CONTEXT, "{count} more"),
    "caption": NP_(CONTEXT, "Every entry and what its runs returned"),
    "scroll": NP_(CONTEXT, "The table of operators (scrolls sideways)"),
    "filter": NP_(CONTEXT, "Filter the table"),
    "name": NP_(CONTEXT, "Operator name or alias"),
    "any": NP_(CONTEXT, "any"),
    "memory shares": NP_(CONTEXT, "shares memory"),
    "memory copies": NP_(CONTEXT, "copies"),
    "memory depends": NP_(CONTEXT, "depends on the input"),
    "view yes": NP_(CONTEXT, "a view of the input"),
    "view no": NP_(CONTEXT, "not a view of the input"),
    "view depends": NP_(CONTEXT, "depends on the input"),
    "only depends": NP_(CONTEXT, "only where the answer depends on the input"),
    "only disagrees": NP_(CONTEXT, "only where the schema and the runs disagree"),
    "count": NP_(CONTEXT, "{shown} of {total} entries shown"),
    "no cuda": NP_(
        CONTEXT,
        "No CUDA run of this program yet: every answer in this table comes from the CPU.",
    ),
    "cuda from": NP_(
        CONTEXT,
        "The CUDA column is drawn from the program's CUDA transcript ({machine}, torch "
        "{torch}, recorded {date}); a mark shows where it differs from the CPU.",
    ),
    "differs": NP_(CONTEXT, "differs from the CPU"),
}
# Filtering in the browser: the form's fields against each row's data attributes (m: memory,
# v: view, d: depends on the input, s: schema and run disagree). No library.
SCRIPT = """(() => {
  const form = document.getElementById("op-filter");
  const rows = [...document.querySelectorAll("#op-table tbody tr")];
  const count = document.getElementById("op-count");
  for (const row of rows) {  // the name links to its row (written here: 2 KB less to load)
    const name = row.cells[0], link = document.createElement("a");
    link.href = `#${row.id}`;
    while (name.firstChild && !name.firstChild.classList?.contains("op-aliases")) {
      link.append(name.firstChild);
    }
    name.prepend(link);
  }
  const show = () => {
    const f = form.elements, name = f.name.value.trim().toLowerCase();
    let shown = 0;
    for (const row of rows) {
      const d = row.dataset;
      const visible = (!name || row.cells[0].textContent.toLowerCase().includes(name))
        && (!f.memory.value || d.m === f.memory.value) && (!f.view.value || d.v === f.view.value)
        && (!f.depends.checked || "d" in d) && (!f.disagrees.checked || "s" in d);
      row.hidden = !visible;
      shown += visible;
    }
    count.textContent = count.dataset.template
      .replace("{shown}", shown).replace("{total}", rows.length);
  };
  form.addEventListener("input", show);
  form.addEventListener("submit", (event) => event.preventDefault());
  form.hidden = false;
  show();
})();"""
STYLE = """.op-filter{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:end;margin:.5rem 0}
.op-filter label{display:flex;flex-direction:column;font-size:.85rem}
.op-filter label.op-check{flex-direction:row;gap:.3rem;align-items:center}
.op-scroll{overflow-x:auto;max-width:100%}
#op-table{font-size:.8rem;border-collapse:collapse}
#op-table th,#op-table td{padding:.15rem .4rem;vertical-align:top;text-align:left}
#op-table tbody th{font-weight:400;font-family:var(--pst-font-family-monospace)}
#op-table td:nth-child(2),#op-table td:nth-child(3),#op-table td:nth-child(6){min-width:5.5em}
#op-table tbody th a{text-decoration:none}
#op-table tbody tr{scroll-margin-top:4rem}
#op-table td:nth-child(4),#op-table td:nth-child(5){font-family:var(--pst-font-family-monospace);font-size:.75rem}
#op-table tr:target,#op-table tr:has(:target){outline:2px solid var(--pst-color-primary)}
#op-table .op-aliases{display:block;font-size:.75rem}
#op-table td:nth-child(8){font-size:.75rem}
#op-table .op-disagrees{font-weight:600}
#op-table details ul{margin:.2rem 0;padding-left:1rem}
#op-table .op-differs{font-weight:600}"""


def _t(language: str, key: str, table: dict = TEXT) -> str:
    return translate(language, table[key], CONTEXT)


def word(language: str, text: str) -> str:
    """A printed answer in the build's language; `+1, another tensor` part by part."""
    if text in WORDS:
        return translate(language, WORDS[text], CONTEXT)
    if ", " in text and text.split(", ", 1)[1] in WORDS:
        head, tail = text.split(", ", 1)
        return f"{word(language, head)}, {word(language, tail)}"
    return text


def who(language: str, text: str) -> str:
    """An input's description ("transposed float32 (5, 5) with (25,)") in the language."""
    described, _, arguments = text.partition(" with ")
    first, _, rest = described.partition(" ")
    if first in LAYOUTS:
        described = translate(language, LAYOUTS[first], CONTEXT) + (f" {rest}" if rest else "")
    if not arguments:
        return described
    return described + _t(language, "with") + arguments


def answer_cell(language: str, cell: str) -> str:
    """HTML for a cell: its answer, or for one that depends, which input gave which."""
    parts = op_table.answers(cell)
    if len(parts) == 1:
        return html.escape(word(language, cell))
    items = []
    for answer, inputs, more in parts:
        named = [who(language, i) for i in inputs]
        if more:
            named.append(_t(language, "more").format(count=more))
        items.append(
            f"<li><b>{html.escape(word(language, answer))}</b>: "
            + html.escape("; ".join(named))
            + "</li>"
        )
    summary = html.escape(translate(language, WORDS["depends"], CONTEXT))
    return f"<details><summary>{summary}</summary><ul>{''.join(items)}</ul></details>"


def in_place_cell(language: str, row: op_table.Row) -> str:
    answer, schema = row.in_place_parts
    return answer_cell(language, answer) + (html.escape(f" ({schema})") if schema else "")


def breakable(name: str) -> str:
    """An operator's name, escaped; a long one may break after each dot on a narrow screen."""
    if len(name) <= 24:
        return html.escape(name)
    return ".<wbr>".join(html.escape(part) for part in name.split("."))


def aliases_html(row: op_table.Row, anchored: dict[str, op_table.Row]) -> str:
    """The row's aliases, after its name: ``(swapdims, swapaxes)``, each with its own anchor
    where this row holds it (`anchored`: anchor -> the row that holds it)."""
    if not row.alias_names:
        return ""
    names = []
    for alias in row.alias_names:
        anchor = html.escape("op-" + alias, quote=True)
        names.append(
            f'<span id="{anchor}">{breakable(alias)}</span>'
            if anchored.get("op-" + alias) is row
            else breakable(alias)
        )
    return f'<span class="op-aliases"> ({", ".join(names)})</span>'


def row_html(
    language: str,
    row: op_table.Row,
    cuda: op_table.Row | None,
    has_cuda: bool,
    anchored: dict[str, op_table.Row] | None = None,
) -> str:
    """One row; `anchored`: the alias anchors, each with the row that holds it."""
    data = f' data-m="{row.memory_kind}" data-v="{row.view_kind}"'
    data += ' data-d=""' if row.depends else ""
    data += ' data-s=""' if row.disagrees else ""
    anchor = html.escape(row.anchor, quote=True)
    cells = [
        f'<th scope="row">{breakable(row.operator)}{aliases_html(row, anchored or {})}</th>',
        f"<td>{answer_cell(language, row.memory)}</td>",
        f"<td>{answer_cell(language, row.view)}</td>",
        f"<td>{html.escape(word(language, row.grad_fn))}</td>",
        f"<td>{html.escape(row.schema)}</td>",
        ('<td class="op-disagrees">' if row.disagrees else "<td>")
        + f"{html.escape(word(language, row.verdict))}</td>",
        f"<td>{in_place_cell(language, row)}</td>",
        f"<td>{html.escape(row.kinds)}</td>",
    ]
    if has_cuda:
        cells.append(cuda_cell(language, row, cuda))
    return f'<tr id="{anchor}"{data}>' + "".join(cells) + "</tr>"


def cuda_cell(language: str, row: op_table.Row, cuda: op_table.Row | None) -> str:
    if cuda is None:
        return "<td>-</td>"
    text = f"{kind_word(language, cuda.memory_kind, cuda.memory)} · {kind_word(language, cuda.view_kind, cuda.view)}"
    differs = (cuda.memory_kind, cuda.view_kind) != (row.memory_kind, row.view_kind)
    if differs:
        mark = html.escape(_t(language, "differs"), quote=True)
        return f'<td class="op-differs" title="{mark}">{html.escape(text)} ≠</td>'
    return f"<td>{html.escape(text)}</td>"


def kind_word(language: str, kind: str, cell: str) -> str:
    if kind == "depends":
        return translate(language, WORDS["depends"], CONTEXT)
    return word(language, cell)


def form_html(language: str, total: int) -> str:
    def options(name: str, values: list[str]) -> str:
        items = [f'<option value="">{html.escape(_t(language, "any"))}</option>']
        items += [
            f'<option value="{v}">{html.escape(_t(language, f"{name} {v}"))}</option>'
            for v in values
        ]
        label = translate(language, HEADINGS[name], CONTEXT)
        return f'<label>{html.escape(label)}<select name="{name}">{"".join(items)}</select></label>'

    template = html.escape(_t(language, "count"), quote=True)
    return (
        f'<form class="op-filter" id="op-filter" role="search" hidden '
        f'aria-label="{html.escape(_t(language, "filter"), quote=True)}">'
        f"<label>{html.escape(_t(language, 'name'))}"
        '<input type="search" name="name" autocomplete="off" spellcheck="false"></label>'
        + options("memory", ["shares", "copies", "depends"])
        + options("view", ["yes", "no", "depends"])
        + f'<label class="op-check"><input type="checkbox" name="depends">'
        f"{html.escape(_t(language, 'only depends'))}</label>"
        f'<label class="op-check"><input type="checkbox" name="disagrees">'
        f"{html.escape(_t(language, 'only disagrees'))}</label>"
        f'<output id="op-count" aria-live="polite" data-template="{template}">'
        f"{total}</output></form>"
    )


def cuda_key() -> str:
    """Changes whenever the CUDA column could change: the generator or its CUDA transcript."""
    generator = transcripts.by_name(op_table.NAME)
    path = generator.transcript("cuda")
    found = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "none"
    return f"{generator.sha256}:{found}"


def cuda_table(env) -> tuple[op_table.Table | None, dict | None]:
    """The CUDA run's table and its transcript's header, if a current CUDA transcript exists."""
    generator = transcripts.by_name(op_table.NAME)
    path = generator.transcript("cuda")
    # A transcript that comes, goes or changes makes the page read again (outdated_pages):
    # Sphinx's own dependencies cannot name a file that does not exist yet.
    build_guards.records_of(env, "op_reference")[env.docname] = cuda_key()
    if not path.exists():
        return None, None
    env.note_dependency(str(path))
    header = transcripts.read_header(path)
    if header.get("Source-SHA256") != generator.sha256:
        return None, None
    return op_table.parse(op_table.printed(path)), header


def reference_html(env, table: op_table.Table) -> str:
    language = env.config.language
    cuda, header = cuda_table(env)
    columns = [translate(language, HEADINGS[c], CONTEXT) for c in DRAWN]
    if cuda is not None:
        columns.append(translate(language, HEADINGS["cuda"], CONTEXT))
        note = _t(language, "cuda from").format(
            machine=header.get("Device", "?"),
            torch=header.get("Torch", "?"),
            date=header.get("Recorded", "?"),
        )
    else:
        note = _t(language, "no cuda")
    note_html = html.escape(note)
    head = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in columns)
    anchored = table.alias_anchors()
    body = "".join(
        row_html(
            language, row, cuda.row(row.operator) if cuda else None, cuda is not None, anchored
        )
        for row in table.rows
    )
    scroll = html.escape(_t(language, "scroll"), quote=True)
    return (
        f'<div class="op-reference"><style>{STYLE}</style>'
        + form_html(language, len(table.rows))
        + f'<p class="op-cuda-note">{note_html}</p>'
        + f'<div class="op-scroll" tabindex="0" role="region" aria-label="{scroll}">'
        + f'<table id="op-table"><caption>{html.escape(_t(language, "caption"))}</caption>'
        + f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
        + f"<script>{SCRIPT}</script></div>"
    )


def register_anchors(env, table: op_table.Table) -> None:
    """Each row's id as a label of this page, so that a link to page.md#op-x resolves."""
    std = env.get_domain("std")
    for row in table.rows:
        std.anonlabels[row.anchor] = (env.docname, row.anchor)
    for anchor in table.alias_anchors():
        std.anonlabels[anchor] = (env.docname, anchor)


def draw_reference(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    for cell, block, _ in printed_cells(doctree, TAG):
        try:
            table = op_table.parse(block.astext())
        except op_table.TableError as exc:
            logger.error("%s: %s", TAG, exc, location=cell)
            continue
        register_anchors(env, table)
        drawn = nodes.raw("", reference_html(env, table), format="html")
        block.replace_self([drawn, *fold(env, block)])


def outdated_pages(app, env, added, changed, removed) -> list[str]:
    """The reference page, when its CUDA column would be drawn otherwise now."""
    store = getattr(env, "op_reference", {})
    key = cuda_key()
    return [name for name, seen in store.items() if name not in removed and seen != key]


class OperatorRecords(build_guards.PageRecords):
    """Each page's CUDA evidence key of the operator table (env.op_reference)."""

    name = "op_reference"


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    app.setup_extension("whatcopy.sphinxext.output_figures")
    # After myst-nb rendered the outputs, before snippet_cells reads them (as output_figures).
    app.connect("doctree-read", draw_reference, priority=400)
    app.connect("env-get-outdated", outdated_pages)
    app.add_env_collector(OperatorRecords)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
