"""Course kit: what a teacher takes away from the site.

One job: publish the snippets in forms a course can reuse, next to each language's pages.

* ``downloads/snippets/<name>.py`` and ``downloads/transcripts/<device>/<name>.txt`` for every
  snippet, ``downloads/notebooks/<page>.ipynb`` for every page with code (the page's headings,
  each snippet as a cell, the recorded outputs), and ``downloads/snippets.zip`` with all snippets,
  transcripts, a README for teachers and the licence. The zip is byte-for-byte reproducible.
  A generator (``generators/<name>.py``, which needs more than torch) is downloadable from its
  page too, as ``downloads/generators/<name>.py`` with its transcripts, but is not in the zip.
* The teachers' kit, ``downloads/kit/what-does-it-copy-kit-<folder>.zip`` (``{kit}`` role): the
  language's downloads packed with ``students/`` (snippets, the transcripts but the
  exercises', the page notebooks, the exercise notebooks, the student book) apart from
  ``teachers/`` (the answers, the exercises' transcripts, the teacher book), a README
  (docs/kit/TEACHERS.md), LICENSE and ATTRIBUTION.txt; packed again by ``python -m whatcopy
  book`` once the books are printed. A page notebook's exercise cells hold no output (their
  answer); a notebook whose cells need more than torch starts with ``kit-setup`` cells that
  install it where missing and write the modules of generators/ the cells import; every
  notebook links back to the published site (``published_url``). The line that credits the
  CC BY text (``attribution_line``) is the footer's (docs/_templates/attribution.html), the
  kit's and the book's.
* The header buttons of sphinx-book-theme: the download menu offers the page's notebook (with
  outputs) and its snippets as ``.py``; the Colab and Binder buttons open the same notebook,
  published by the deploy workflow on the ``notebooks`` branch as ``<language folder>/<page>.ipynb``
  (``launch_notebook_path``), not the page's MyST source, which Colab cannot read.
* The ``{snippet-index}`` directive: every snippet with its claim, the pages that use it and
  where it was verified.

Notebook cells run top to bottom: a snippet meant to fail carries the ``raises-exception`` tag,
which Jupyter and nbclient honour.
"""

from __future__ import annotations

import ast
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from whatcopy.content import pages
from whatcopy.core import transcripts
from whatcopy.core.transcripts import Snippet
from whatcopy.languages import LANGUAGES
from whatcopy.sphinxext.messages import N_, translate

DOWNLOADS = "downloads"
SETUP_TAG = "kit-setup"  # a notebook's first cells: what it needs beyond torch
EXERCISE_TAG = "exercise"  # (exercises.TAG, which imports this module)
HEADING = re.compile(r"^(#{1,3}) (.+)$")
ZIP_DATE = (2026, 1, 1, 0, 0, 0)  # fixed, so that two builds give the same archive

TEXT = {  # English msgids; the Chinese is in docs/locale/zh_CN/LC_MESSAGES/whatcopy.po
    "snippet": N_("Snippet"),
    "claim": N_("Claim"),
    "pages": N_("Used on"),
    "verified": N_("Verified"),
    "page_link": N_("Read it with its explanations on the site: "),
    "zip": N_(
        "Every snippet, its transcripts, a README for teachers and the licence, in one archive: "
    ),
    "attribution": N_(
        "\u201cWhat does it copy?\u201d by the what-does-it-copy authors, {url}, licensed under"
        " CC BY 4.0 ({licence})"
    ),
    "licences": N_(
        "The text is licensed under CC BY 4.0, the code under the MIT licence. To reuse the"
        " text, credit it with this line:"
    ),
    "book-student": N_(
        "The whole site as a PDF book, to print or read offline: the students' edition, "
        "without the exercises' answers"
    ),
    "book-teacher": N_(
        "The whole site as a PDF book, to print or read offline: the teachers' edition, "
        "with the exercises' answers in an appendix"
    ),
    "notebook": N_(
        "Each cell is a standalone snippet that needs only `torch`. Outputs are those recorded on"
        " CPU; run the cells to see your own."
    ),
}


def _text(config, key: str) -> str:
    """The label in the build's language (the catalog registered for it)."""
    return translate(config.language, TEXT[key])


# The PDF book's editions (whatcopy/site/book.py prints one of each per language): the
# students' has no answers to the exercises, the teachers' has them in an appendix.
EDITIONS = ("student", "teacher")


def book_name(folder: str, edition: str = "student") -> str:
    """A PDF book's file, in the language's folder of the site (whatcopy/site/book.py prints it)."""
    if edition not in EDITIONS:
        raise ValueError(f"no {edition!r} edition of the book: {', '.join(EDITIONS)}")
    return f"what-does-it-copy-{folder}-{edition}.pdf"


LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"


def attribution_line(language: str, url: str) -> str:
    """The line that credits the CC BY text, in `language` (Sphinx's code: en, zh_CN), naming
    the site at `url`: the site's footer, the kit's ATTRIBUTION.txt and the book's cover say it."""
    return translate(language, TEXT["attribution"]).format(url=url, licence=LICENCE_URL)


def attribution_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree):
    """What docs/_templates/attribution.html (the footer) says."""
    language = app.config.language
    url = f"{published_url(app.config)}{site_folder(app.config)}/"
    context["site_attribution"] = {
        "licences": translate(language, TEXT["licences"]),
        "line": attribution_line(language, url),
        "licence_url": LICENCE_URL,
    }


def site_folder(config) -> str:
    """The build's language's folder of the site (en, zh-cn)."""
    return next(lang.folder for lang in LANGUAGES.values() if lang.sphinx == config.language)


def book_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{book}`text``: a link to the language's PDF book (the students' edition), with that
    text; ``{teacher-book}`text``: to the teachers' edition."""
    env = inliner.document.settings.env
    edition = "teacher" if name == "teacher-book" else "student"
    target = book_name(site_folder(env.config), edition)
    link = nodes.reference(rawtext, text, refuri=relative(env.docname, target))
    return [link], []


def download_path(kind: str, name: str, device: str = "cpu") -> str:
    """Path of a download below a language's output folder."""
    if kind == "py" and name.startswith("generators/"):
        return f"{DOWNLOADS}/{name}.py"
    if kind == "py":
        return f"{DOWNLOADS}/snippets/{name}.py"
    if kind == "transcript":
        return f"{DOWNLOADS}/transcripts/{device}/{name}.txt"
    if kind == "notebook":
        return f"{DOWNLOADS}/notebooks/{name}.ipynb"
    return f"{DOWNLOADS}/snippets.zip"


def relative(docname: str, path: str) -> str:
    return "../" * docname.count("/") + path


def page_snippets(page: Path) -> list[str]:
    """The names of the snippets (and generators) the page's cells :load:, in order
    (whatcopy.content.pages reads it)."""
    return [
        Snippet(cell.path).name
        for cell in pages.read(page).cells
        if cell.path is not None
        and (
            transcripts.SNIPPETS in cell.path.parents or transcripts.GENERATORS in cell.path.parents
        )
    ]


# ---------------------------------------------------------------------------------------------
# The snippet index


class SnippetIndex(Directive):
    """A table of every snippet: claim, the pages that use it, where it was verified."""

    def run(self):
        env = self.state.document.settings.env
        srcdir = Path(env.srcdir)
        users: dict[str, list[str]] = {}
        for page in sorted(srcdir.rglob("*.md")):
            env.note_dependency(str(page))
            docname = page.relative_to(srcdir).with_suffix("").as_posix()
            for name in page_snippets(page):
                users.setdefault(name, [])
                if docname not in users[name]:
                    users[name].append(docname)
        config = env.config
        table = nodes.table(classes=["snippet-index"])
        group = nodes.tgroup(cols=4)
        table += group
        for width in (3, 5, 2, 3):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        head += self._row(
            [nodes.Text(_text(config, k)) for k in ("snippet", "claim", "pages", "verified")]
        )
        body = nodes.tbody()
        group += body
        for snippet in transcripts.all_snippets():
            env.note_dependency(str(snippet.path))
            for device in transcripts.DEVICES:
                if snippet.transcript(device).exists():
                    env.note_dependency(str(snippet.transcript(device)))
            link = nodes.reference(
                "", "", refuri=relative(env.docname, download_path("py", snippet.name))
            )
            link += nodes.literal(text=snippet.name + ".py")
            pages = []
            for docname in users.get(snippet.name, []):
                xref = addnodes.pending_xref(
                    "", refdomain="std", reftype="doc", reftarget="/" + docname, refexplicit=False
                )
                xref += nodes.inline(text=docname)
                pages += [xref, nodes.Text(" ")]
            verified = []
            for device in transcripts.DEVICES:
                path = snippet.transcript(device)
                if path.exists():
                    header = transcripts.read_header(path)
                    if header.get("Source-SHA256") == snippet.sha256:
                        ref = nodes.reference(
                            "",
                            f"{device.upper()}: torch {header.get('Torch')}, {header.get('Recorded')}",
                            refuri=relative(
                                env.docname, download_path("transcript", snippet.name, device)
                            ),
                        )
                        verified += [ref, nodes.Text(" ")]
            body += self._row(
                [
                    link,
                    nodes.Text(snippet.claim),
                    pages or [nodes.Text("-")],
                    verified or [nodes.Text("-")],
                ]
            )
        archive = nodes.paragraph()
        archive += nodes.Text(_text(config, "zip"))
        archive += nodes.reference(
            "", "snippets.zip", refuri=relative(env.docname, download_path("zip", ""))
        )
        return [archive, table]

    @staticmethod
    def _row(cells) -> nodes.row:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            paragraph = nodes.paragraph()
            for node in cell if isinstance(cell, list) else [cell]:
                paragraph += node
            entry += paragraph
            row += entry
        return row


# ---------------------------------------------------------------------------------------------
# Downloads


def notebook(page: Path, docname: str, config) -> dict:
    """The page as a notebook: its headings, each snippet as a code cell with recorded outputs."""
    text = page.read_text(encoding="utf-8")
    cells = []
    title = next(
        (
            m.group(2)
            for line in text.splitlines()
            if (m := HEADING.match(line)) and m.group(1) == "#"
        ),
        docname,
    )
    cells.append(
        markdown_cell(
            f"# {title}\n\n{_text(config, 'page_link')}[{docname}]({page_url(config, docname)})"
            f"\n\n{_text(config, 'notebook')}"
        )
    )
    read = [cell for cell in pages.read(page, text).cells if cell.path is not None]
    loads = {cell.line: cell for cell in read}
    cells += setup_cells([Snippet(cell.path) for cell in read])
    for number, line in enumerate(text.splitlines(), start=1):
        if (m := HEADING.match(line)) and m.group(1) != "#":
            cells.append(markdown_cell(line))
        if number in loads:  # the opening fence of a :load: cell
            # an exercise's output is its answer: handed out apart (exercises.py), not here
            exercise = EXERCISE_TAG in loads[number].tags
            cells.append(_code(Snippet(loads[number].path), outputs=not exercise))
    return notebook_document(cells)


# ---------------------------------------------------------------------------------------------
# What a notebook needs beyond torch, and where it links back to


def published_url(config) -> str:
    """The address the site is published at, ending in /: the ``site_url`` config value, else
    GitHub Pages' address of the repository the launch buttons name (site_conf.REPOSITORY: the
    CI's repository, the clone's origin remote or pyproject.toml's), as the deploy workflow
    publishes it. Downloads link back here, not relatively: a notebook opened in Colab or from
    a teacher's disk has no site beside it."""
    if config.site_url:
        return config.site_url.rstrip("/") + "/"
    from whatcopy.project import pages_url

    repository = config.html_theme_options.get("repository_url", "")
    return pages_url(repository.removeprefix("https://github.com/").strip("/"))


def page_url(config, docname: str, anchor: str = "") -> str:
    """A page of the build's language on the published site."""
    return f"{published_url(config)}{site_folder(config)}/{docname}.html" + (
        f"#{anchor}" if anchor else ""
    )


def requirement_pins() -> dict[str, str]:
    """{distribution: "name==version"} of what the snippets and generators need beyond torch
    (requirements/snippets.txt and generators.txt, which pin exactly what the site ran)."""
    pins = {}
    for name in ("snippets.txt", "generators.txt"):
        for line in (transcripts.ROOT / "requirements" / name).read_text().splitlines():
            line = line.split("#")[0].strip()
            if "==" in line and not line.startswith("-"):
                pins[line.split("==")[0].strip().lower()] = line.replace(" ", "")
    pins.pop("torch", None)
    return pins


# Methods of torch that need NumPy without an `import numpy` (x.numpy(), torch.from_numpy):
# without it they raise "Numpy is not available".
NUMPY_METHODS = {"numpy", "from_numpy"}


def _imports(snippet: Snippet) -> set[str]:
    """The top-level modules a snippet's code imports, numpy too where it calls NUMPY_METHODS."""
    found = set()
    for node in ast.walk(ast.parse(snippet.source)):
        if isinstance(node, ast.Attribute) and node.attr in NUMPY_METHODS:
            found.add("numpy")
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def needs(snippets: list[Snippet]) -> tuple[list[str], list[Path]]:
    """What these cells need beyond torch: the pinned packages they import (a generator: all
    that requirements/generators.txt names, expecttest for torch.testing._internal included),
    and the modules of generators/ that a generator imports (generators/zoo.py)."""
    pins, wanted, local = requirement_pins(), set(), []
    for snippet in snippets:
        imported = _imports(snippet)
        wanted |= {name for name in pins if name in imported}
        if snippet.is_generator:
            wanted |= set(pins)
            for name in sorted(imported):
                module = transcripts.GENERATORS / f"{name}.py"
                if module.is_file() and module not in local:
                    local.append(module)
    return [pins[name] for name in sorted(wanted)], local


SETUP_CODE = """\
# {comment}
import importlib.util
import subprocess
import sys

NEEDS = {needs}
missing = [pin for module, pin in NEEDS.items() if importlib.util.find_spec(module) is None]
if missing:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *missing], check=True)"""


def setup_cells(snippets: list[Snippet]) -> list[dict]:
    """The cells that come first in a notebook whose cells need more than torch, tagged
    ``kit-setup``: one that installs the missing packages (only those missing: Colab has numpy
    already, and a reinstalled numpy would need a restart), pinned to the versions the site
    ran; one ``%%writefile`` cell per module of generators/ that a cell imports."""
    wanted, local = needs(snippets)
    cells = []
    if wanted:
        table = "{" + ", ".join(f'"{pin.split("==")[0]}": "{pin}"' for pin in wanted) + "}"
        comment = "Setup: what the cells below need beyond torch, installed where missing."
        cells.append(setup_cell(SETUP_CODE.format(comment=comment, needs=table)))
    for module in local:
        source = module.read_text(encoding="utf-8").rstrip("\n")
        cells.append(setup_cell(f"%%writefile {module.name}\n{source}"))
    return cells


def setup_cell(source: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": "",
        "metadata": {"tags": [SETUP_TAG]},
        "outputs": [],
        "source": source,
    }


def notebook_document(cells: list[dict]) -> dict:
    """A notebook of these cells (the course kit's and the exercises'), with cell ids unique
    within it and stable across builds."""
    for index, cell in enumerate(cells):
        cell["id"] = _cell_id(f"{index}:{cell['source']}")
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def markdown_cell(source: str) -> dict:
    return {"cell_type": "markdown", "id": "", "metadata": {}, "source": source}


def _code(snippet: Snippet, outputs: bool = True) -> dict:
    printed, error = transcripts.recorded_output(snippet) if outputs else ("", None)
    outputs = []
    if printed:
        outputs.append({"output_type": "stream", "name": "stdout", "text": printed})
    if error:
        name, _, message = error.partition(": ")
        name = name.split(".")[-1]  # a notebook's ename is the class name alone
        outputs.append(
            {
                "output_type": "error",
                "ename": name,
                "evalue": message,
                "traceback": [f"{name}: {message}"],
            }
        )
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": "",
        "metadata": {"tags": ["raises-exception"]} if snippet.raises else {},
        "outputs": outputs,
        "source": snippet.source.rstrip("\n"),
    }


def _cell_id(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def write_zip(target: Path) -> None:
    files = [
        (p, "snippets/" + p.relative_to(transcripts.SNIPPETS).as_posix())
        for p in sorted(transcripts.SNIPPETS.rglob("*.py"))
    ]
    files += [
        (p, "transcripts/" + p.relative_to(transcripts.TRANSCRIPTS).as_posix())
        for p in sorted(transcripts.TRANSCRIPTS.rglob("*.txt"))
        if p.relative_to(transcripts.TRANSCRIPTS).parts[1] != "generators"  # not teachers' snippets
    ]
    files += [
        (transcripts.ROOT / "docs" / "kit" / "README.md", "README.md"),
        (transcripts.ROOT / "LICENSE", "LICENSE"),
    ]
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, name in files:
            info = zipfile.ZipInfo("what-does-it-copy/" + name, date_time=ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())


def _kit_inputs(app: Sphinx) -> str:
    """What the downloads are made of: the snippets, generators, transcripts, pages, the kit's
    README and the licence, the pinned requirements (the notebooks' setup cells), the
    notebooks' texts in the language and the address they link back to, and this code."""
    from whatcopy.incremental import digest_of

    texts = "".join(_text(app.config, key) for key in ("page_link", "notebook"))
    files = [
        p
        for folder in (transcripts.SNIPPETS, transcripts.TRANSCRIPTS)
        for p in folder.rglob("*")
        if p.is_file()
    ]
    files += [g.path for g in transcripts.all_generators()]
    files += [
        transcripts.ROOT / "docs" / "kit" / "README.md",
        transcripts.ROOT / "LICENSE",
        *(transcripts.ROOT / "requirements" / n for n in ("snippets.txt", "generators.txt")),
        *Path(app.srcdir).rglob("*.md"),
    ]
    files = [p for p in files if "__pycache__" not in p.parts]
    where = published_url(app.config)
    return digest_of(f"{app.config.language} {where} {texts}", files, transcripts.ROOT)


def write_downloads(app: Sphinx, exception) -> None:
    """Write the downloads, unless what they are made of is what they were made of last time
    and they are still there as written (incremental.unless_unchanged; a rebuild that changed
    no page, snippet or transcript: about 1.5 s of each such build, half its time)."""
    from whatcopy.incremental import unless_unchanged

    # (not for the PDF book's single page, whatcopy/site/book.py: its links go to the site's)
    if exception is not None or app.builder.format != "html" or app.builder.name == "singlehtml":
        return
    out = Path(app.outdir) / DOWNLOADS
    # (downloads/exercises/ is exercises.py's, written after this on every build)
    inputs = _kit_inputs(app)
    record = Path(app.doctreedir) / "course_kit.json"
    unless_unchanged(record, inputs, out, lambda: _write_downloads(app, out), ("exercises", "kit"))


def _write_downloads(app: Sphinx, out: Path) -> None:
    shutil.rmtree(out, ignore_errors=True)
    (out / "notebooks").mkdir(parents=True)
    shutil.copytree(
        transcripts.SNIPPETS, out / "snippets", ignore=shutil.ignore_patterns("__pycache__")
    )
    for generator in transcripts.all_generators():
        target = out / download_path("py", generator.name).removeprefix(f"{DOWNLOADS}/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(generator.path, target)
    shutil.copytree(transcripts.TRANSCRIPTS, out / "transcripts")
    srcdir = Path(app.srcdir)
    for page in sorted(srcdir.rglob("*.md")):
        if not page_snippets(page):
            continue
        docname = page.relative_to(srcdir).with_suffix("").as_posix()
        target = out / "notebooks" / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        content = json.dumps(notebook(page, docname, app.config), indent=1, ensure_ascii=False)
        target.write_text(content + "\n", encoding="utf-8")
    write_zip(out / "snippets.zip")


# ---------------------------------------------------------------------------------------------
# The teachers' kit: one archive per language


def kit_path(folder: str) -> str:
    """The kit's archive below a language's output folder (en, zh-cn)."""
    return f"{DOWNLOADS}/kit/what-does-it-copy-kit-{folder}.zip"


def kit_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{kit}`text``: a link to the language's teachers' kit, with that text."""
    env = inliner.document.settings.env
    path = kit_path(site_folder(env.config))
    return [nodes.reference(rawtext, text, refuri=relative(env.docname, path))], []


def kit_entries(site: Path) -> list[tuple[str, bytes]]:
    """(name in the archive, bytes) of a language's kit, read from that language's built folder
    `site` and the repository: students/ holds what can be handed out (the snippets, the
    transcripts but the exercises', the page notebooks, whose exercise cells have no output,
    the exercise notebooks, the student book), teachers/ the answers (the answer files, the
    exercises' transcripts, every other book: the teacher's edition). A book not printed
    (a site built without --book) is left out."""
    downloads = site / DOWNLOADS
    entries = [
        ("README.md", transcripts.ROOT / "docs" / "kit" / "TEACHERS.md"),
        ("LICENSE", transcripts.ROOT / "LICENSE"),
        ("ATTRIBUTION.txt", downloads / "kit" / "ATTRIBUTION.txt"),
    ]
    for path in sorted((downloads / "snippets").rglob("*.py")):
        entries.append((f"students/{path.relative_to(downloads).as_posix()}", path))
    for path in sorted((downloads / "transcripts").rglob("*.txt")):
        rel = path.relative_to(downloads / "transcripts")
        if rel.parts[1] == "generators":  # (teachers' snippets only, as snippets.zip)
            continue
        side = "teachers" if rel.parts[1] == "exercises" else "students"
        entries.append((f"{side}/transcripts/{rel.as_posix()}", path))
    for path in sorted((downloads / "notebooks").rglob("*.ipynb")):
        entries.append((f"students/{path.relative_to(downloads).as_posix()}", path))
    for path in sorted((downloads / "exercises").glob("*.ipynb")):
        entries.append((f"students/exercises/{path.name}", path))
    for path in sorted((downloads / "exercises").glob("*-answers.md")):
        entries.append((f"teachers/answers/{path.name}", path))
    for path in sorted(site.glob("*.pdf")):
        side = "students" if "student" in path.stem else "teachers"
        entries.append((f"{side}/{path.name}", path))
    return [(name, path.read_bytes()) for name, path in entries]


def write_kit(site: Path) -> Path:
    """Write the language's kit from its built folder `site` (en/, zh-cn/), byte for byte the
    same for the same files, and only when that differs from the archive there (the build
    writes it, and ``python -m whatcopy book`` again once the books are printed)."""
    target = site / kit_path(site.name)
    root = Path(kit_path(site.name)).stem + "/"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in kit_entries(site):
            info = zipfile.ZipInfo(root + name, date_time=ZIP_DATE)
            info.external_attr = 0o644 << 16
            # a PDF is compressed already: stored, it costs no time to pack
            pdf = name.endswith(".pdf")
            info.compress_type = zipfile.ZIP_STORED if pdf else zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    data = buffer.getvalue()
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return target


def write_kit_files(app: Sphinx, exception) -> None:
    """After the downloads and the exercises' files (build-finished, priority 700): the
    attribution, then the archive."""
    if exception is not None or app.builder.format != "html" or app.builder.name == "singlehtml":
        return
    site = Path(app.outdir)
    url = f"{published_url(app.config)}{site_folder(app.config)}/"
    lines = [attribution_line(lang.sphinx, url) for lang in LANGUAGES.values()]
    if app.config.language != "en":  # the kit's own language first
        lines.reverse()
    text = "\n\n".join(lines) + "\n"
    attribution = site / DOWNLOADS / "kit" / "ATTRIBUTION.txt"
    attribution.parent.mkdir(parents=True, exist_ok=True)
    if not attribution.is_file() or attribution.read_text(encoding="utf-8") != text:
        attribution.write_text(text, encoding="utf-8")
    write_kit(site)


def launch_notebook_path(folder: str, docname: str) -> str:
    """Where a page's notebook lies on the notebooks branch (.github/workflows/site.yml
    copies each language's downloads/notebooks/ to <folder>/ there)."""
    return f"{folder}/{docname}.ipynb"


def header_buttons(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Point sphinx-book-theme's download and launch buttons at the course kit's notebooks."""
    from sphinx.locale import get_translation

    _ = get_translation("sphinx")
    buttons = context.get("header_buttons")
    if buttons is None:
        return
    page = Path(app.srcdir) / f"{pagename}.md"
    names = page_snippets(page) if page.exists() else []
    rewritten = []
    for button in buttons:
        label = button.get("label", "")
        if label == "download-buttons":
            items = []
            if names:
                items.append(
                    {
                        "type": "link",
                        "download": True,
                        "text": f"{pagename}.ipynb",
                        "url": relative(pagename, download_path("notebook", pagename)),
                        "tooltip": _("This page as a notebook, with its outputs"),
                        "icon": "fas fa-code",
                        "label": "download-notebook-button",
                    }
                )
                for name in names:
                    items.append(
                        {
                            "type": "link",
                            "download": True,
                            "text": f"{name}.py",
                            "url": relative(pagename, download_path("py", name)),
                            "tooltip": _("Snippet"),
                            "icon": "fas fa-file",
                            "label": "download-snippet-button",
                        }
                    )
            for edition in EDITIONS:
                book = book_name(site_folder(app.config), edition)
                items.append(
                    {
                        "type": "link",
                        "download": True,
                        "text": book,
                        "url": relative(pagename, book),
                        "tooltip": translate(app.config.language, TEXT[f"book-{edition}"]),
                        "icon": "fas fa-book",
                        "label": f"download-book-{edition}-button",
                    }
                )
            items.append(
                {
                    "type": "javascript",
                    "javascript": "window.print()",
                    "text": ".pdf",
                    "tooltip": _("Print this page"),
                    "icon": "fas fa-file-pdf",
                    "label": "download-pdf-button",
                }
            )
            rewritten.append({**button, "buttons": items, "tooltip": _("Download this page")})
        elif label == "launch-buttons":
            if not names:
                continue
            # The theme points at <path_to_docs>/<page><source suffix>: the MyST source.
            folder = app.config.html_theme_options["path_to_docs"]
            source = f"/{folder}/{pagename}{Path(app.env.doc2path(pagename)).suffix}"
            launch = []
            for item in button["buttons"]:
                if source not in item["url"]:
                    raise ExtensionError(
                        f"{pagename}: launch URL {item['url']} is not for {source}"
                    )
                url = item["url"].replace(source, "/" + launch_notebook_path(folder, pagename))
                launch.append(
                    {
                        **item,
                        "url": url,
                        "tooltip": _("Open this page's notebook in %s") % item["text"],
                    }
                )
            rewritten.append({**button, "buttons": launch, "tooltip": _("Run this page's code")})
        elif label == "fullscreen-button":
            rewritten.append({**button, "tooltip": _("Full screen")})
        else:
            rewritten.append(button)
    context["header_buttons"] = rewritten


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    app.add_directive("snippet-index", SnippetIndex)
    app.add_role("book", book_role)
    app.add_role("kit", kit_role)
    app.add_role("teacher-book", book_role)
    app.connect("build-finished", write_downloads)
    # After exercises.py's files (600): the kit packs them.
    app.connect("build-finished", write_kit_files, priority=700)
    app.connect("html-page-context", attribution_context)
    # After sphinx-book-theme has made its buttons (priority 501).
    app.connect("html-page-context", header_buttons, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
