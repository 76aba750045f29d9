"""The error atlas: what generators/errors.py printed, drawn as one entry per message, and the
links back to it from the sections that explain each message.

One job in two places:

* on the atlas page, a cell tagged ``error-atlas`` runs the generator; its printed text (read by
  whatcopy.reference.atlas) becomes a section per topic and a subsection per entry, anchored
  ``err-<id>``: the message in full, the code that triggers it, the cause, the fix with what it
  printed, and a cross-reference to the section that explains it. The cause and the fix in
  words come from docs/error_atlas.yaml, in the build's language; the message, the code and
  the outputs are the cell's, as printed. Each anchor is registered as a label whose title is
  the message's headline, so ``{ref}`err-backward-twice``` from any page reads as the message.
  The printed text stays in the cell, folded, as under every drawn output;
* on the explaining pages, ``{error-messages}`` in a section lists, as links, the entries whose
  ``see:`` names that section (tests/test_error_atlas.py fails when one is missing).

An entry without its text or its link in the build's language, or a printed text this module
cannot read, fails the build at the cell (warnings are errors).
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from whatcopy import project
from whatcopy.content import yaml_files
from whatcopy.reference import atlas
from whatcopy.sphinxext.messages import NP_, translate
from whatcopy.sphinxext.output_figures import fold, printed_cells

logger = logging.getLogger(__name__)

TAG = "error-atlas"


def data_file() -> Path:
    """docs/error_atlas.yaml of the project being built (whatcopy/project.py)."""
    return project.current().docs / "error_atlas.yaml"


LANGUAGES = ("en", "zh")  # the languages each entry's text is written in
FIELDS = ("cause", "fix")
CONTEXT = "error atlas"
TOPICS = {
    "backward": NP_(CONTEXT, "backward() and the graph"),
    "leaves": NP_(CONTEXT, "Leaves, requires_grad and .grad"),
    "inplace": NP_(CONTEXT, "In-place edits and the version counter"),
    "views": NP_(CONTEXT, "Views"),
    "modes": NP_(CONTEXT, "no_grad() and inference mode"),
    "copies": NP_(CONTEXT, "Copies and constructors"),
    "numpy": NP_(CONTEXT, "NumPy"),
    "scalars": NP_(CONTEXT, "Python numbers"),
    "devices": NP_(CONTEXT, "Devices and dtypes"),
    "hooks": NP_(CONTEXT, "Hooks"),
    "modules": NP_(CONTEXT, "Modules, state_dict and training loops"),
}
TEXT = {
    "raises": NP_(CONTEXT, "Code that raises it:"),
    "warns": NP_(CONTEXT, "Code that warns:"),
    "cause": NP_(CONTEXT, "Cause:"),
    "fix": NP_(CONTEXT, "Fix:"),
    "after": NP_(CONTEXT, "The fix, run, printed:"),
    "see": NP_(CONTEXT, "Explained in:"),
    "links": NP_(CONTEXT, "These messages in full, with a fix, in the error atlas:"),
}


def _t(language: str, key: str) -> str:
    return translate(language, TEXT[key], CONTEXT)


def _where(path: Path) -> str:
    root = project.current().root
    return path.relative_to(root).as_posix() if root in path.parents else str(path)


def load(path: Path | None = None) -> dict:
    return yaml_files.load(path or data_file())


def problems(data: dict, idents: list[str] | None = None, path: Path | None = None) -> list[str]:
    """What is missing from the data file, one line per problem, naming the file and entry:
    every entry has a `see:` label and, in each language, its cause and its fix; with `idents`
    (the generator's entries), the file has exactly those entries."""
    where = _where(path or data_file())
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return [f"{where}: no `entries:` mapping"]
    found = []
    for ident, entry in entries.items():
        name = f"{where}: entry {ident}"
        if not isinstance(entry, dict):
            found.append(f"{name}: not a mapping")
            continue
        if not isinstance(entry.get("see"), str) or not entry["see"]:
            found.append(f"{name}: no `see:` label of the section that explains it")
        for language in LANGUAGES:
            text = entry.get(language)
            for field in FIELDS:
                value = text.get(field) if isinstance(text, dict) else None
                if not isinstance(value, str) or not value.strip():
                    found.append(f"{name}: no {language}.{field}")
    if idents is not None:
        found += [
            f"{where}: no entry {i} (the generator has it)" for i in idents if i not in entries
        ]
        found += [
            f"{where}: entry {i}: the generator has no such entry"
            for i in entries
            if i not in idents
        ]
    return found


def inline(text: str) -> list[nodes.Node]:
    """Prose with `code` spans, as docutils nodes (the data file's only markup)."""
    result: list[nodes.Node] = []
    for index, part in enumerate(re.split(r"`([^`]+)`", text.strip())):
        if index % 2:
            result.append(nodes.literal(part, part))
        elif part:
            result.append(nodes.Text(part))
    return result


def labelled(label: str, *content: nodes.Node) -> nodes.paragraph:
    paragraph = nodes.paragraph(classes=["atlas-field"])
    paragraph += nodes.strong(label, label)
    paragraph += nodes.Text(" ")
    for node in content:
        paragraph += node
    return paragraph


def block(text: str, language: str, classes: list[str]) -> nodes.literal_block:
    node = nodes.literal_block(text, text, classes=classes)
    node["language"] = language
    return node


def reference(env, label: str) -> addnodes.pending_xref:
    """A {ref} to `label`: its text is the labelled section's title, a missing label warns."""
    ref = addnodes.pending_xref(
        "", refdomain="std", reftype="ref", reftarget=label, refexplicit=False, refwarn=True,
        refdoc=env.docname,
    )  # fmt: skip
    ref += nodes.inline("", "", classes=["xref", "std", "std-ref"])
    return ref


def entry_section(env, entry: atlas.Entry, text: dict, see: str) -> nodes.section:
    language = env.config.language
    section = nodes.section(ids=[entry.anchor], classes=["atlas-entry"])
    section += nodes.title(entry.message.headline, entry.message.headline)
    for message in entry.messages:
        section += block(message.shown, "none", ["atlas-message"])
    kind = "raises" if entry.message.kind == "raises" else "warns"
    section += labelled(_t(language, kind))
    section += block(entry.code, "python", ["atlas-code"])
    section += labelled(_t(language, "cause"), *inline(text["cause"]))
    section += labelled(_t(language, "fix"), *inline(text["fix"]))
    section += block(entry.fix, "python", ["atlas-code"])
    section += labelled(_t(language, "after"))
    section += block(entry.after, "none", ["output", "atlas-output"])
    section += labelled(_t(language, "see"), reference(env, see))
    return section


def register(env, entry: atlas.Entry) -> None:
    """The entry's anchor as a label of this page, titled with its headline."""
    std = env.get_domain("std")
    std.labels[entry.anchor] = (env.docname, entry.anchor, entry.message.headline)
    std.anonlabels[entry.anchor] = (env.docname, entry.anchor)


def draw_atlas(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    language = env.config.language
    key = "zh" if language.startswith("zh") else "en"
    for cell, printed, _ in printed_cells(doctree, TAG):
        try:
            found = atlas.parse(printed.astext())
        except atlas.AtlasError as exc:
            logger.error("%s: %s", TAG, exc, location=cell)
            continue
        env.note_dependency(str(data_file()))
        data = load()
        missing = problems(data, [e.ident for e in found.entries])
        unknown = [t for t in found.topics() if t not in TOPICS]
        if missing or unknown:
            for problem in missing + [f"{TAG}: no heading for the topic {t!r}" for t in unknown]:
                logger.error("%s", problem, location=cell)
            continue
        # The printed text stays, folded. (Not replace_self, which would give the <details>
        # opening the block's classes, and the HTML writer a <div> around that opening alone.)
        # (fold() keeps it out of the search: the entries below are this text, arranged)
        printed.parent.replace(printed, fold(env, printed))
        sections = []
        for topic in found.topics():
            section = nodes.section(ids=[f"errors-{topic}"], classes=["atlas-topic"])
            heading = translate(language, TOPICS[topic], CONTEXT)
            section += nodes.title(heading, heading)
            std = env.get_domain("std")  # other pages may link to a topic: errors.md#errors-numpy
            std.labels[f"errors-{topic}"] = (env.docname, f"errors-{topic}", heading)
            std.anonlabels[f"errors-{topic}"] = (env.docname, f"errors-{topic}")
            for entry in (e for e in found.entries if e.topic == topic):
                text = data["entries"][entry.ident]
                section += entry_section(env, entry, text[key], text["see"])
                register(env, entry)
            sections.append(section)
        parent = cell.parent
        index = parent.index(cell)
        for offset, section in enumerate(sections, start=1):
            parent.insert(index + offset, section)


class atlas_links(nodes.General, nodes.Element):
    """Where {error-messages} stood: replaced by the links once the page is read."""


class ErrorMessages(SphinxDirective):
    """``{error-messages}``: links to the atlas's entries that this section explains."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(data_file()))
        node = atlas_links()
        self.set_source_info(node)
        return [node]


def draw_links(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    placeholders = list(doctree.findall(atlas_links))
    if not placeholders:
        return
    entries = load().get("entries") or {}
    for node in placeholders:
        section = node.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        labels = set(section["ids"]) if section is not None else set()
        idents = [i for i, e in entries.items() if isinstance(e, dict) and e.get("see") in labels]
        if not idents:
            logger.error(
                "{error-messages}: no entry of %s names this section (%s) in `see:`",
                _where(data_file()), ", ".join(sorted(labels)) or "no section", location=node,
            )  # fmt: skip
            node.replace_self([])
            continue
        paragraph = labelled(_t(env.config.language, "links"))
        paragraph["classes"].append("atlas-links")
        for number, ident in enumerate(idents):
            if number:
                paragraph += nodes.Text(" · ")
            paragraph += reference(env, f"err-{ident}")
        node.replace_self(paragraph)


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    app.setup_extension("whatcopy.sphinxext.output_figures")
    app.add_node(atlas_links)
    app.add_directive("error-messages", ErrorMessages)
    # After myst-nb rendered the outputs, before snippet_cells reads them (as op_reference).
    app.connect("doctree-read", draw_atlas, priority=400)
    app.connect("doctree-read", draw_links, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
