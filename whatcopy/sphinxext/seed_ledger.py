"""The seed ledger: every claim of the articles the site checks, with its verdict, as one table
per article, drawn from docs/seed_claims.yaml in the page's language.

    ```{seed-claims} 004
    ```

renders the claims of seed 004 in the order of the data file: the claim, the verdict with its
reason, and a cross-reference to the section that shows the evidence. The reference is a real
``{ref}``, so a label that no page defines fails the build (warnings are errors), with a message
that names the claim citing it. tests/test_seed_ledger.py checks the data file without a build.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from whatcopy import project
from whatcopy.content import yaml_files
from whatcopy.sphinxext.messages import NP_, translate

logger = logging.getLogger(__name__)


def data_file() -> Path:
    """docs/seed_claims.yaml of the project being built (whatcopy/project.py)."""
    return project.current().docs / "seed_claims.yaml"


LANGUAGES = ("en", "zh")  # the languages each claim's text is written in
# The words of the table, marked for the extensions' catalog with the context "seed ledger"
# ("Claim" is a different word on the course kit's pages); the Chinese is in
# docs/locale/zh_CN/LC_MESSAGES/whatcopy.po. The legend on the corrections page uses these words.
CONTEXT = "seed ledger"
VERDICTS = {
    "correct": NP_(CONTEXT, "correct"),
    "wrong": NP_(CONTEXT, "wrong"),
    "partly": NP_(CONTEXT, "partly"),
    "outdated": NP_(CONTEXT, "outdated"),
    "out of scope": NP_(CONTEXT, "out of scope"),
}
HEADER = (NP_(CONTEXT, "Claim"), NP_(CONTEXT, "Verdict"), NP_(CONTEXT, "Evidence"))
REASON = NP_(CONTEXT, "**{verdict}**: {why}")  # Chinese punctuation differs


def _where(path: Path) -> str:
    root = project.current().root
    return path.relative_to(root).as_posix() if root in path.parents else str(path)


def load(path: Path | None = None) -> dict:
    return yaml_files.load(path or data_file())


def problems(data: dict, path: Path | None = None) -> list[str]:
    """What is wrong with the ledger, one line per problem, each naming the file and claim."""
    where = _where(path or data_file())
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        return [f"{where}: no `claims:` list"]
    found, seen = [], set()
    for number, claim in enumerate(data["claims"], start=1):
        if not isinstance(claim, dict):
            found.append(f"{where}: claims entry {number} is not a mapping")
            continue
        ident = claim.get("id") or f"<entry {number} without an id>"
        name = f"{where}: claim {ident}"
        if ident in seen:
            found.append(f"{name}: the id is used twice")
        seen.add(ident)
        seed = claim.get("seed")
        if not isinstance(seed, str) or not seed:
            found.append(f'{name}: no seed (a quoted string such as "004")')
        elif not str(ident).startswith(f"{seed}-"):
            found.append(f"{name}: the id must start with its seed, {seed}-")
        verdict = claim.get("verdict")
        if not verdict:
            found.append(f"{name}: no verdict")
        elif verdict not in VERDICTS:
            found.append(f"{name}: unknown verdict {verdict!r} (one of: {', '.join(VERDICTS)})")
        for field in ("claim", "why"):
            text = claim.get(field)
            if not isinstance(text, dict):
                found.append(f"{name}: no {field} (en and zh)")
                continue
            for language in LANGUAGES:
                if not isinstance(text.get(language), str) or not text[language].strip():
                    found.append(f"{name}: {field} has no {language} text")
            for language in sorted(set(text) - set(LANGUAGES)):
                found.append(f"{name}: {field} has an unknown language {language!r}")
        if not isinstance(claim.get("evidence"), str) or not claim["evidence"].strip():
            found.append(f"{name}: no evidence label")
    return found


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def table_lines(claims: list[dict], language: str) -> list[str]:
    """The Markdown table of these claims, in the build language `language` (such as en or
    zh_CN): the claims' own text from the data file, the table's words from the catalog."""
    written_in = "zh" if language.startswith("zh") else "en"

    def text(message: str) -> str:
        return translate(language, message, CONTEXT)

    header = [text(word) for word in HEADER]
    lines = [f"| {' | '.join(header)} |", "| --- | --- | --- |"]
    for claim in claims:
        verdict = text(VERDICTS[claim["verdict"]])
        reason = text(REASON).format(verdict=verdict, why=claim["why"][written_in])
        lines.append(
            f"| {_cell(claim['claim'][written_in])} | {_cell(reason)} "
            f"| {{ref}}`{claim['evidence']}` |"
        )
    return lines


class SeedClaims(SphinxDirective):
    """```{seed-claims} <seed>``` : the verdict table of one seed."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        seed = self.arguments[0]
        self.env.note_dependency(str(data_file()))
        data = load()
        found = problems(data)
        if found:
            raise ExtensionError("the seed ledger is not valid:\n" + "\n".join(found))
        claims = [claim for claim in data["claims"] if claim["seed"] == seed]
        if not claims:
            raise self.error(f"{_where(data_file())} has no claims of seed {seed!r}")
        language = self.env.config.language or "en"
        container = nodes.container(classes=["seed-claims"])
        source, _line = self.get_source_info()
        self.state.nested_parse(StringList(table_lines(claims, language), source), 0, container)
        by_label: dict[str, list[str]] = {}
        for claim in claims:
            by_label.setdefault(claim["evidence"], []).append(claim["id"])
        for ref in container.findall(addnodes.pending_xref):
            target = ref.get("reftarget", "")
            if target in by_label:
                ref["seed_claims"] = ", ".join(by_label[target])
        return [container]


def missing_evidence(app: Sphinx, domain, node: addnodes.pending_xref) -> bool | None:
    """A label no page defines, cited by a ledger row: say which claim cites it, instead of
    Sphinx's bare "undefined label"."""
    if node.get("reftype") != "ref":
        return None
    target = node.get("reftarget", "")
    claims = node.get("seed_claims")
    if not claims:
        return None
    hint = "add that (label)= above the section that shows the evidence, or fix the label"
    cited = f"{_where(data_file())}: claim {claims}: evidence label"
    logger.warning(f"{cited} {target!r} is not defined on any page; {hint}", location=node)
    return True  # replaces Sphinx's bare "undefined label" warning


def check_data(app: Sphinx) -> None:
    found = problems(load())
    if found:
        raise ExtensionError("the seed ledger is not valid:\n" + "\n".join(found))


def setup(app: Sphinx):
    app.add_directive("seed-claims", SeedClaims)
    app.connect("builder-inited", check_data)
    # before the standard domain's own handler (priority 500), which would warn first
    app.connect("warn-missing-reference", missing_evidence, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
