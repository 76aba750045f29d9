"""Claims (generators/claims.py, generators/zoo.py, whatcopy/reference/claims_table.py,
whatcopy/sphinxext/claims.py): every claim ran on every kind of its zoo, a page's {claim}
citation is checked against the recorded results and the build refuses a wrong one, the claims
page shows both languages, and a generator imports the zoo beside it wherever it runs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from project import DOCS, HTML, LANGUAGES, ROOT, all_pages, parsed_html

from whatcopy.core import transcripts
from whatcopy.reference import claims_table
from whatcopy.reference.claims_table import Citation, TableError, check

FIXTURES = Path(__file__).parent / "fixtures" / "claims"
GENERATOR = transcripts.by_name(claims_table.NAME)
ZOO = transcripts.by_name("generators/zoo")
CITATION = re.compile(r"\{claim\}`(?P<text>[^`]+)`")


@pytest.fixture(scope="module")
def recorded() -> claims_table.Table:
    return claims_table.parse(claims_table.printed(GENERATOR.transcript("cpu")))


# ---------------------------------------------------------------------------------------------
# A small printed table, in the program's format, for the rules


def printed(results: dict[str, dict[str, str]], whats: dict[tuple[str, str], str]) -> str:
    """What generators/claims.py would print for claims about tensor kinds `a`, `b`, `c`
    (tags: `a` and `b` are `x`, `c` is `y`): results[claim][kind] is yes / no / n/a."""
    kinds = {"a": "x", "b": "x", "c": "y"}
    lines = [
        f"claims: {len(results)}",
        "",
        "Claims on cpu:",
        "| claim | zoo | holds | does not hold | does not apply | en | zh |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for claim, by_kind in results.items():
        counts = [list(by_kind.values()).count(r) for r in ("yes", "no", "n/a")]
        lines.append(
            f"| {claim} | tensor | {' | '.join(map(str, counts))} | It is so. | 是这样。 |"
        )
    lines += ["", "Kinds on cpu:", "| kind | zoo | tags | en | zh | warnings when made |"]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    lines += [f"| {k} | tensor | {tag} | Kind {k}. | 种类 {k}。 | - |" for k, tag in kinds.items()]
    lines += ["", "Results on tensor kinds on cpu:", "| kind | " + " | ".join(results) + " |"]
    lines.append("|" + " --- |" * (len(results) + 1))
    for kind in kinds:
        lines.append(f"| {kind} | " + " | ".join(r[kind] for r in results.values()) + " |")
    lines += ["", "Where a claim does not hold or does not apply, or warned, on cpu:"]
    lines += [
        "| claim | result | what happened | warnings | kinds |",
        "| --- | --- | --- | --- | --- |",
    ]
    for claim, by_kind in results.items():
        for kind, result in by_kind.items():
            if result != "yes":
                lines.append(f"| {claim} | {result} | {whats[claim, kind]} | - | {kind} |")
    return "\n".join(lines) + "\n"


SMALL = printed(
    {
        "p.holds": {"a": "yes", "b": "yes", "c": "n/a"},
        "p.fails-on-c": {"a": "yes", "b": "yes", "c": "no"},
    },
    {("p.holds", "c"): "c has no values", ("p.fails-on-c", "c"): "c.mul_(2) left x unchanged"},
)


def problems(text: str, table_text: str = SMALL) -> list[str]:
    return check(Citation.parse(text), claims_table.parse(table_text)).problems


def test_a_citation_is_read_with_its_only_and_except_clauses():
    citation = Citation.parse("p.x|only strided, dense|except sparse-coo  inference")
    assert citation == Citation(
        "p.x", ("strided", "dense"), ("sparse-coo", "inference"), citation.text
    )
    assert Citation.parse("p.x") == Citation("p.x", (), (), "p.x")
    for wrong in ("p.x|but sparse-coo", "p.x|except", "|only strided"):
        with pytest.raises(ValueError, match="claim"):
            Citation.parse(wrong)


def test_a_kind_where_the_claim_does_not_hold_fails_the_citation_until_excepted():
    """The rule the build applies: a failing kind is named (with what happened) unless the
    citation excepts it by name or tag, or leaves it out with |only; a kind where the claim does
    not apply never counts against it."""
    [problem] = problems("p.fails-on-c")
    assert "does not hold for 1 kind(s)" in problem and "c: c.mul_(2) left x unchanged" in problem
    assert "|except c" in problem  # the message says how to cite it
    assert problems("p.fails-on-c|except c") == []
    assert problems("p.fails-on-c|except y") == []  # by tag
    assert problems("p.fails-on-c|only x") == []
    assert problems("p.holds") == []  # c does not apply: not a failure


def test_a_stale_exception_an_unknown_item_and_an_unknown_claim_fail():
    [stale] = problems("p.fails-on-c|except c a")
    assert stale.startswith("|except a: p.fails-on-c does not fail for any kind it names (a)")
    stale = "|except x: p.fails-on-c does not fail for any kind it names (a, b): the exception"
    assert problems("p.fails-on-c|except y x") == [stale + " is stale, remove it"]
    [unknown] = problems("p.holds|except zz")
    assert unknown == "'zz' is neither a kind nor a tag of the tensor zoo (generators/zoo.py)"
    [missing] = problems("p.nothing")
    assert missing.startswith("no claim 'p.nothing'") and "p.holds, p.fails-on-c" in missing


def test_a_table_with_a_hole_is_refused_naming_the_claim_and_kind():
    holed = SMALL.replace("| c | n/a | no |", "| c | n/a | yes |")  # c's "no" lost
    with pytest.raises(TableError, match=r"p.fails-on-c: counted \(2, 1, 0\), its results say"):
        claims_table.parse(holed)
    without = SMALL.replace("| p.holds | n/a | c has no values | - | c |\n", "")
    with pytest.raises(TableError, match="p.holds on c: no line says what happened"):
        claims_table.parse(without)
    with pytest.raises(TableError, match="columns"):
        claims_table.parse(SMALL.replace("| kind | zoo | tags |", "| kind | zoo | labels |"))


# ---------------------------------------------------------------------------------------------
# The recorded run


def test_every_claim_ran_on_every_kind_of_its_zoo(recorded):
    """The transcript has a result for each claim on each kind of its zoo (parse() refuses a
    hole), and its kinds are exactly the zoo's own catalogue (generators/zoo.py's transcript)."""
    zoo_rows = claims_table.printed(ZOO.transcript("cpu")).splitlines()
    catalogue = [claims_table.cells(line)[:2] for line in zoo_rows if line.startswith("| ")][2:]
    zoos = {claim.zoo for claim in recorded.claims.values()}
    assert [name for name, zoo in catalogue if zoo in zoos] == list(recorded.kinds), (
        f"{GENERATOR.transcript('cpu')} and {ZOO.transcript('cpu')} list different kinds: "
        "re-record both (nox -s record -- generators/)"
    )
    for claim in recorded.claims.values():
        kinds = recorded.zoo(claim.zoo)
        assert kinds and all((claim.id, k.name) in recorded.results for k in kinds), claim.id
    tensor_kinds = recorded.zoo("tensor")
    assert len(tensor_kinds) >= 60, f"only {len(tensor_kinds)} kinds of tensor"
    assert recorded.zoo("module")
    assert all(c.en and c.zh and c.en != c.zh for c in recorded.claims.values())


def test_the_claims_behind_the_sentences_on_main_do_not_hold_everywhere(recorded):
    """What the review found, as the program measured it: writes through detach() do not show
    for sparse COO, a clone of gapped non-row-major strides is not contiguous, x.real of a
    complex tensor is not x."""
    assert {"sparse-coo", "sparse-coo-uncoalesced"} <= set(
        recorded.kinds_with("detach.write-shows-both-ways", "no")
    )
    # (and, once the zoo had it, overlapping columns: as_strided((3, 4), (1, 2)) clones to (1, 3))
    assert recorded.kinds_with("clone.packs-the-rest-contiguous", "no") == [
        "float32-gapped-transposed",
        "float32-overlapping-columns",
        "float32-channels-last-sliced",
    ]
    failing = recorded.kinds_with("real.returns-itself", "no")
    assert failing and all("complex" in recorded.kinds[k].tags for k in failing)
    # deepcopy.md's "A tensor computed from others has a history", and the sentence now
    computed = recorded.kinds_with("autograd.computed-has-history", "no")
    assert {"computed-from-no-grad-inputs", "computed-under-no-grad"} <= set(computed)
    narrowed = "autograd.computed-from-tensor-that-requires-grad-has-history"
    assert not recorded.kinds_with(narrowed, "no") and recorded.kinds_with(narrowed, "yes")


def citations(text: str) -> list[tuple[int, str]]:
    """Each {claim} of a page's text with its line; a table row writes its | as \\|, which the
    table reads as |."""
    return [
        (number, match["text"].replace("\\|", "|"))
        for number, line in enumerate(text.splitlines(), start=1)
        for match in CITATION.finditer(line)
    ]


@pytest.mark.parametrize(
    "page", [p for p in all_pages() if "{claim}`" in p.text], ids=lambda p: p.rel
)
def test_each_citation_on_the_pages_matches_the_recorded_results(page, recorded):
    """The build's check, without a build: each {claim} of the page against the transcript."""
    found = [
        f"{page.rel}:{line}: {{claim}}`{text}`: {problem}"
        for line, text in citations(page.text)
        for problem in check(Citation.parse(text), recorded).problems
    ]
    assert not found, "\n".join(found)


def test_the_fixed_sentences_cite_their_claims_in_both_languages():
    for language in ("en", "zh"):
        detach = (DOCS / language / "detach.md").read_text(encoding="utf-8")
        clone = (DOCS / language / "clone.md").read_text(encoding="utf-8")
        assert "{claim}`detach.write-shows-both-ways|except sparse-coo inference`" in detach
        assert "{claim}`clone.packs-the-rest-contiguous|except " in clone, language


# ---------------------------------------------------------------------------------------------
# The build refuses a wrong citation (a small Sphinx build of the fixtures)


def build(tiny_site, page: Path, language: str = "en") -> tuple[str, str]:
    """Build one fixture page with MyST and the claims extension: (its HTML, the warnings)."""
    site = tiny_site(
        {"index.md": page.read_text(encoding="utf-8")},
        ["myst_parser", "whatcopy.sphinxext.claims"],
        language=language,
    )
    # A small site has no claims page for the links to land on: that warning is not the test's.
    found = [w for w in site.warnings.splitlines() if "undefined label" not in w]
    return site.html(), "\n".join(found)


def test_the_build_refuses_the_sentences_as_they_were_on_main(tiny_site):
    """The detach and clone sentences and the x.real row, as on main, each cite their claim
    without a scope: the build reports each at its page and line with the kinds it fails for."""
    _, warnings = build(tiny_site, FIXTURES / "main-sentences.md")
    errors = [w for w in warnings.splitlines() if "ERROR" in w]
    assert len(errors) == 3, warnings
    detach, clone, real = errors
    assert "index.md:5: ERROR: {claim}`detach.write-shows-both-ways`" in detach
    assert "sparse-coo" in detach and "inference-tensor" in detach
    assert "index.md:9: ERROR: {claim}`clone.packs-the-rest-contiguous`" in clone
    assert "float32-gapped-transposed" in clone and "float32-channels-last-sliced" in clone
    assert "index.md:13: ERROR: {claim}`real.returns-itself`" in real
    assert "complex64-contiguous" in real


def test_the_build_accepts_the_narrowed_sentences_and_shows_their_scope(tiny_site):
    html, warnings = build(tiny_site, FIXTURES / "fixed-sentences.md")
    assert "ERROR" not in warnings and "WARNING" not in warnings, warnings
    assert 'class="claim-scope"' in html
    assert re.search(r"holds for \d+ of \d+ kinds", html), html
    zh_html, warnings = build(tiny_site, FIXTURES / "fixed-sentences.md", "zh_CN")
    assert "ERROR" not in warnings, warnings
    assert "种输入中的" in zh_html and "不成立：" in zh_html


def opening(page: Path) -> str:
    """A page's text up to its first section: its title and opening paragraph, no cells."""
    text = page.read_text(encoding="utf-8").split("\n---\n", 1)[1]  # after the front matter
    return text.split("\n## ", 1)[0]


def test_a_seeded_overbroad_sentence_stops_a_strict_build_naming_page_line_and_kinds(tiny_site):
    """detach.md's opening as it is, then with the citation's |except removed (the sentence on
    main): the strict build (warnings are errors, as in `python -m whatcopy build`) passes the
    first and fails the second, naming the page, the line and the kinds left out."""
    for language in ("en", "zh"):
        text = opening(DOCS / language / "detach.md")
        cited = "{claim}`detach.write-shows-both-ways|except sparse-coo inference`"
        assert cited in text, f"docs/{language}/detach.md: the opening no longer cites {cited}"

        def strict_build(page: str, name: str, language: str = language):
            return tiny_site(
                {"index.md": page},
                ["myst_parser", "whatcopy.sphinxext.claims"],
                "zh_CN" if language == "zh" else "en",
                conf="suppress_warnings = ['ref.ref', 'ref.any', 'myst.xref_missing']\n",
                name=f"{name}-{language}",
                strict=True,
            )

        site = strict_build(text, "fine")
        assert site.status == 0, site.warnings
        seeded = text.replace(cited, "{claim}`detach.write-shows-both-ways`")
        site = strict_build(seeded, "seeded")
        assert site.status == 1, site.warnings
        # MyST gives a role the line of its paragraph: the line after the blank line before it
        before = seeded[: seeded.index("{claim}`detach.write-shows-both-ways`")]
        line = 3 + before[: before.rindex("\n\n")].count("\n")
        errors = [w for w in site.warnings.splitlines() if "ERROR" in w]
        assert len(errors) == 1, site.warnings
        assert f"index.md:{line}: ERROR: {{claim}}`detach.write-shows-both-ways`" in errors[0]
        for kind in ("sparse-coo", "sparse-coo-uncoalesced", "inference-tensor"):
            assert kind in errors[0], errors[0]


def test_the_build_refuses_a_stale_exception_an_unknown_claim_and_kind(tiny_site):
    _, warnings = build(tiny_site, FIXTURES / "wrong-citations.md")
    assert "index.md:3: ERROR" in warnings and "|except complex:" in warnings, warnings
    assert "index.md:5: ERROR" in warnings and "no claim 'detach.copies-everything'" in warnings
    assert (
        "index.md:7: ERROR" in warnings and "'sparse-qux' is neither a kind nor a tag" in warnings
    )


# ---------------------------------------------------------------------------------------------
# The built site


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_claims_page_shows_every_claim_and_kind_in_its_language(language, recorded, built_site):
    folder = LANGUAGES[language][0]
    path = HTML / folder / "claims.html"
    page = parsed_html(path)
    shown = [div["id"] for div in page.select(".claims-reference .claim")]
    # grouped by zoo, in the order of the program within each (the sweeps' blocks come last)
    claims = list(recorded.claims.values())
    zoos = list(dict.fromkeys(c.zoo for c in claims))
    expected = [c.anchor for zoo in zoos for c in claims if c.zoo == zoo]
    assert shown == expected, f"{path}: claims shown {shown}"
    rows = [tr["id"] for tr in page.select(".claims-matrix tbody tr")]
    assert rows == [k.anchor for k in recorded.kinds.values()], f"{path}: kinds shown"
    statement = "zh" if language == "zh" else "en"
    first = next(iter(recorded.claims.values()))
    assert getattr(first, statement) in page.find(id=first.anchor).get_text()
    legend = page.select_one(".claims-reference p").get_text()
    assert legend == (
        "✓ 成立 · ✗ 不成立 · – 不适用"
        if language == "zh"
        else "✓ holds · ✗ does not hold · – does not apply"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_citing_page_shows_the_scope_and_links_the_claim(language):
    path = HTML / LANGUAGES[language][0] / "detach.html"
    page = parsed_html(path)
    scopes = page.select(".claim-scope")
    assert scopes, f"{path}: no claim citation shown"
    link = scopes[0].select_one("a")
    assert link["href"] == "claims.html#claim-detach.write-shows-both-ways", link
    text = scopes[0].get_text()
    assert ("不成立：" if language == "zh" else "not for: ") in text, text
    assert "sparse-coo" in text


# ---------------------------------------------------------------------------------------------
# A generator imports the module beside it, wherever it runs


def test_a_generator_imports_the_module_beside_it_and_a_snippet_does_not(tmp_path):
    """As `python generators/x.py` would: the recorder's forked child puts a generator's folder
    first on sys.path; a teacher's snippet still sees only what is installed."""
    (tmp_path / "generators").mkdir()
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    (tmp_path / "generators" / "helper.py").write_text('"""A helper."""\nNAME = "beside"\n')
    (tmp_path / "generators" / "user.py").write_text(
        '"""Uses the helper beside it."""\nimport helper\n\nprint("found:", helper.NAME)\n'
    )
    (tmp_path / "snippets" / "demo" / "helper.py").write_text('"""A helper."""\nNAME = "x"\n')
    (tmp_path / "snippets" / "demo" / "user.py").write_text(
        '"""Tries the helper beside it."""\nimport helper  # raises ModuleNotFoundError\n'
    )
    result = subprocess.run(
        [sys.executable, "-m", "whatcopy", "record", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    text = (tmp_path / "transcripts" / "cpu" / "generators" / "user.txt").read_text()
    assert "found: beside" in text
    snippet = (tmp_path / "transcripts" / "cpu" / "demo" / "user.txt").read_text()
    assert "ModuleNotFoundError: No module named 'helper'" in snippet
