"""The built site, read as files: self-contained, in the right language, every link sound."""

from __future__ import annotations

import ast
import functools
import gettext
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pydata_sphinx_theme
import pytest
import sphinx
import sphinx_book_theme
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from jinja2.ext import babel_extract
from project import DOCS, HTML, LANGUAGES, all_pages, parsed_html

import whatcopy.sphinxext
from whatcopy.sphinxext.site_languages import HARDCODED_LABELS, HIDDEN_CELL_LABEL

pytestmark = pytest.mark.usefixtures("built_site")  # every test here reads the built site

HTML_FILES = sorted(HTML.rglob("*.html"))
HAN = re.compile(r"[\u4e00-\u9fff]")
# Elements whose URL attribute makes the browser fetch something.
FETCHING = {
    "script": "src",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "audio": "src",
    "video": "src",
    "embed": "src",
    "track": "src",
    "object": "data",
}
LOADING_LINK_RELS = {
    "stylesheet",
    "preload",
    "prefetch",
    "modulepreload",
    "icon",
    "manifest",
    "apple-touch-icon",
    "dns-prefetch",
    "preconnect",
}


def soup(path: Path) -> BeautifulSoup:
    return parsed_html(path)


@functools.cache
def anchors(path: Path) -> frozenset[str]:
    """The ids in a page, parsed once however many links point into it."""
    return frozenset(tag["id"] for tag in soup(path).find_all(id=True))


def is_foreign(url: str) -> bool:
    return bool(urlsplit(url).netloc) or url.startswith("//")


@pytest.mark.parametrize("path", HTML_FILES, ids=lambda p: str(p.relative_to(HTML)))
def test_no_page_loads_anything_from_another_host(path):
    problems = []
    page = soup(path)
    for tag, attribute in FETCHING.items():
        for element in page.find_all(tag):
            url = element.get(attribute, "")
            if is_foreign(url):
                problems.append(f"<{tag} {attribute}={url}>")
    for link in page.find_all("link"):
        rels = set(link.get("rel", []))
        if rels & LOADING_LINK_RELS and is_foreign(link.get("href", "")):
            problems.append(f"<link rel={' '.join(rels)} href={link['href']}>")
    for style in page.find_all(style=True):
        problems += re.findall(r"url\((['\"]?(?:https?:)?//[^)]*)\)", style["style"])
    assert not problems, f"{path.relative_to(HTML)} loads from other hosts: {problems}"


def test_no_stylesheet_loads_anything_from_another_host():
    problems = []
    for css in HTML.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        for url in re.findall(r"(?:url\(|@import\s+)['\"]?((?:https?:)?//[^'\")\s]+)", text):
            problems.append(f"{css.relative_to(HTML)}: {url}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_html_lang_is_the_page_language(language):
    folder, lang = LANGUAGES[language]
    wrong = [p.name for p in (HTML / folder).rglob("*.html") if soup(p).html.get("lang") != lang]
    assert not wrong, f'pages in {folder}/ without <html lang="{lang}">: {wrong}'


EXTENSIONS = Path(whatcopy.sphinxext.__file__).parent
EXTENSION_CATALOG = DOCS / "locale/zh_CN/LC_MESSAGES/whatcopy.po"
THEMES = [Path(pydata_sphinx_theme.__file__).parent, Path(sphinx_book_theme.__file__).parent]
# sphinx-book-theme's button macros, imported only by its article-header-buttons.html, which the
# site replaces with docs/_templates/site-header-buttons.html (no inline onclick handlers).
NOT_RENDERED = {"macros/buttons.html", "components/article-header-buttons.html"}


def theme_strings() -> dict[str, set[str]]:
    """Every string the themes (pydata-sphinx-theme and sphinx-book-theme) and our own
    templates pass through gettext, by catalog: ``_()`` goes to Sphinx's catalog (where
    docs/locale/ adds ours), sphinx-book-theme's ``translate()`` to its own; plus the labels
    the themes hard-code in English, which site_languages.py makes translatable, and the
    header-button labels course_kit.py passes through gettext."""
    strings: dict[str, set[str]] = {
        "sphinx": set(HARDCODED_LABELS) | {HIDDEN_CELL_LABEL},
        "booktheme": set(),
    }
    folders = [theme / "theme" for theme in THEMES] + [DOCS / "_templates"]
    for template in (t for folder in folders for t in sorted(folder.rglob("*.html"))):
        if any(template.as_posix().endswith(name) for name in NOT_RENDERED):
            continue
        for catalog, keywords in (("sphinx", ["_", "gettext"]), ("booktheme", ["translate"])):
            with template.open("rb") as handle:
                for _, _, message, _ in babel_extract(handle, keywords, [], {}):
                    if isinstance(message, str):
                        strings[catalog].add(message)
    extensions = EXTENSIONS
    for module in ("course_kit.py", "lean_theme.py"):
        source = (extensions / module).read_text(encoding="utf-8")
        strings["sphinx"] |= set(re.findall(r"\b_\(\"([^\"]+)\"\)", source))
    return strings


def catalogs() -> dict[str, list]:
    """The Simplified Chinese catalogs the build uses, for each gettext domain."""
    sphinx_dir = Path(sphinx.__file__).parent / "locale"
    return {
        "sphinx": [
            gettext.translation("sphinx", str(sphinx_dir), languages=["zh_CN"]),
            gettext.translation("sphinx", str(THEMES[0] / "locale"), languages=["zh_CN"]),
        ],
        "booktheme": [
            gettext.translation(
                "booktheme",
                str(THEMES[1] / "theme/sphinx_book_theme/static/locales"),
                languages=["zh_CN"],
            )
        ],
    }


def test_every_theme_string_has_a_simplified_chinese_translation():
    with (DOCS / "locale/zh_CN/LC_MESSAGES/sphinx.po").open("rb") as handle:
        ours = {m.id: m.string for m in read_po(handle) if m.id}
    theirs = catalogs()
    missing = []
    for catalog, strings in theme_strings().items():
        for string in sorted(strings):
            translated = (catalog == "sphinx" and ours.get(string)) or any(
                t.gettext(string) != string for t in theirs[catalog]
            )
            if not translated:
                missing.append(f"{catalog}: {string!r}")
    assert not missing, (
        "theme strings with no Simplified Chinese translation; add them to "
        "docs/locale/zh_CN/LC_MESSAGES/sphinx.po:\n" + "\n".join(missing)
    )


Key = tuple[str | None, str]  # (msgctxt or None, msgid)


def marked_messages(source: str, where: str) -> dict[Key, str]:
    """The strings a module marks for the extensions' catalog (whatcopy.sphinxext.messages):
    each literal passed to ``N_()``, each (context, literal) passed to ``NP_()``, and each
    literal passed to ``_()`` where the module takes ``_`` from there (not in a function that
    binds its own ``_``, such as Sphinx's catalog), as (context, message) -> file:line."""
    tree = ast.parse(source)
    imports_ours = any(
        isinstance(node, ast.ImportFrom)
        and node.module == "whatcopy.sphinxext.messages"
        and any(alias.name == "_" for alias in node.names)
        for node in tree.body
    )
    rebinding = set()
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            isinstance(target, ast.Name) and target.id == "_"
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            for target in node.targets
        ):
            rebinding |= {id(node) for node in ast.walk(function)}

    def literal(node: ast.AST) -> str | None:
        return (
            node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
        )

    found = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        name, args = node.func.id, node.args
        key: Key | None = None
        if name == "N_" or (name == "_" and imports_ours and id(node) not in rebinding):
            if args and literal(args[0]) is not None:
                key = (None, literal(args[0]))
        elif name == "NP_" and len(args) == 2:
            context, message = args[0], args[1]
            if isinstance(context, ast.Name):  # a module constant such as CONTEXT = "..."
                context = next(
                    (
                        assign.value
                        for assign in tree.body
                        if isinstance(assign, ast.Assign)
                        and any(getattr(t, "id", None) == context.id for t in assign.targets)
                    ),
                    context,
                )
            assert literal(context) is not None, (
                f"{where}:{node.lineno}: NP_ needs a literal context"
            )
            if literal(message) is not None:
                key = (literal(context), literal(message))
        if key is not None:
            found.setdefault(key, f"{where}:{node.lineno}")
    return found


def extension_messages() -> dict[Key, str]:
    """Every string the extensions in whatcopy/sphinxext/ (and the root pages,
    whatcopy/site/root_pages.py, and the PDF book's cover, whatcopy/site/book.py) mark for their
    catalog."""
    found = {}
    others = [EXTENSIONS.parent / "site" / "root_pages.py", EXTENSIONS.parent / "site" / "book.py"]
    for module in [*sorted(EXTENSIONS.glob("*.py")), *others]:
        where = module.relative_to(EXTENSIONS.parents[1]).as_posix()
        for message, line in marked_messages(module.read_text(encoding="utf-8"), where).items():
            found.setdefault(message, line)
    return found


def untranslated(messages: dict[Key, str], catalog: Path) -> list[str]:
    """The messages with no non-empty Chinese in the catalog (under their context, if they have
    one), each with where it is marked."""
    with catalog.open("rb") as handle:
        translations = {(m.context, m.id): m.string for m in read_po(handle) if m.id}
    return [
        f"{where}: {message!r}" + (f" (msgctxt {context!r})" if context else "")
        for (context, message), where in sorted(messages.items(), key=str)
        if not translations.get((context, message))
    ]


def test_every_extension_string_has_a_simplified_chinese_translation():
    """The extensions' labels, notes and titles go through the same mechanism as the theme's:
    a gettext catalog, complete for Chinese."""
    missing = untranslated(extension_messages(), EXTENSION_CATALOG)
    assert not missing, (
        "extension strings with no Simplified Chinese translation; add them to "
        f"{EXTENSION_CATALOG.relative_to(DOCS.parent)}:\n" + "\n".join(missing)
    )


def test_the_extension_string_check_sees_the_extensions_and_fails_on_a_missing_one(tmp_path):
    """The extraction finds the strings each extension marks, with their context where they
    have one, and an unknown one is reported with its file and line (so the check above cannot
    pass on nothing)."""
    messages = extension_messages()
    for expected, module in (
        ((None, "Snippet: "), "snippet_cells"),
        ((None, "Verified on CUDA"), "device_prose"),
        ((None, "Exercise {n}."), "exercises"),
        ((None, "Claim"), "course_kit"),
        (("seed ledger", "Claim"), "seed_ledger"),
        ((None, "Printed output"), "output_figures"),
    ):
        assert messages.get(expected, "").startswith(f"whatcopy/sphinxext/{module}.py:"), expected
    assert messages.get((None, "Page not found"), "").startswith("whatcopy/site/root_pages.py:")
    source = (
        "from whatcopy.sphinxext.messages import N_, NP_, _\n"
        "LABEL = N_('Snippet: ')\n"
        "def shown():\n"
        "    return _('A label nobody translated')\n"
        "def theirs():\n"
        "    _ = str\n"
        "    return _('Not ours: Sphinx catalog')\n"
        "WORD = NP_('kit', 'Claim')\n"
    )
    marked = marked_messages(source, "example.py")
    assert marked == {
        (None, "Snippet: "): "example.py:2",
        (None, "A label nobody translated"): "example.py:4",
        ("kit", "Claim"): "example.py:8",
    }
    assert sorted(untranslated(marked, EXTENSION_CATALOG)) == [
        "example.py:4: 'A label nobody translated'",
        "example.py:8: 'Claim' (msgctxt 'kit')",
    ]
    empty = tmp_path / "whatcopy.po"
    empty.write_text('msgid "Snippet: "\nmsgstr ""\n', encoding="utf-8")
    assert untranslated({(None, "Snippet: "): "example.py:2"}, empty) == [
        "example.py:2: 'Snippet: '"
    ]


def test_the_replaced_header_buttons_are_not_rendered():
    """NOT_RENDERED above is true: the pages use the site's header buttons, not the theme's."""
    page = soup(HTML / LANGUAGES["en"][0] / "index.html")
    assert len(page.select(".article-header-buttons")) == 1
    assert page.select_one(".article-header-buttons .language-switch") is not None
    assert not page.select("[onclick]"), "an inline onclick handler: the theme's buttons are back"


def test_the_theme_string_check_sees_the_themes_and_our_labels():
    """The extraction above must find the strings it checks, or it would pass on nothing."""
    strings = theme_strings()
    for expected in (
        "Skip to main content",
        "Color mode",
        "Languages",
        "Toggle primary sidebar",
        "This page as a notebook, with its outputs",
    ):
        assert expected in strings["sphinx"], expected
    assert "By" in strings["booktheme"]


@pytest.mark.parametrize(
    "path", sorted((HTML / LANGUAGES["zh"][0]).rglob("*.html")), ids=lambda p: p.name
)
def test_chinese_pages_label_their_controls_in_chinese(path):
    """Screen-reader labels, placeholders and tooltips of the interface are Chinese too."""
    english = []
    for element in soup(path).find_all(attrs={"aria-label": True}):
        if not HAN.search(element["aria-label"]):
            english.append(f"aria-label={element['aria-label']!r}")
    for attribute in ("placeholder", "title"):
        for element in soup(path).find_all(attrs={attribute: True}):
            if element.name != "link" and not HAN.search(element[attribute]):
                english.append(f"{attribute}={element[attribute]!r}")
    assert not english, f"zh-cn/{path.name} has English interface labels: {english}"


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_language_switcher_links_to_the_same_page_in_the_other_language(page):
    links = soup(page.html).select(".language-switch a[hreflang]")
    assert len(links) == len(LANGUAGES) - 1, f"{page.html}: no language switcher"
    for link in links:
        target = (page.html.parent / link["href"]).resolve()
        twin_folder = next(f for f, lang in LANGUAGES.values() if lang == link["hreflang"])
        assert target == (HTML / twin_folder / f"{page.docname}.html").resolve(), link
        assert target.exists(), f"{page.html} switches to missing {target}"


def test_the_root_page_offers_both_languages():
    root = soup(HTML / "index.html")
    hrefs = {a["href"] for a in root.find_all("a")}
    assert hrefs == {"en/index.html", "zh-cn/index.html"}, hrefs


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_every_cell_says_where_its_output_was_verified(page):
    from importlib.metadata import version

    cells = soup(page.html).select("div.cell")
    assert len(cells) == len(page.cells())
    for cell in cells:
        meta = cell.select_one(".snippet-meta")
        assert meta is not None, f"{page.html}: a cell without provenance"
        text = meta.get_text(" ")
        assert f"torch {version('torch')}" in text and "CPU" in text and "CUDA" in text, text


# A MyST role's source, {name}`text`, as a page would show it where the role was not parsed.
ROLE_SOURCE = re.compile(r"\{[a-z-]+\}`[^`]")


def unparsed_roles(tree) -> list[str]:
    """The role sources a parsed page shows outside code (where the claims page quotes the
    syntax), each with some text around it."""
    article = tree.select_one("article") or tree
    text = " ".join(
        piece
        for piece in article.find_all(string=True)
        if not piece.find_parent(["pre", "code", "script", "style"])
    )
    return [text[max(m.start() - 40, 0) : m.end() + 40] for m in ROLE_SOURCE.finditer(text)]


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_no_page_shows_the_source_of_a_role(page):
    """A role that the parser did not read (cut by a table's |, a stray backtick) shows as its
    source, {claim}`...`, and is not checked; the cheat sheet showed three (tests/test_pages.py)."""
    found = unparsed_roles(soup(page.html))
    assert not found, f"{page.html}: {found}"


def test_the_role_source_check_sees_a_cut_role():
    shown = (
        "<article><p>see {claim}`x.y</p><td>except z` here</td><code>{out}`a:b`</code></article>"
    )
    found = unparsed_roles(BeautifulSoup(shown, "html.parser"))
    assert [" ".join(f.split()) for f in found] == ["see {claim}`x.y except z` here"]


@pytest.mark.parametrize("path", HTML_FILES, ids=lambda p: str(p.relative_to(HTML)))
def test_every_internal_link_and_anchor_resolves(path):
    problems = []
    for link in soup(path).find_all("a", href=True):
        href = link["href"]
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
            continue
        target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            problems.append(f"{href}: no such file")
        elif parts.fragment and target.suffix == ".html" and parts.fragment not in anchors(target):
            problems.append(f"{href}: no #{parts.fragment} in {target.name}")
    assert not problems, f"{path.relative_to(HTML)}: " + "; ".join(problems)


# ---------------------------------------------------------------------------------------------
# Launch and download buttons (sphinx-book-theme's, pointed at course_kit.py's notebooks)

COLAB = re.compile(r"^https://colab\.research\.google\.com/github/([^/]+/[^/]+)/blob/([^/]+)/(.+)$")
BINDER = re.compile(r"^https://mybinder\.org/v2/gh/([^/]+/[^/]+)/([^/?]+)\?urlpath=lab/tree/(.+)$")


def squeeze(text: str) -> str:
    return " ".join(text.split())


def site_configuration():
    from whatcopy.sphinxext import site_conf

    return site_conf


def built_notebook(path_on_branch: str) -> Path:
    """The built file that the deploy workflow publishes at this path of the notebooks branch
    (<language folder>/<page>.ipynb, from <language folder>/downloads/notebooks/)."""
    from whatcopy.sphinxext.course_kit import download_path

    folder, _, docname = path_on_branch.partition("/")
    return HTML / folder / download_path("notebook", docname.removesuffix(".ipynb"))


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_launch_buttons_open_the_executed_notebook_of_the_page(page):
    import json

    site_conf = site_configuration()
    NOTEBOOKS_BRANCH, REPOSITORY = site_conf.NOTEBOOKS_BRANCH, site_conf.REPOSITORY
    html = soup(page.html)
    links = [a["href"] for a in html.select(".article-header-buttons a[href]")]
    colab = [m for m in map(COLAB.match, links) if m]
    binder = [m for m in map(BINDER.match, links) if m]
    if not page.cells():
        assert not colab and not binder, f"{page.html}: launch buttons on a page without code"
        return
    assert len(colab) == 1 and len(binder) == 1, f"{page.html}: Colab and Binder links: {links}"
    folder = LANGUAGES[page.language][0]
    for match in colab + binder:
        repository, branch, path = match.groups()
        assert (repository, branch) == (REPOSITORY, NOTEBOOKS_BRANCH), match.group(0)
        assert path == f"{folder}/{page.docname}.ipynb", match.group(0)
    notebook_path = built_notebook(colab[0].group(3))
    assert notebook_path.exists(), f"{page.html}: Colab opens {colab[0].group(3)}, not built"
    notebook = json.loads(notebook_path.read_text(encoding="utf-8"))
    from whatcopy.sphinxext.course_kit import SETUP_TAG

    code = [  # but the cells that install what the notebook needs beyond torch
        cell
        for cell in notebook["cells"]
        if cell["cell_type"] == "code" and SETUP_TAG not in cell["metadata"].get("tags", [])
    ]
    cells = html.select("div.cell")
    assert len(code) == len(cells), (
        f"{notebook_path}: {len(code)} code cells, page has {len(cells)}"
    )
    for number, (cell, div) in enumerate(zip(code, cells), 1):
        where = f"{notebook_path.relative_to(HTML)} cell {number} vs {page.html.name}"
        assert squeeze(cell["source"]) == squeeze(div.select_one(".cell_input pre").get_text()), (
            where
        )
        shown = [squeeze(pre.get_text()) for pre in div.select(".cell_output pre")]
        for output in cell["outputs"]:
            if output["output_type"] == "stream":
                assert squeeze(output["text"]) in shown, f"{where}: output {output['text'][:80]!r}"
            else:
                assert any(output["ename"] in text for text in shown), f"{where}: {output['ename']}"
        if div.select("details.exercise-answer"):  # an exercise's output: its answer, not here
            assert not cell["outputs"], f"{where}: the exercise's answer is in the notebook"
            continue
        assert bool(cell["outputs"]) == bool(div.select(".cell_output")), f"{where}: outputs"


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_the_download_menu_offers_the_notebook_the_snippets_and_the_book(page):
    """Every page's menu offers the language's PDF books, the students' and the teachers'
    editions (whatcopy/site/book.py), and printing; a page with code, its notebook and each of
    its snippets."""
    from whatcopy.sphinxext.course_kit import EDITIONS, book_name

    menu = soup(page.html).select_one(".dropdown-download-buttons")
    assert menu is not None, f"{page.html}: no download menu"
    offered = {(page.html.parent / a["href"]).resolve() for a in menu.select("a[download][href]")}
    assert menu.select("[data-site-action='window.print()']"), f"{page.html}: no print button"
    folder = HTML / LANGUAGES[page.language][0]
    books = {(folder / book_name(LANGUAGES[page.language][0], e)).resolve() for e in EDITIONS}
    if not page.cells():
        assert offered == books, f"{page.html}: offers {sorted(offered)}"
        return
    from whatcopy.sphinxext.course_kit import download_path

    expected = {*books, (folder / "downloads" / "notebooks" / f"{page.docname}.ipynb").resolve()}
    expected |= {(folder / download_path("py", cell.snippet)).resolve() for cell in page.cells()}
    assert offered == expected, f"{page.html}: offers {sorted(offered)}"
    for path in offered:
        assert path.exists(), f"{page.html}: offers missing {path}"


# ---------------------------------------------------------------------------------------------
# Locked down and previewed well


def inline_script_hashes(page: BeautifulSoup) -> set[str]:
    import base64
    import hashlib

    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(s.string.encode()).digest()).decode() + "'"
        for s in page.find_all("script")
        if not s.get("src") and s.string
    }


@pytest.mark.parametrize("path", HTML_FILES, ids=lambda p: str(p.relative_to(HTML)))
def test_every_page_has_a_content_security_policy_that_allows_only_its_own_scripts(path):
    page = soup(path)
    meta = page.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert meta is not None, f"{path.relative_to(HTML)}: no Content-Security-Policy"
    first_script = page.head.find("script")
    assert (
        first_script is None
        or meta.sourceline < first_script.sourceline
        or (meta.sourceline == first_script.sourceline and meta.sourcepos < first_script.sourcepos)
    ), f"{path.relative_to(HTML)}: a script comes before the policy"
    directives = {
        part.split()[0]: part.split()[1:] for part in meta["content"].split(";") if part.strip()
    }
    assert directives.get("default-src") == ["'self'"], directives
    script_src = directives.get("script-src", [])
    assert "'self'" in script_src and not {"'unsafe-inline'", "'unsafe-eval'", "*"} & set(
        script_src
    )
    assert not [s for s in script_src if s.startswith(("http", "//", "data:", "blob:"))], script_src
    missing = inline_script_hashes(page) - set(script_src)
    assert not missing, f"{path.relative_to(HTML)}: inline scripts the policy would block"
    handlers = [
        f"<{e.name} {a}>" for e in page.find_all(True) for a in e.attrs if a.startswith("on")
    ]
    assert not handlers, f"{path.relative_to(HTML)}: inline event handlers {handlers}"


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_every_page_has_a_social_preview_without_images(page):
    html = soup(page.html)
    meta = {m.get("property") or m.get("name"): m.get("content") for m in html.find_all("meta")}
    locale = {"en": "en_US", "zh": "zh_CN"}[page.language]
    assert meta.get("og:locale") == locale, f"{page.html}: og:locale {meta.get('og:locale')}"
    title = html.select_one("article h1").get_text().replace("#", "").strip()
    assert meta.get("og:title") == title, (page.html, meta.get("og:title"))
    # (Twitter reads og:title and og:description where it finds no twitter: ones)
    for name in ("og:description", "description"):
        assert meta.get(name) and len(meta[name]) >= 20, f"{page.html}: {name} {meta.get(name)!r}"
    if page.language == "zh":
        assert HAN.search(meta["og:description"]), f"{page.html}: description not in Chinese"
    assert meta.get("twitter:card") == "summary", f"{page.html}: twitter:card"
    images = [k for k in meta if k and ("image" in k)]
    assert not images, f"{page.html}: {images}"


@pytest.mark.parametrize("name", ["genindex", "search"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_index_and_the_search_page_describe_themselves(language, name):
    """The pages Sphinx makes without a source have a description too (search engines show
    it; Lighthouse's SEO audit asks for it), in the page's language; the index's says that it
    lists the glossary's terms, so every entry links into the glossary."""
    path = HTML / LANGUAGES[language][0] / f"{name}.html"
    html = soup(path)
    described = [m.get("content", "") for m in html.find_all("meta", attrs={"name": "description"})]
    assert len(described) == 1 and len(described[0]) >= 20, f"{path}: description {described}"
    if language == "zh":
        assert HAN.search(described[0]), f"{path}: description not in Chinese: {described[0]}"
    if name == "genindex":
        targets = {a["href"].split("#")[0] for a in html.select("table.indextable a[href]")}
        assert targets == {"glossary.html"}, f"{path}: the index links to {targets}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_subset_icon_fonts_have_every_icon_the_pages_show(language):
    """lean_theme.py subsets Font Awesome to the icons in use; none may be left out."""
    from fontTools.ttLib import TTFont

    from whatcopy.sphinxext.lean_theme import ICON_CLASS, ICON_RULE, css_glyphs, theme_static

    folder = HTML / LANGUAGES[language][0]
    css = (theme_static() / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8")
    icons = {
        name.lstrip("."): int(code, 16)
        for names, code in ICON_RULE.findall(css)
        for name in names.split(",")
        if name
    }
    used = {
        name
        for page in folder.glob("*.html")
        for element in soup(page).find_all(class_=ICON_CLASS)
        for name in element["class"]
        if name in icons
    }
    assert {"fa-sun", "fa-moon", "fa-magnifying-glass", "fa-download"} <= used, used
    fonts = sorted((folder / "_static/vendor/fontawesome/webfonts").glob("*.woff2"))
    assert fonts, f"{folder}: no webfonts"
    covered = set()
    for font in fonts:
        assert font.stat().st_size < 10_000, f"{font}: {font.stat().st_size} bytes, not subset"
        covered |= set(TTFont(font).getBestCmap() or {})
    missing = sorted(name for name in used if icons[name] not in covered)
    assert not missing, f"{folder}: icons without a glyph in the subset fonts: {missing}"
    # ... nor the glyphs the stylesheet draws itself (admonitions, external links).
    drawn = css_glyphs(css)
    assert 0xF05A in drawn or any(0xE000 <= c <= 0xF8FF for c in drawn), (
        "no stylesheet glyphs found"
    )
    assert not sorted(hex(c) for c in drawn - covered), f"{folder}: stylesheet glyphs left out"


VNU = (
    Path(__file__).resolve().parents[1] / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
)
# The Nu checker's own control: a page it must find errors in (a space in a URL, a paragraph in
# a summary, an attribute twice), so a checker that checks nothing cannot pass the site.
INVALID = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>control</title>
<link rel="icon" href="data:image/svg+xml,<svg xmlns='x' viewBox='0 0 1 1'/>"></head>
<body><details><summary><p>Show</p></summary>x</details>
<p role="heading" aria-level="2" aria-level="2">twice</p></body></html>
"""


def nu_errors(paths: list[Path]) -> dict[str, list[str]]:
    """The Nu HTML checker's errors (warnings and notes left out), per file."""
    import json
    import shutil
    import subprocess

    java = shutil.which("java")
    assert java, "java is missing: run `bash .ci/install-system-packages` (default-jre-headless)"
    assert VNU.exists(), f"{VNU} is missing: run `npm ci` (vnu-jar is pinned in package-lock.json)"
    result = subprocess.run(
        # C1 only (-XX:TieredStopAtLevel=1): 5.5 CPU-s for the whole site instead of 9 to 12,
        # since a run this short never profits from the optimising compiler; the schema's
        # recursion needs a larger thread stack than the default.
        [java, "-Xss16m", "-XX:TieredStopAtLevel=1", "-jar", str(VNU)]
        + ["--errors-only", "--format", "json", *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    found: dict[str, list[str]] = {}
    for message in messages:
        where = unquote(urlsplit(message.get("url", "")).path)
        line = message.get("lastLine", "?")
        found.setdefault(where, []).append(f"{line}: {message['type']}: {message['message']}")
    return found


def test_every_page_is_valid_html(tmp_path):
    """The Nu HTML checker (vnu-jar, pinned in package-lock.json) finds no error in any page of
    either language, the root page or the 404 page, and does find the three it must in a
    control page (one run of the checker for all)."""
    control = tmp_path / "control.html"
    control.write_text(INVALID, encoding="utf-8")
    pages = [p for p in HTML_FILES if "_static" not in p.parts]
    assert {HTML / "index.html", HTML / "404.html"} <= set(pages), (
        "the root or 404 page is not checked"
    )
    found = nu_errors([control, *pages])
    caught = found.pop(str(control), [])
    assert len(caught) >= 3 and any("summary" in m for m in caught), caught
    assert any("aria-level" in m for m in caught) and any("Illegal character" in m for m in caught)
    assert not found, "\n".join(
        f"{Path(name).relative_to(HTML)}:{message}"
        for name, messages in sorted(found.items())
        for message in messages
    )


def test_with_the_site_address_known_hreflang_and_canonical_links_are_absolute():
    """With the site's address (site_url; the deploy sets SITE_URL), each language's html_baseurl is its folder there, which
    makes Sphinx write the canonical link, and the hreflang links are absolute (Lighthouse's
    SEO check refuses relative ones); without it, both stay as the local site needs them."""
    from types import SimpleNamespace

    from whatcopy.sphinxext import site_languages

    def links(site_url: str | None) -> tuple[str, list]:
        config = SimpleNamespace(
            language="en", html_theme_options={}, html_baseurl="", site_url=site_url or ""
        )
        site_languages.configure_language(SimpleNamespace(), config)
        context = {}
        site_languages.language_links(SimpleNamespace(config=config), "detach", "", context, None)
        return config.html_baseurl, context["site_languages"]

    base, published = links("https://example.org/what/")
    assert base == "https://example.org/what/en/"
    assert {link["absolute"] for link in published} == {
        "https://example.org/what/en/detach.html",
        "https://example.org/what/zh-cn/detach.html",
    }
    base, local = links(None)
    assert base == "" and all(link["absolute"] is None for link in local)
    assert {link["url"] for link in local} == {"../en/detach.html", "../zh-cn/detach.html"}
    layout = (DOCS / "_templates" / "layout.html").read_text(encoding="utf-8")
    assert 'hreflang="{{ lang.hreflang }}" href="{{ lang.absolute or lang.url }}"' in layout


# Highlighted code (whatcopy/sphinxext/lean_code.py): the token types drawn as plain text in
# the theme's two code styles are written without their spans.
def css_rules(css: str, prefix: str) -> dict[str, set[str]]:
    """`selector after prefix` -> its declarations, for the rules of pygments.css under
    `prefix` ("" for the code block's own rule)."""
    rules = {}
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        selector = selector.strip()
        if selector == prefix or selector.startswith(prefix + " "):
            declarations = {d.strip().replace(" ", "") for d in body.split(";") if d.strip()}
            rules[selector.removeprefix(prefix).strip()] = declarations
    return rules


@pytest.mark.parametrize("language", LANGUAGES)
def test_code_is_written_without_the_spans_that_change_nothing(language):
    """No code block written lean (every page with code has some) has a span of a token class
    that lean_code draws as plain text; every such class is drawn, by the site's pygments.css in
    light and in dark, exactly as the block's own text (the same colour, nothing else), and no
    other stylesheet of the site names it; the other classes keep their spans (operators,
    builtins, strings are coloured). The browser test checks the colour on screen."""
    from pygments.styles import get_style_by_name
    from pygments.token import STANDARD_TYPES

    from whatcopy.sphinxext.lean_code import drawn_as_text
    from whatcopy.sphinxext.site_conf import html_theme_options

    styles = tuple(
        get_style_by_name(html_theme_options[f"pygments_{mode}_style"])
        for mode in ("light", "dark")
    )
    plain = {cls for token, cls in STANDARD_TYPES.items() if cls and drawn_as_text(token, styles)}
    assert {"n", "p", "w"} <= plain, plain
    folder = HTML / LANGUAGES[language][0]
    css = (folder / "_static" / "pygments.css").read_text(encoding="utf-8")
    for mode in ("light", "dark"):
        prefix = f'html[data-theme="{mode}"] .highlight'
        rules = css_rules(css, prefix)
        text = rules[""] - {d for d in rules[""] if d.startswith("background")}
        for cls in plain:
            drawn = rules.get(f".{cls}", set())
            assert drawn <= text, f"{mode}: .{cls} is drawn {drawn}, the code's text {text}"
    # (a class alone in its compound selector: `.sig-param.n`, Sphinx's signatures, is not)
    alternatives = "|".join(sorted(plain))
    named = re.compile(rf"(?<![\w-])\.({alternatives})(?![\w-])")
    for sheet in folder.rglob("*.css"):
        if sheet.name != "pygments.css":
            found = named.findall(sheet.read_text(encoding="utf-8"))
            assert not found, f"{sheet} styles {set(found)}, which code no longer wraps"
    kept, dropped, without = set(), [], []
    for page in pages_of(language):
        html = parsed_html(page)
        if html.select(".cell_input") and not html.select(".cell_input .highlight.lean-code"):
            without.append(page.name)
        for span in html.select(".highlight.lean-code span[class]"):
            classes = set(span["class"])
            kept |= classes
            if classes & plain:
                dropped.append(f"{page.name}: <span class={' '.join(classes)}>{span.get_text()}")
    assert not without, f"pages whose code cells all kept every span: {without}"
    assert not dropped, "\n".join(dropped[:10])
    assert {"o", "nb", "s2", "mi"} <= kept, kept


def pages_of(language: str) -> list[Path]:
    return [p for p in (HTML / LANGUAGES[language][0]).glob("*.html")]


def test_reading_the_code_styles_leaves_logging_as_it_was():
    """The theme's a11y code styles configure Python's logging (INFO) when first imported;
    lean_code reads them without that, or the build would print every library's INFO lines.
    In a fresh interpreter each: the import alone adds a handler, lean_code's reading none."""
    import subprocess
    import sys

    from whatcopy.sphinxext.site_conf import html_theme_options

    names = [html_theme_options[f"pygments_{mode}_style"] for mode in ("light", "dark")]
    report = "import logging; r = logging.getLogger(); print(len(r.handlers), r.level)"
    runs = {
        "import": "import a11y_pygments; " + report,
        "lean_code": "from whatcopy.sphinxext.lean_code import styles_named; "
        f"styles_named({names!r}); " + report,
    }
    seen = {
        name: subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
        for name, code in runs.items()
    }
    assert seen["import"] == ["1", str(20)], seen  # the control: basicConfig(level=INFO)
    assert seen["lean_code"] == ["0", str(30)], seen  # no handler, WARNING as Python starts


# What the site draws from printed output (whatcopy/sphinxext/output_figures.py) in the page's
# language: a label is English prose when it holds a lowercase word of two letters or more
# outside code (a token with ., _, brackets, operators or digits is code, as are the programs'
# variable names below); on a Chinese page, such a label must hold Chinese.
CODE_NAMES = {"src", "dst", "is", "base", "row", "grid", "dtype", "stride", "calls"}


def english_prose(label: str) -> bool:
    for token in label.split():
        if re.search(r"[._()\[\]=*+<>/\d]", token):
            continue
        token = token.strip(",;:")
        if token.endswith("'s"):  # a possessive, even of a variable: src's
            return True
        if re.fullmatch(r"[a-z]{2,}", token) and token not in CODE_NAMES:
            return True
    return False


def drawn_labels(page: BeautifulSoup) -> list[str]:
    """The captions, headers and cells of the drawn tables, and the drawn diagrams' labels."""
    labels = []
    for table in page.select("table.output-table"):
        caption = table.find("caption")
        if caption:
            labels.append(caption.get_text("", strip=True).removesuffix("#").strip())
        labels += [cell.get_text(" ", strip=True) for cell in table.find_all(["th", "td"])]
    for diagram in page.select("svg.output-diagram"):
        labels += [text.get_text() for text in diagram.find_all("text")]
    return labels


def english_labels(path: Path) -> list[str]:
    return [
        label
        for label in drawn_labels(soup(path))
        if english_prose(label) and not HAN.search(label)
    ]


@pytest.mark.parametrize(
    "page", [p for p in all_pages() if p.language == "zh"], ids=lambda p: p.rel
)
def test_chinese_pages_draw_their_tables_and_diagrams_in_chinese(page):
    """The tables and diagrams the site draws from a snippet's output speak Chinese on a
    Chinese page (captions, headers, answers, labels); the printed output stays as printed."""
    english = english_labels(page.html)
    assert not english, (
        f"{page.html.relative_to(HTML)}: drawn in English; add each to "
        'docs/locale/zh_CN/LC_MESSAGES/whatcopy.po (msgctxt "output tables" or '
        f'"output figures"): {english}'
    )


def test_the_drawn_label_check_finds_english_and_leaves_code_alone():
    """The check above sees English where it is (the English home page's table and diagram)
    and takes code and values for what they are."""
    assert english_prose("new object") and english_prose("shares x's memory")
    assert english_prose("src's") and not english_prose("dst, src")
    assert english_prose("storage 1 (12 bytes)") and english_prose("(input that needs no gradient)")
    for code in ("x.detach().clone()", "dst[:] = src", "CloneBackward0", "True", "n/a", "(2, 3)"):
        assert not english_prose(code), code
    english = english_labels(HTML / LANGUAGES["en"][0] / "index.html")
    assert {"new object", "yes", "no", "storage 1 (12 bytes)"} <= set(english), english


def test_the_chinese_home_table_answers_in_chinese_over_the_printed_output():
    """The key answer table: Chinese headers and 是/否 on the Chinese home page, the operations
    as code; the program's own printed table, folded below it, unchanged."""
    page = soup(HTML / LANGUAGES["zh"][0] / "index.html")
    table = page.select_one("#home-table table.output-table") or page.select_one(
        "table.output-table"
    )
    headers = [th.get_text(" ", strip=True) for th in table.select("thead th")]
    assert headers[:4] == ["操作", "新对象", "新元数据", "新存储"], headers
    answers = {td.get_text(strip=True) for td in table.select("tbody td")}
    assert {"是", "否"} <= answers and not {"yes", "no"} & answers, answers
    assert table.select_one("tbody code").get_text(" ", strip=True) == "t = x"
    printed = page.select_one("details.printed-output").get_text()
    assert "operation" in printed and "new object" in printed, printed
