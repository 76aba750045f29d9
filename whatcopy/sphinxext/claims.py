"""Claims: a general sentence cites the claim that backs it, and the build checks its scope.

One job: the site's claims (generators/claims.py, each a sentence checked on every kind of input
of generators/zoo.py), on the pages that cite them and on the page that lists them.

* ``{claim}`detach.write-shows-both-ways|except sparse-coo``` beside a sentence shows, in the
  page's language, how far the claim holds ("holds for 57 of 64 kinds; not for: ...") and links
  the claim on the claims page. It is read from the claims' recorded CPU transcript
  (transcripts/cpu/generators/claims.txt), whose change makes the citing pages read again.
  The build fails (an error at the page and line) when the claim is unknown, when it does not
  hold for a kind the citation covers (the citation must except it, by name or tag, or narrow
  itself with ``|only``), when an exception names only kinds where it holds (stale), and when
  the transcript was recorded for another version of the program. The rules are
  whatcopy/reference/claims_table.py's ``check()``.
* A cell tagged ``claims-table`` (the claims page, which executes generators/claims.py) is drawn
  as each claim with its results and, per zoo, a table of every kind against every claim, in the
  build's language, with an anchor per claim (``claim-<id>``) and kind (``kind-<name>``); the
  printed text stays below it, folded. Its run must agree with the recorded transcript, which
  the citations read.
"""

from __future__ import annotations

import functools
import html
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from whatcopy.core import transcripts
from whatcopy.reference import claims_table
from whatcopy.sphinxext.messages import NP_, translate
from whatcopy.sphinxext.output_figures import fold, printed_cells

logger = logging.getLogger(__name__)

TAG = "claims-table"
CONTEXT = "claims"
TEXT = {
    "holds all": NP_(CONTEXT, "holds for all {total} kinds"),
    "holds": NP_(CONTEXT, "holds for {holds} of {total} kinds"),
    "not for": NP_(CONTEXT, "not for: {kinds}"),
    "not applicable": NP_(CONTEXT, "does not apply to {count}"),
    "more": NP_(CONTEXT, "{count} more"),
    "open": NP_(CONTEXT, "("),
    "close": NP_(CONTEXT, ")"),
    "then": NP_(CONTEXT, "; "),
    "colon": NP_(CONTEXT, ": "),
    "period": NP_(CONTEXT, "."),
    "and": NP_(CONTEXT, ", "),
    "yes": NP_(CONTEXT, "holds"),
    "no": NP_(CONTEXT, "does not hold"),
    "n/a": NP_(CONTEXT, "does not apply"),
    "legend": NP_(CONTEXT, "✓ holds · ✗ does not hold · – does not apply"),
    "result": NP_(CONTEXT, "Result"),
    "what happened": NP_(CONTEXT, "What happened"),
    "kinds": NP_(CONTEXT, "Kinds"),
    "kind": NP_(CONTEXT, "Kind"),
    "column": NP_(CONTEXT, "Claim {id}"),
    "tags": NP_(CONTEXT, "Tags: "),
    "warned": NP_(CONTEXT, "Warned when made: "),
    "warnings": NP_(CONTEXT, "Warnings: "),
    "claims of": NP_(CONTEXT, "Claims about a {zoo}"),
    "matrix": NP_(CONTEXT, "Every kind of {zoo} against every claim about one"),
    "scroll": NP_(CONTEXT, "The kinds and the claims' results (scrolls sideways)"),
    "tensor": NP_(CONTEXT, "tensor"),
    "module": NP_(CONTEXT, "module"),
    "optimizer": NP_(CONTEXT, "optimizer"),
}
MARKS = {claims_table.HOLDS: "✓", claims_table.FAILS: "✗", claims_table.NOT_APPLICABLE: "–"}
SHOWN = 4  # kinds named in a citation's "not for" before "N more"
STYLE = """.claims-reference .claim{margin:1rem 0;padding-top:.2rem;scroll-margin-top:4rem}
.claims-reference .claim:target{outline:2px solid var(--pst-color-primary)}
.claims-reference table{font-size:.8rem;border-collapse:collapse}
.claims-reference th,.claims-reference td{padding:.15rem .35rem;vertical-align:top;text-align:left}
.claims-scroll{overflow-x:auto;max-width:100%}
.claims-matrix td.mark{text-align:center}
.claims-matrix tbody th{font-weight:400}
.claims-matrix tbody tr{scroll-margin-top:4rem}
.claims-matrix tr:target{outline:2px solid var(--pst-color-primary)}
.claims-matrix .tags{font-size:.7rem;opacity:.85}"""


def _t(language: str, key: str) -> str:
    return translate(language, TEXT[key], CONTEXT)


def transcript_path() -> Path:
    return transcripts.by_name(claims_table.NAME).transcript("cpu")


@functools.cache
def _recorded(path: Path, stamp: float) -> claims_table.Table:
    return claims_table.parse(claims_table.printed(path))


def recorded() -> claims_table.Table:
    """The claims' recorded CPU transcript, read once per change of the file. Raises
    TableError when it is missing, unreadable or recorded for another version of the program."""
    generator = transcripts.by_name(claims_table.NAME)
    path = transcript_path()
    command = f"nox -s record -- {generator.rel}"
    if not path.exists():
        raise claims_table.TableError(f"no transcript {path.name} of {generator.rel}: `{command}`")
    if transcripts.read_header(path).get("Source-SHA256") != generator.sha256:
        raise claims_table.TableError(
            f"{generator.rel} changed after its transcript was recorded: `{command}`, then "
            "review the diff"
        )
    return _recorded(path, path.stat().st_mtime)


# ---------------------------------------------------------------------------------------------
# {claim} beside a sentence


def kind_node(kind: claims_table.Kind | None, name: str, language: str) -> nodes.Node:
    """A kind's name in code, its description as a tooltip."""
    literal = nodes.literal(name, name)
    if kind is None:
        return literal
    node = nodes.abbreviation("", "", explanation=kind.description(language))
    node += literal
    return node


def scope_nodes(verdict: claims_table.Verdict, table: claims_table.Table, language: str):
    """The claim's results on its whole zoo, in words, the count linked to the claim."""
    claim_id = verdict.citation.claim
    holds, total = len(verdict.holds), verdict.total
    words = (
        _t(language, "holds all").format(total=total)
        if holds == total
        else _t(language, "holds").format(holds=holds, total=total)
    )
    link = addnodes.pending_xref(
        "",
        refdomain="std",
        reftype="ref",
        reftarget=f"claim-{claim_id}".lower(),
        refexplicit=True,
        refwarn=True,
    )
    link += nodes.inline(words, words)
    found: list[nodes.Node] = [nodes.Text(_t(language, "open")), link]
    if verdict.fails:
        listed: list[nodes.Node] = []
        for index, name in enumerate(verdict.fails[:SHOWN]):
            if index:
                listed.append(nodes.Text(_t(language, "and")))
            listed.append(kind_node(table.kinds.get(name), name, language))
        more = len(verdict.fails) - SHOWN
        if more > 0:
            listed.append(nodes.Text(_t(language, "and") + _t(language, "more").format(count=more)))
        head, _, tail = _t(language, "not for").partition("{kinds}")
        found += [nodes.Text(_t(language, "then") + head), *listed, nodes.Text(tail)]
    if verdict.not_applicable:
        count = len(verdict.not_applicable)
        found.append(
            nodes.Text(_t(language, "then") + _t(language, "not applicable").format(count=count))
        )
    found.append(nodes.Text(_t(language, "close")))
    return found


class ClaimRole(SphinxRole):
    """``{claim}`id|only items|except items``` -> the claim's scope, checked (module text)."""

    def run(self):
        env = self.env
        env.note_dependency(str(transcript_path()))
        env.note_dependency(str(transcripts.by_name(claims_table.NAME).path))
        where = (env.docname, self.lineno)
        language = env.config.language or "en"
        try:
            citation = claims_table.Citation.parse(self.text)
            table = recorded()
        except (ValueError, claims_table.TableError) as exc:
            logger.error("{claim}`%s`: %s", self.text, exc, location=where)
            return [nodes.literal(self.rawtext, self.text)], []
        verdict = claims_table.check(citation, table)
        for problem in verdict.problems:
            logger.error("{claim}`%s`: %s", self.text, problem, location=where)
        if citation.claim not in table.claims:
            return [nodes.literal(self.rawtext, self.text)], []
        node = nodes.inline(classes=["claim-scope"])
        node += scope_nodes(verdict, table, language)
        return [node], []


# ---------------------------------------------------------------------------------------------
# The claims page


def kind_link(name: str) -> str:
    return f'<a href="#kind-{html.escape(name, quote=True)}"><code>{html.escape(name)}</code></a>'


def claim_html(number: int, claim: claims_table.Claim, table, language: str) -> str:
    verdict = claims_table.check(claims_table.Citation(claim.id), table)
    holds, total = len(verdict.holds), verdict.total
    words = (
        _t(language, "holds all").format(total=total)
        if holds == total
        else _t(language, "holds").format(holds=holds, total=total)
    )
    rows = []
    for outcome in table.outcomes:
        if (
            outcome.claim != claim.id
            or outcome.result == claims_table.HOLDS
            and not warned(outcome.warnings)
        ):
            continue
        what = html.escape(outcome.what)
        if warned(outcome.warnings):
            what += f"<br>{html.escape(_t(language, 'warnings'))}{html.escape(outcome.warnings)}"
        rows.append(
            f"<tr><td>{MARKS[outcome.result]} {html.escape(_t(language, outcome.result))}</td>"
            f"<td>{what}</td><td>{' '.join(kind_link(k) for k in outcome.kinds)}</td></tr>"
        )
    anchor = html.escape(claim.anchor, quote=True)
    text = (
        f'<div class="claim" id="{anchor}"><p><a href="#{anchor}">{number}.</a> '
        f"<code>{html.escape(claim.id)}</code>{html.escape(_t(language, 'colon'))}"
        f"{html.escape(claim.statement(language))} <b>{html.escape(words)}</b>"
        f"{html.escape(_t(language, 'period'))}</p>"
    )
    if rows:
        head = "".join(
            f'<th scope="col">{html.escape(_t(language, key))}</th>'
            for key in ("result", "what happened", "kinds")
        )
        text += (
            f'<div class="claims-scroll"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
    return text + "</div>"


def warned(text: str) -> bool:
    return text not in ("", "-")


def matrix_html(zoo: str, numbers: dict[str, int], table, language: str) -> str:
    """Every kind of a zoo (its description and tags) against every claim about it."""
    claims = [c for c in table.claims.values() if c.zoo == zoo]
    head = f'<th scope="col">{html.escape(_t(language, "kind"))}</th>'
    head += "".join(
        f'<th scope="col"><a href="#{html.escape(c.anchor, quote=True)}" '
        # the tooltip names the claim; its sentence is where the number links (written here
        # too, the sentences took 2 KB of the Chinese page's first view, over its 200 KB budget)
        f'title="{html.escape(_t(language, "column").format(id=c.id), quote=True)}">'
        f"{numbers[c.id]}</a></th>"
        for c in claims
    )
    body = []
    for kind in table.zoo(zoo):
        described = html.escape(kind.description(language))
        described += (
            f'<br><span class="tags">{html.escape(_t(language, "tags"))}'
            f"{html.escape(' '.join(kind.tags) or '-')}</span>"
        )
        if warned(kind.warnings):
            described += f"<br>{html.escape(_t(language, 'warned'))}{html.escape(kind.warnings)}"
        marks = "".join(
            f'<td class="mark">{MARKS[table.result(c.id, kind.name)]}</td>' for c in claims
        )
        anchor = html.escape(kind.anchor, quote=True)
        body.append(
            f'<tr id="{anchor}"><th scope="row"><code>{html.escape(kind.name)}</code>'
            f"<br>{described}</th>{marks}</tr>"
        )
    caption = _t(language, "matrix").format(zoo=_t(language, zoo))
    scroll = html.escape(_t(language, "scroll"), quote=True)
    return (
        f'<div class="claims-scroll" tabindex="0" role="region" aria-label="{scroll}">'
        f'<table class="claims-matrix"><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def reference_html(table: claims_table.Table, language: str) -> str:
    numbers = {claim_id: number for number, claim_id in enumerate(table.claims, start=1)}
    parts = [f'<div class="claims-reference"><style>{STYLE}</style>']
    parts.append(f"<p>{html.escape(_t(language, 'legend'))}</p>")
    for zoo in dict.fromkeys(c.zoo for c in table.claims.values()):
        title = _t(language, "claims of").format(zoo=_t(language, zoo))
        parts.append(f'<p class="rubric"><b>{html.escape(title)}</b></p>')
        parts += [
            claim_html(numbers[c.id], c, table, language)
            for c in table.claims.values()
            if c.zoo == zoo
        ]
        parts.append(matrix_html(zoo, numbers, table, language))
    parts.append("</div>")
    return "".join(parts)


def register_anchors(env, table: claims_table.Table) -> None:
    """Each claim's and kind's id as a label of this page: {claim} links to claim-<id>."""
    std = env.get_domain("std")
    for claim in table.claims.values():
        std.anonlabels[claim.anchor.lower()] = (env.docname, claim.anchor)
    for kind in table.kinds.values():
        std.anonlabels[kind.anchor.lower()] = (env.docname, kind.anchor)


def draw_claims(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    language = env.config.language or "en"
    for cell, block, _ in printed_cells(doctree, TAG):
        try:
            table = claims_table.parse(block.astext())
        except claims_table.TableError as exc:
            logger.error("%s: %s", TAG, exc, location=cell)
            continue
        env.note_dependency(str(transcript_path()))
        try:
            agrees = recorded().results == table.results
        except claims_table.TableError as exc:
            logger.error("%s: %s", TAG, exc, location=cell)
            agrees = True
        if not agrees:
            logger.error(
                "%s: this run of %s and its recorded transcript disagree, and the citations on "
                "other pages read the transcript: re-record it (`nox -s record -- %s`)",
                TAG,
                claims_table.NAME,
                transcripts.by_name(claims_table.NAME).rel,
                location=cell,
            )
        register_anchors(env, table)
        drawn = nodes.raw("", reference_html(table, language), format="html")
        block.replace_self([drawn, *fold(env, block)])


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    app.setup_extension("whatcopy.sphinxext.output_figures")
    app.add_role("claim", ClaimRole())
    # After myst-nb rendered the outputs, before snippet_cells reads them (as op_reference).
    app.connect("doctree-read", draw_claims, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
