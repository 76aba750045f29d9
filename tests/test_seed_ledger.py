"""The seed ledger (docs/seed_claims.yaml): every claim of the checked articles has a verdict in
both languages, and its evidence label names a section of the site that runs code.

These read the data file and the MyST sources of docs/en; they need no build. The build checks
the same labels again, as real cross-references (whatcopy/sphinxext/seed_ledger.py).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from project import DOCS, ROOT, Page, sections, site_sections
from test_pages import glossary_problems, hand_typed_values, typography_problems

from whatcopy.sphinxext import seed_ledger


def where(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if ROOT in path.parents else str(path)


def evidence_problems(data: dict, path: Path, known: dict[str, tuple[Path, dict]]) -> list[str]:
    """A claim whose evidence label is missing, or names a section without an executed cell."""
    found = []
    for claim in data.get("claims") or []:
        label = claim.get("evidence")
        name = f"{where(path)}: claim {claim.get('id')}"
        if not label:
            continue  # seed_ledger.problems() reports it
        if label not in known:
            found.append(
                f"{name}: evidence label {label!r} does not exist; no docs/en page defines it"
            )
            continue
        page, info = known[label]
        if not info["heading"]:
            found.append(
                f"{name}: evidence label {label!r} ({where(page)}:{info['line']}) is not above a heading"
            )
        elif not info["cell"]:
            found.append(
                f"{name}: evidence label {label!r} ({where(page)}:{info['line']}) opens a section "
                "without an executed {code-cell}; point it at the section that runs the evidence"
            )
    return found


def text_problems(data: dict, path: Path, tmp_path: Path) -> list[str]:
    """The page rules for the ledger's text: no hand-typed outputs, Chinese typography and terms."""
    found = []
    for claim in data.get("claims") or []:
        for language, folder in (("en", "en"), ("zh", "zh")):
            lines = [
                claim[field][language]
                for field in ("claim", "why")
                if isinstance(claim.get(field), dict)
                and isinstance(claim[field].get(language), str)
            ]
            (tmp_path / folder).mkdir(parents=True, exist_ok=True)
            page_path = tmp_path / folder / "ledger.md"
            page_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            page = Page(folder, page_path)
            problems = hand_typed_values(page)
            if language == "zh":
                problems += typography_problems(page)
                problems += [p for p in glossary_problems(page) if " writes " in p]
            found += [
                f"{where(path)}: claim {claim.get('id')} ({language}): {p.split(': ', 1)[1]}"
                for p in problems
            ]
    return found


@pytest.fixture(scope="module")
def ledger() -> dict:
    return seed_ledger.load()


def test_every_claim_has_a_known_verdict_and_both_languages(ledger):
    problems = seed_ledger.problems(ledger)
    assert not problems, "\n".join(problems)


def test_every_evidence_label_opens_a_section_that_runs_code(ledger):
    problems = evidence_problems(ledger, seed_ledger.data_file(), site_sections("en"))
    assert not problems, "\n".join(problems)


def test_the_ledger_text_follows_the_page_rules(ledger, tmp_path):
    problems = text_problems(ledger, seed_ledger.data_file(), tmp_path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_corrections_page_renders_every_seed_from_the_ledger(ledger, language):
    """One {seed-claims} table per seed, in each verdicts section, and no hand-written table."""
    page = DOCS / language / "corrections.md"
    text = page.read_text(encoding="utf-8")
    rendered = re.findall(r"^```\{seed-claims\} (\S+)$", text, flags=re.MULTILINE)
    seeds = list(dict.fromkeys(claim["seed"] for claim in ledger["claims"]))
    assert sorted(rendered) == sorted(seeds), (
        f"{where(page)} renders the tables of seeds {rendered}; the ledger has {seeds}"
    )
    for label in (
        "corrections-understanding-detach-verdicts",
        "corrections-three-ways-verdicts",
        "corrections-blog-verdicts",
    ):
        section = text.split(f"({label})=", 1)[1].split("\n(", 1)[0]
        assert "{seed-claims}" in section and "| --- |" not in section, (
            f"{where(page)}: section {label} must hold a {{seed-claims}} table and no hand-written one"
        )


BAD_LEDGER = """
claims:
- seed: "000"
  id: 000-01
  claim: {en: "A claim", zh: "一个说法"}
  why: {en: "Because.", zh: "因为。"}
  evidence: corrections-order
- seed: "000"
  id: 000-02
  claim: {en: "No verdict", zh: "没有结论"}
  why: {en: "Because.", zh: "因为。"}
  evidence: corrections-order
  verdict:
- seed: "000"
  id: 000-03
  claim: {en: "Unknown verdict", zh: "未知结论"}
  verdict: maybe
  why: {en: "Because.", zh: "因为。"}
  evidence: corrections-order
- seed: "000"
  id: 000-04
  claim: {en: "No Chinese"}
  verdict: correct
  why: {en: "Because.", zh: "因为。"}
  evidence: corrections-order
- seed: "000"
  id: 000-05
  claim: {en: "A section without a cell", zh: "没有代码的章节"}
  verdict: correct
  why: {en: "Because.", zh: "因为。"}
  evidence: corrections-detach-alone
- seed: "000"
  id: 000-06
  claim: {en: "A label nobody defines", zh: "没人定义的标签"}
  verdict: correct
  why: {en: "Because.", zh: "因为。"}
  evidence: no-such-label
- seed: "000"
  id: 000-07
  claim: {en: "Prose that breaks the page rules", zh: "违反页面规则的文字"}
  verdict: wrong
  why: {en: "It prints `True`.", zh: "调用detach()之后用了就地操作。"}
  evidence: corrections-order
"""


def test_the_checks_catch_a_bad_ledger(tmp_path):
    """Each check reports the entry written against it, naming the file and the claim id."""
    path = tmp_path / "bad_claims.yaml"
    path.write_text(BAD_LEDGER, encoding="utf-8")
    data = yaml.safe_load(BAD_LEDGER)
    listed = "\n".join(seed_ledger.problems(data, path))
    assert f"{path}: claim 000-01: no verdict" in listed
    assert f"{path}: claim 000-02: no verdict" in listed
    assert f"{path}: claim 000-03: unknown verdict 'maybe'" in listed
    assert f"{path}: claim 000-04: claim has no zh text" in listed

    known = site_sections("en")
    assert "corrections-detach-alone" in known, "the negative test needs a section without a cell"
    evidence = "\n".join(evidence_problems(data, path, known))
    assert f"{path}: claim 000-01" not in evidence, evidence
    assert f"{path}: claim 000-05: evidence label 'corrections-detach-alone'" in evidence
    assert "without an executed {code-cell}" in evidence
    assert f"{path}: claim 000-06: evidence label 'no-such-label' does not exist" in evidence

    text = "\n".join(text_problems(data, path, tmp_path / "pages"))
    assert f"{path}: claim 000-07 (en): `True` looks like an output typed by hand" in text, text
    assert f"{path}: claim 000-07 (zh): needs a space between Chinese and Latin" in text, text
    assert f"{path}: claim 000-07 (zh): writes 就地操作" in text, text


def test_the_section_parser_sees_cells_only_inside_their_section(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "(top)=\n# Top\n\n(a)=\n## A\n\n```{code-cell} python\n:load: x.py\n```\n\n"
        "(b)=\n## B\n\n```python\n# not a heading\n```\n\n(b-sub)=\n### B sub\n\n"
        "```{code-cell} python\n:load: y.py\n```\n\n(c)=\n## C\n\ntext\n\n(loose)=\ntext\n",
        encoding="utf-8",
    )
    found = sections(page)
    assert {label: info["cell"] for label, info in found.items()} == {
        "top": True,
        "a": True,
        "b": True,
        "b-sub": True,
        "c": False,
        "loose": False,
    }
    assert found["loose"]["heading"] is False


def counts(data: dict) -> tuple[Counter, Counter]:
    claims = data["claims"]
    return Counter(c["seed"] for c in claims), Counter(c["verdict"] for c in claims)


def test_the_counts_add_up(ledger):
    per_seed, per_verdict = counts(ledger)
    assert sum(per_seed.values()) == sum(per_verdict.values()) == len(ledger["claims"]) > 0


if __name__ == "__main__":  # python tests/test_seed_ledger.py: the ledger's counts
    per_seed, per_verdict = counts(seed_ledger.load())
    print("claims per seed:", dict(sorted(per_seed.items())), "total", sum(per_seed.values()))
    print("claims per verdict:", dict(per_verdict.most_common()))
