"""The upstream ledger (docs/dev/upstream.md): every patch of a dependency, and a test for each
that fails on the day the patch is no longer needed.

Each `test_upstream_*` test below runs the library as it is, without the site's patch, and
asserts that the problem the patch works around is still there. When one fails, upstream fixed
it: its message names the patch to remove, and the ledger entry goes with it.

The ledger and the code are kept together: every patch site in whatcopy/ carries a comment
``# upstream: <entry>`` naming its ledger entry (found by the scan below: an assignment to an
attribute of an imported third-party module or class, a node visitor registered with
``override=True``, a private name imported from a dependency), and every entry of the ledger is
named at its site and has its test here.
"""

from __future__ import annotations

import ast
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest
from project import ROOT

LEDGER = ROOT / "docs" / "dev" / "upstream.md"
PACKAGE = ROOT / "whatcopy"
MARKER = re.compile(r"#\s*upstream:\s*([a-z0-9-]+)")
ENTRY = re.compile(r"^### `([a-z0-9-]+)`", re.MULTILINE)


def fixed(what: str, where: str) -> str:
    return f"upstream fixed {what}: remove the patch in {where} and its ledger entry"


# ---------------------------------------------------------------------------------------------
# The ledger and the patch sites agree


def ledger_entries() -> dict[str, str]:
    """Ledger entry -> its text (up to the next entry)."""
    text = LEDGER.read_text(encoding="utf-8")
    found = list(ENTRY.finditer(text))
    return {
        match.group(1): text[match.end() : found[i + 1].start() if i + 1 < len(found) else None]
        for i, match in enumerate(found)
    }


def markers() -> dict[str, list[str]]:
    """Ledger entry -> the places (file:line) whose comment names it."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in MARKER.findall(line):
                found.setdefault(name, []).append(f"{path.relative_to(ROOT)}:{number}")
    return found


def _third_party(module: str) -> bool:
    top = module.split(".")[0]
    return bool(top) and top != "whatcopy" and top not in sys.stdlib_module_names


def patch_sites(path: Path) -> list[tuple[int, str, str]]:
    """(line, enclosing function, what) of each patch of a dependency in a module of ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()  # names bound to third-party modules or their members
    sites = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {
                a.asname or a.name.split(".")[0] for a in node.names if _third_party(a.name)
            }
        elif isinstance(node, ast.ImportFrom) and node.module and _third_party(node.module):
            imported |= {a.asname or a.name for a in node.names}
            for alias in node.names:
                if alias.name.startswith("_"):
                    sites.append((node.lineno, f"imports the private {node.module}.{alias.name}"))

    def root(target: ast.expr) -> str | None:
        while isinstance(target, ast.Attribute):
            target = target.value
        return target.id if isinstance(target, ast.Name) else None

    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and root(target) in imported:
                    sites.append((node.lineno, f"assigns {ast.unparse(target)}"))
        elif isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if any(k.arg == "override" for k in node.keywords):
                sites.append((node.lineno, f"{name}(..., override=...)"))
            if name == "setattr" and node.args and root(node.args[0]) in imported:
                sites.append((node.lineno, f"setattr({ast.unparse(node.args[0])}, ...)"))
    functions = [
        (f.lineno, f.end_lineno, f.name)
        for f in ast.walk(tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    result = []
    for line, what in sites:
        around = [(end - start, name) for start, end, name in functions if start <= line <= end]
        result.append((line, min(around)[1] if around else "<module>", what))
    return result


def test_every_patch_of_a_dependency_names_its_ledger_entry():
    """A patch site (found by the scan) carries ``# upstream: <entry>`` within its function
    (or, at module level, in the three lines above it)."""
    unmarked = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        spans = {
            f.name: (f.lineno, f.end_lineno)
            for f in ast.walk(tree)
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        rel = path.relative_to(ROOT).as_posix()
        for line, function, what in patch_sites(path):
            start, end = spans.get(function, (max(1, line - 3), line))
            if not any(MARKER.search(text) for text in lines[start - 1 : end]):
                unmarked.append(f"{rel}:{line} ({function}) {what}")
    assert not unmarked, (
        "patches of a dependency without an `# upstream: <entry>` comment: add the comment and "
        "an entry to docs/dev/upstream.md (with its test in tests/test_upstream.py):\n"
        + "\n".join(unmarked)
    )


def test_the_ledger_lists_exactly_the_patches_marked_in_the_code():
    entries = ledger_entries()
    found = markers()
    not_in_ledger = {name: places for name, places in found.items() if name not in entries}
    assert not not_in_ledger, f"{LEDGER}: no entry for the markers {not_in_ledger}"
    not_in_code = sorted(set(entries) - set(found))
    assert not not_in_code, (
        f"{LEDGER}: entries whose patch no code marks any more (remove the entry, and its test "
        f"in {__file__}): {not_in_code}"
    )


def test_each_ledger_entry_names_its_place_version_upstream_and_test():
    tests = {name for name in globals() if name.startswith("test_upstream_")}
    named = set()
    problems = []
    for name, text in ledger_entries().items():
        places = re.findall(r"\*\*Where:\*\* `([^`:]+):(\w+)`", text)
        if not places:
            problems.append(f"{name}: no **Where:** `file:function`")
        for file, function in places:
            source = ROOT / file
            if not source.is_file() or not re.search(rf"def {function}\b", source.read_text()):
                problems.append(f"{name}: {file} has no function {function}")
        pins = re.findall(r"\*\*Pinned:\*\* ([\w.-]+)==([\w.+-]+)", text)
        locked = (ROOT / "requirements" / "constraints.txt").read_text(encoding="utf-8").lower()
        if not pins:
            problems.append(f"{name}: no **Pinned:** name==version")
        problems += [
            f"{name}: {lib}=={version} is not the lock's (requirements/constraints.txt)"
            for lib, version in pins
            if f"\n{lib.lower()}=={version.lower()}\n" not in "\n" + locked
        ]
        if not re.search(r"\*\*Upstream:\*\* (https://github\.com/\S+|none yet)", text):
            problems.append(f"{name}: no **Upstream:** link, or `none yet` with the report")
        if "**Upstream:** none yet" in text and "> " not in text:
            problems.append(f"{name}: `none yet` without the text of the report (a > quote)")
        test = re.search(r"\*\*Test:\*\* `tests/test_upstream.py::(\w+)`", text)
        if not test or test.group(1) not in tests:
            problems.append(f"{name}: no **Test:** naming a test_upstream_* test of this file")
        else:
            named.add(test.group(1))
    problems += [f"{test}: no ledger entry names it" for test in sorted(tests - named)]
    assert not problems, f"{LEDGER}:\n" + "\n".join(problems)


def test_the_patch_scan_finds_each_kind_of_patch(tmp_path):
    """The scan above can fail: each kind of patch is found in a module that has one."""
    module = tmp_path / "patched.py"
    module.write_text(
        "import myst_nb.core.render\n"
        "from nbclient import NotebookClient\n"
        "from sphinx.builders.html._assets import _JavaScript\n"
        "import os\n"
        "def setup(app):\n"
        "    myst_nb.core.render.coalesce_streams = len\n"
        "    NotebookClient.shutdown_kernel.default_value = 'immediate'\n"
        "    setattr(NotebookClient, 'x', 1)\n"
        "    app.add_node(object, override=True)\n"
        "    os.environ = {}\n",
        encoding="utf-8",
    )
    found = [what.split()[0] for _, _, what in patch_sites(module)]
    assert sorted(found) == sorted(
        ["imports", "assigns", "assigns", "setattr(NotebookClient,", "app.add_node(...,"]
    ), found


# ---------------------------------------------------------------------------------------------
# One test per ledger entry: the library without the patch still has the problem


def test_upstream_myst_nb_load_code_raises_without_a_line(tmp_path):
    from myst_nb.core import read

    text = "# A page\n\n```{code-cell} python3\n:load: missing.py\n```\n"
    with pytest.raises(Exception) as raised:
        read.read_myst_markdown_notebook(text, add_source_map=True, path=tmp_path / "page.md")
    assert type(raised.value).__name__ == "_LoadFileParsingError", fixed(
        "a :load: that cannot be read (no longer _LoadFileParsingError)",
        "whatcopy/content/pages.py (_read, _load_tolerantly)",
    )
    assert "line" not in str(raised.value) and ":4" not in str(raised.value), fixed(
        "the :load: error now names its line", "whatcopy/content/pages.py (_read)"
    )


def test_upstream_nbformat_validates_every_cell_myst_nb_reads(tmp_path, monkeypatch):
    from myst_nb.core import read
    from nbformat.v4 import nbbase

    checked = []
    monkeypatch.setattr(nbbase, "validate", lambda node, ref=None: checked.append(ref))
    cells = "".join(f"```{{code-cell}} python3\nprint({n})\n```\n\n" for n in range(3))
    read.read_myst_markdown_notebook("# A page\n\n" + cells, path=tmp_path / "page.md")
    assert checked.count("code_cell") == 3, fixed(
        f"reading a page no longer checks each cell against the schema ({checked})",
        "whatcopy/content/pages.py (_read: _not_validated)",
    )


def _hidden_cell_html() -> str:
    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput

    class Writer:
        def __init__(self) -> None:
            self.body: list[str] = []

    writer = Writer()
    node = HideCodeCellNode(prompt_show="Show code", prompt_hide="Hide code", classes=["x"])
    visit_HideCellInput(writer, node)
    depart_HideCellInput(writer, node)
    return "".join(writer.body)


def test_upstream_myst_nb_hidden_cell_summary_holds_paragraphs():
    html = _hidden_cell_html()
    summary = re.search(r"<summary[^>]*>(.*?)</summary>", html, re.DOTALL)
    assert summary and "<p" in summary.group(1), fixed(
        f"a folded cell's <summary> holds no <p> any more: {html!r}",
        "whatcopy/sphinxext/valid_html.py (setup, phrasing_summary)",
    )


def test_upstream_myst_nb_hidden_cell_label_is_not_translated(monkeypatch):
    """myst-nb writes the folded cell's aria-label in English whatever the language: with
    every one of Sphinx's catalogs translating everything, the label is still English."""
    import gettext

    from sphinx import locale

    class Everything(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "译" + message

    monkeypatch.setattr(
        locale,
        "translators",
        {key: Everything() for key in [*locale.translators, ("sphinx", "sphinx")]},
    )
    assert 'aria-label="Toggle hidden content"' in _hidden_cell_html(), fixed(
        "the folded cell's aria-label is translated (or changed)",
        "whatcopy/sphinxext/site_languages.py (translate_hidden_cell_label)",
    )


def test_upstream_opengraph_puts_spaces_into_chinese_text():
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document
    from sphinxext.opengraph._description_parser import get_description

    document = new_document("page", get_default_settings(Parser))
    document += nodes.paragraph(
        "", "", nodes.Text("返回一个"), nodes.strong("", "新的张量对象"), nodes.Text("，它")
    )
    description = get_description(document, 200)
    assert description != "返回一个新的张量对象，它", fixed(
        "sphinxext-opengraph keeps Chinese text as written",
        "whatcopy/sphinxext/lean_theme.py (chinese_description)",
    )


def test_upstream_myst_nb_reads_outputs_only_from_its_own_clients():
    """myst-nb's parser gets a page's outputs from `create_client`, chosen by the execution mode
    among its own clients; no setting or event lets an extension hand it outputs (the site
    wraps create_client: snippet_runs.py)."""
    import inspect

    from myst_nb.core import execute
    from myst_nb.core.config import NbParserConfig
    from myst_nb.sphinx_ import Parser

    settings = [name for name in NbParserConfig.__dataclass_fields__ if "client" in name]
    source = inspect.getsource(execute.create_client)
    assert (
        "create_client" in Parser.parse.__code__.co_names
        and not settings
        and "entry_points" not in source
        and "import_object" not in source
    ), fixed(
        f"myst-nb takes an execution client of an extension's (settings: {settings})",
        "whatcopy/sphinxext/snippet_runs.py (setup: create_client)",
    )


def test_upstream_myst_nb_output_folder_is_not_a_setting():
    from myst_nb.core.config import NbParserConfig

    field = NbParserConfig.__dataclass_fields__["output_folder"]
    assert field.metadata.get("sphinx_exclude"), fixed(
        "myst-nb's output folder is a Sphinx setting (nb_output_folder)",
        "whatcopy/sphinxext/snippet_cells.py (separate_output_folders)",
    )


def test_upstream_myst_nb_copies_its_stylesheet_only_when_the_build_ends(tmp_path):
    from sphinx.testing.util import SphinxTestApp

    (tmp_path / "conf.py").write_text('extensions = ["myst_nb"]\n', encoding="utf-8")
    (tmp_path / "index.md").write_text("# Page\n", encoding="utf-8")
    app = SphinxTestApp("html", srcdir=tmp_path)
    try:
        handlers = {
            event: {listener.handler.__name__ for listener in listeners}
            for event, listeners in app.events.listeners.items()
        }
    finally:
        app.cleanup()
    assert "add_global_html_resources" in handlers.get("build-finished", set()), fixed(
        "myst-nb copies its stylesheet before the pages are written",
        "whatcopy/sphinxext/build_guards.py (stylesheet_first)",
    )


def test_upstream_sphinx_has_no_setting_for_the_html_formatter():
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.registry import SphinxComponentRegistry

    settings = [name for name in Config.config_values if "formatter" in name]
    hooks = [name for name in dir(SphinxComponentRegistry) if "formatter" in name]
    hooks += [name for name in dir(Sphinx) if "formatter" in name]
    assert not settings and not hooks, fixed(
        f"Sphinx lets a project choose its HTML formatter ({settings + hooks})",
        "whatcopy/sphinxext/lean_code.py (setup: PygmentsBridge.html_formatter)",
    )


def test_upstream_a11y_pygments_configures_logging_when_imported():
    report = "import logging; r = logging.getLogger(); print(len(r.handlers), r.level)"
    out = subprocess.run(
        [sys.executable, "-c", "import a11y_pygments; " + report],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["1", str(logging.INFO)], fixed(
        f"importing a11y_pygments leaves logging alone (handlers, level: {out})",
        "whatcopy/sphinxext/lean_code.py (styles_named)",
    )


def test_upstream_sphinx_always_builds_its_search_index():
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.config import Config

    # the search settings Sphinx 8.2 has: none leaves the index out
    known = {"html_search_language", "html_search_options", "html_search_scorer"}
    settings = sorted(name for name in Config.config_values if "search" in name)
    assert StandaloneHTMLBuilder.search is True and set(settings) <= known, fixed(
        f"Sphinx can leave out its search index ({settings})",
        "whatcopy/sphinxext/site_search.py (no_sphinx_index)",
    )


def test_upstream_sphinx_scripts_cannot_be_deferred_publicly():
    """A script Sphinx lists for a page is a private, frozen _JavaScript: deferring one means
    making another of that private class."""
    from sphinx.builders.html import _assets

    script = _assets._JavaScript("x.js", priority=500)
    with pytest.raises(AttributeError):
        script.attributes = {"defer": "defer"}
    public = [name for name in dir(_assets) if "javascript" in name.lower() and name[0] != "_"]
    assert not public, fixed(
        f"Sphinx's script class is public ({public})",
        "whatcopy/sphinxext/lean_theme.py (defer_scripts)",
    )
