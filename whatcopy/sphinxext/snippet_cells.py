"""Snippet cells: the link between a page's code cells and the files in snippets/.

One job: make every ``{code-cell}`` that ``:load:``-s a snippet trustworthy and traceable.

* Before a page is parsed, each ``:load:`` must name an existing file under ``snippets/``, and
  a snippet declared ``# raises X`` must carry ``:tags: [raises-exception]`` (and only such a
  snippet).  The page is made to depend on the file, so editing a snippet rebuilds its pages.
* Under each cell: where its output was verified (device, torch version, date) from the
  transcripts, and, for a device-dependent snippet, the recorded CUDA output beside the CPU one.
* The ``{out}`` role quotes a value from a cell's real output into prose:
  ``{out}`detach/stops_gradient:x.grad``` is the text after ``x.grad:`` (or ``x.grad ->``) in
  that snippet's output on this page; ``{out}`overview/all_operations:x.data|shares storage```
  is a cell of a printed Markdown table (row, column, and optionally the start of the table's
  caption); ``{error}`detach/inplace_breaks_backward``` is the name of the exception it raised.
"""

from __future__ import annotations

import functools
import re
from importlib.metadata import version
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from whatcopy.content import pages
from whatcopy.core import transcripts
from whatcopy.core.transcripts import Snippet, SnippetError
from whatcopy.sphinxext.messages import N_, translate

logger = logging.getLogger(__name__)


TEXT = {  # English msgids; the Chinese is in docs/locale/zh_CN/LC_MESSAGES/whatcopy.po
    "snippet": N_("Snippet: "),
    "download": N_("Download: "),
    "transcript_link": N_("{device} transcript"),
    "verified": N_("Verified: "),
    "build": N_("output produced on CPU with torch {torch} when this site was built"),
    "transcript": N_("{device} transcript: {machine}, torch {torch}, recorded {date}"),
    "missing": N_("{device} transcript: not recorded yet"),
    "stale": N_("{device} transcript: recorded for an earlier version of this snippet"),
    "cpu_output": N_("Output on CPU"),
    "cuda_output": N_("Output on CUDA"),
    # for readers: how a maintainer records one is in CONTRIBUTING.md, not on the page
    "no_transcript": N_(
        "No current {device} run of this snippet yet: only its CPU output is shown."
    ),
    "device_dependent": N_("The output depends on the device: "),
}


def _text(env, key: str) -> str:
    """The label in the build's language (the catalog registered for it)."""
    return translate(env.config.language, TEXT[key])


# ---------------------------------------------------------------------------------------------
# Reading the page source


def snippet_cells(page: Path, text: str) -> list[tuple[int, str, Path, list[str]]]:
    """Each ``:load:`` cell of a page: (line, the :load: value, resolved snippet path, tags),
    as whatcopy.content.pages (myst-nb's reader) reads them."""
    return [
        (cell.line, cell.load, cell.path, cell.tags)
        for cell in pages.read(page, text).cells
        if cell.load is not None
    ]


def check_page_source(app: Sphinx, docname: str, source: list[str]) -> None:
    env = app.env
    page = Path(env.doc2path(docname))
    text = source[0]
    try:
        cells = snippet_cells(page, text)
    except pages.PageError as exc:
        logger.error(str(exc), location=docname)
        return
    for line, load, path, tags in cells:
        where = (docname, line)
        if not path.is_file():
            shown = path.relative_to(transcripts.ROOT) if transcripts.ROOT in path.parents else path
            logger.error("snippet file not found: %s", shown, location=where)
            text = text.replace(f":load: {load}", ":load: /dev/null", 1)  # parse on, fail at end
            continue
        if transcripts.SNIPPETS not in path.parents and transcripts.GENERATORS not in path.parents:
            logger.error(
                "%s is not under %s or generators/", path, transcripts.SNIPPETS, location=where
            )
            continue
        env.note_dependency(str(path))
        snippet = Snippet(path)
        try:
            declared = snippet.raises
        except SnippetError as exc:
            logger.error(str(exc), location=where)
            continue
        tagged = "raises-exception" in tags
        if declared and not tagged:
            logger.error(
                "%s is declared '# raises %s': give its cell ':tags: [raises-exception]'",
                snippet.rel,
                declared,
                location=where,
            )
        if tagged and not declared:
            logger.error(
                "the cell of %s is tagged raises-exception, but the snippet declares no "
                "'# raises ...' on its last line",
                snippet.rel,
                location=where,
            )
    source[0] = text


# ---------------------------------------------------------------------------------------------
# The parsed page: cells, their outputs, and the values prose quotes from them


class snippet_value(nodes.Inline, nodes.TextElement):
    """Placeholder for a value quoted from a cell's output; replaced in doctree-read."""


class OutRole(SphinxRole):
    """``{out}`snippet-name:label``` -> the text after ``label:`` in that snippet's output."""

    kind = "out"

    def run(self):
        node = snippet_value(self.rawtext, "", kind=self.kind, target=self.text)
        self.set_source_info(node)
        return [node], []


class ErrorRole(OutRole):
    """``{error}`snippet-name``` -> the name of the exception that snippet's cell raised."""

    kind = "error"


def _cells(doctree: nodes.document):
    for node in doctree.findall(nodes.container):
        if node.get("nb_element") == "cell_code" and "load" in node.get("cell_metadata", {}):
            yield node


def _cell_snippet(env, cell: nodes.container) -> Snippet:
    page = Path(env.doc2path(env.docname))
    return Snippet((page.parent / cell["cell_metadata"]["load"]).resolve())


def _cell_outputs(cell: nodes.container) -> tuple[str, str]:
    """(printed text, error text) of a rendered cell."""
    printed, error = [], []
    for block in cell.findall(nodes.literal_block):
        classes = block.get("classes", [])
        if "stream" in classes:
            printed.append(block.astext())
        elif "traceback" in classes:
            error.append(block.astext())
    return "\n".join(printed), "\n".join(error)


def resolve_values(env, doctree: nodes.document, outputs: dict[str, tuple[str, str]]) -> None:
    for node in list(doctree.findall(snippet_value)):
        kind, target = node["kind"], node["target"]
        name, _, label = target.partition(":")
        where = node
        if name not in outputs:
            logger.error(
                "{%s}`%s`: no cell on this page loads snippets/%s.py",
                kind,
                target,
                name,
                location=where,
            )
            node.replace_self(nodes.literal(target, target))
            continue
        printed, error = outputs[name]
        value = None
        if kind == "error":
            match = re.search(r"^(\w+(?:\.\w+)*):", error, re.MULTILINE)
            value = match.group(1) if match else None
        elif "|" in label:
            value = table_value(printed, label)
        else:
            for line in printed.splitlines():
                for separator in (":", " ->"):
                    if line.startswith(label + separator):
                        value = line[len(label) + len(separator) :].strip()
                        break
                if value is not None:
                    break
        if not value:
            what = (
                "raised no exception"
                if kind == "error"
                else f"printed no table cell '{label}' (or it is ambiguous, or empty)"
                if "|" in label
                else f"printed no line '{label}: ...' with a value after the label"
            )
            logger.error(
                "{%s}`%s`: snippets/%s.py %s on this page",
                kind,
                target,
                name,
                what,
                location=where,
            )
            value = target
        node.replace_self(nodes.literal(value, value, classes=["snippet-value"]))


def table_value(printed: str, label: str) -> str | None:
    """``row|column[|caption start]``: that cell of the printed Markdown table(s).

    None when no table has it, or when tables disagree and no caption picks one.
    """
    from whatcopy.sphinxext.output_figures import parse_tables

    row_name, column, *which = label.split("|")
    found = []
    for caption, rows in parse_tables(printed):
        if which and not caption.startswith(which[0]):
            continue
        header = rows[0]
        if column not in header:
            continue
        for row in rows[1:]:
            if row[0] == row_name:
                found.append(row[header.index(column)])
    return found[0] if found and len(set(found)) == 1 else None


def _transcript_header(snippet: Snippet, device: str) -> dict[str, str] | None:
    """The header of the snippet's transcript on that device, if it is current."""
    path = snippet.transcript(device)
    if not path.exists():
        return None
    header = transcripts.read_header(path)
    header["current"] = header.get("Source-SHA256") == snippet.sha256
    return header


def _transcript_output(snippet: Snippet, device: str) -> str:
    """The output a transcript records, shown the way the page shows it (exception line only)."""
    printed, error = transcripts.recorded_output(snippet, device)
    return (printed + (error or "")).rstrip("\n")


@functools.cache  # (asked for every cell: each look-up scans sys.path's distributions)
def _installed(name: str) -> str:
    return version(name)


def _provenance(env, snippet: Snippet) -> list[str]:
    entries = [_text(env, "build").format(torch=_installed("torch"))]
    for device in transcripts.DEVICES:
        header = _transcript_header(snippet, device)
        name = device.upper()
        if header is None:
            entries.append(_text(env, "missing").format(device=name))
        elif not header["current"]:
            entries.append(_text(env, "stale").format(device=name))
        else:
            entries.append(
                _text(env, "transcript").format(
                    device=name,
                    machine=header.get("Device", "?"),
                    torch=header.get("Torch", "?"),
                    date=header.get("Recorded", "?"),
                )
            )
    return entries


def decorate_cell(env, cell: nodes.container, snippet: Snippet) -> None:
    cell["classes"].append("snippet-cell")
    meta = nodes.container(classes=["snippet-meta"])
    line = nodes.paragraph()
    line += nodes.inline(text=_text(env, "snippet"), classes=["snippet-meta-label"])
    line += nodes.literal(text=snippet.rel)
    meta += line
    meta += _downloads(env, snippet)
    verified = nodes.paragraph()
    verified += nodes.inline(text=_text(env, "verified"), classes=["snippet-meta-label"])
    verified += nodes.inline(text=" · ".join(_provenance(env, snippet)))
    meta += verified
    if snippet.device_dependent:
        meta += _device_comparison(env, snippet)
    cell += meta


def _downloads(env, snippet: Snippet) -> nodes.paragraph:
    from whatcopy.sphinxext.course_kit import download_path, relative

    line = nodes.paragraph()
    line += nodes.inline(text=_text(env, "download"), classes=["snippet-meta-label"])
    links = [(Path(snippet.name).name + ".py", download_path("py", snippet.name))]
    for device in transcripts.DEVICES:
        header = _transcript_header(snippet, device)
        if header and header["current"]:
            label = _text(env, "transcript_link").format(device=device.upper())
            links.append((label, download_path("transcript", snippet.name, device)))
    for index, (label, path) in enumerate(links):
        if index:
            line += nodes.Text(" · ")
        line += nodes.reference("", label, refuri=relative(env.docname, path))
    return line


def _device_comparison(env, snippet: Snippet) -> nodes.container:
    box = nodes.container(classes=["device-comparison"])
    title = nodes.paragraph(classes=["device-comparison-title"])
    title += nodes.strong(text=_text(env, "device_dependent"))
    title += nodes.inline(text=snippet.device_dependent)
    box += title
    for device in transcripts.DEVICES:
        column = nodes.container(classes=["device-output", f"device-{device}"])
        head = nodes.paragraph()
        head += nodes.strong(text=_text(env, f"{device}_output"))
        column += head
        header = _transcript_header(snippet, device)
        if header and header["current"]:
            head += nodes.inline(text=f" ({header.get('Device')}, torch {header.get('Torch')})")
            text = _transcript_output(snippet, device)
            column += nodes.literal_block(text, text, language="none", classes=["output"])
        else:
            message = _text(env, "no_transcript").format(device=device.upper())
            column += nodes.paragraph(text=message)
        box += column
    return box


def process_doctree(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    cells = list(_cells(doctree))
    outputs: dict[str, tuple[str, str]] = {}
    for cell in cells:
        snippet = _cell_snippet(env, cell)
        if not snippet.path.is_file():
            continue
        outputs.setdefault(snippet.name, _cell_outputs(cell))
        decorate_cell(env, cell, snippet)
    resolve_values(env, doctree, outputs)


# ---------------------------------------------------------------------------------------------
# myst-nb's notebooks


def separate_output_folders(app: Sphinx) -> None:
    """Keep each language's executed notebooks apart (myst-nb puts them beside the outdir)."""
    folder = Path(app.config.snippets_notebook_folder) / Path(app.outdir).name
    # upstream: myst-nb-output-folder
    app.env.mystnb_config = app.env.mystnb_config.copy(output_folder=str(folder))


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    app.add_config_value("snippets_notebook_folder", "", "env")
    app.add_node(snippet_value)
    app.add_role("out", OutRole())
    app.add_role("error", ErrorRole())
    app.connect("builder-inited", separate_output_folders, priority=600)
    app.connect("source-read", check_page_source)
    app.connect("doctree-read", process_doctree)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
