"""Exercises: "predict the output" questions whose answers are executed outputs, folded.

One job: turn a question, a snippet cell and a reason into an exercise, and hand the exercises
to teachers.

An exercise is written on a page as three consecutive blocks::

    ```{exercise}
    What does `x.grad` hold?
    ```

    ```{code-cell} python
    :load: ../../snippets/exercises/detach/two_paths.py
    :tags: [exercise]
    ```

    ```{answer}
    Why, in one sentence (values quoted with {out}`...` as anywhere else).
    ```

* The question is numbered ("Exercise 2."). The cell's executed output is moved, with the
  reason, into a ``<details>`` element that is closed when the page loads: the reader commits to
  a prediction before opening it. Plain HTML, no theme feature, no script.
* A cell tagged ``exercise`` without its question and answer around it, or a question or an
  answer without its cell, or an exercise cell without an executed output, fails the build.
* The ``{exercise-list}`` directive (the teachers' page): every page's exercises, with links to
  them and to the course kit's files.
* Course kit (build-finished, after course_kit.py wrote ``downloads/``):
  ``downloads/exercises/<page>.ipynb``, the questions and their code cells without outputs, and
  ``downloads/exercises/<page>-answers.md``, the same with the outputs recorded in the CPU
  transcripts and the reasons, so a teacher can hand out one without the other.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

from whatcopy.content import pages
from whatcopy.core import transcripts
from whatcopy.core.transcripts import SNIPPETS, Snippet
from whatcopy.sphinxext import build_guards
from whatcopy.sphinxext.course_kit import (
    EXERCISE_TAG,
    markdown_cell,
    notebook_document,
    page_url,
    setup_cells,
)
from whatcopy.sphinxext.messages import N_, translate

logger = logging.getLogger(__name__)

TAG = EXERCISE_TAG
DOWNLOADS = "downloads/exercises"

# Section labels that other branches define, linked from here before they exist: each resolves
# to the existing section named here until its own page defines it. Delete an entry once the
# label is defined (the link then goes to the right place by itself).
TEXT = {  # English msgids; the Chinese is in docs/locale/zh_CN/LC_MESSAGES/whatcopy.po
    "exercise": N_("Exercise {n}."),
    "answer": N_("Answer: what it prints, and why"),
    "page": N_("Page"),
    "questions": N_("Exercises"),
    "downloads": N_("Course kit"),
    "handout": N_("exercises (notebook)"),
    "answers": N_("answers"),
    "notebook_intro": N_(
        "Predict what each cell prints before you run it. The answers are in a separate file. "
        "Each cell is a standalone snippet that needs only `torch` (and `numpy`)."
    ),
    "answers_title": N_("{page}: answers"),
    "notebook_title": N_("{page}: exercises"),
    "output": N_("Output (recorded on CPU, torch {torch}):"),
    "why": N_("Why: "),
    "site": N_("On the site: "),
}


def _text(config, key: str) -> str:
    """The label in the build's language (the catalog registered for it)."""
    return translate(config.language, TEXT[key])


# ---------------------------------------------------------------------------------------------
# The page source: what the teachers' page and the tests read


def page_exercises(page: Path) -> list[dict]:
    """Each exercise of a page source, in order: {"snippet", "load", "question", "raises"}."""
    text = page.read_text(encoding="utf-8")
    # (line of the question's fence, question); the cells come from whatcopy.content.pages
    questions = [
        (fence.start + 1, fence.body.strip())
        for fence in pages.fences(text)
        if fence.directive == "{exercise}"
    ]
    found = []
    for cell in pages.read(page, text).cells:
        tags, load = cell.tags, cell.load
        if TAG not in tags or not load:
            continue
        before = [q for line, q in questions if line < cell.line]
        parts = Path(load).parts
        name = Path(*parts[parts.index("snippets") + 1 :]) if "snippets" in parts else Path("?")
        found.append(
            {
                "snippet": name.with_suffix("").as_posix(),
                "load": load,
                "question": before[-1] if before else "",
                "raises": "raises-exception" in tags,
            }
        )
    return found


def exercises_label(docname: str) -> str:
    return f"{docname}-exercises"


# ---------------------------------------------------------------------------------------------
# Directives and nodes


class exercise_answer(nodes.General, nodes.Element):
    """The fold: a <details> element, closed on load, holding the output and the reason."""


def visit_exercise_answer(self, node: exercise_answer) -> None:
    self.body.append('<details class="exercise-answer">\n')
    self.body.append(f"<summary>{self.encode(node['summary'])}</summary>\n")


def depart_exercise_answer(self, node: exercise_answer) -> None:
    self.body.append("</details>\n")


def skip(self, node) -> None:  # other builders: the answer stays inline
    pass


class ExerciseQuestion(Directive):
    """``{exercise}``: the question asked before an exercise cell."""

    has_content = True

    def run(self):
        box = nodes.container(classes=["exercise-question"], exercise_part="question")
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


class ExerciseAnswer(ExerciseQuestion):
    """``{answer}``: the one-sentence reason, shown inside the fold after the output."""

    def run(self):
        box = nodes.container(classes=["exercise-reason"], exercise_part="reason")
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


def _is_exercise_cell(node) -> bool:
    return (
        isinstance(node, nodes.container)
        and node.get("nb_element") == "cell_code"
        and TAG in node.get("cell_metadata", {}).get("tags", [])
    )


def _part(node, part: str) -> bool:
    return isinstance(node, nodes.container) and node.get("exercise_part") == part


def to_markdown(node: nodes.Node) -> str:
    """Inline Markdown of a small doctree: text, code, emphasis, links' text."""
    if isinstance(node, nodes.Text):
        return node.astext()
    if isinstance(node, nodes.literal):
        return f"`{node.astext()}`"
    inner = "".join(to_markdown(child) for child in node.children)
    if isinstance(node, nodes.strong):
        return f"**{inner}**"
    if isinstance(node, nodes.emphasis):
        return f"*{inner}*"
    if isinstance(node, nodes.paragraph):
        return inner + "\n\n"
    return inner


def fold_answers(app: Sphinx, doctree: nodes.document) -> None:
    """Number the questions, fold each exercise cell's output with its reason."""
    env = app.env
    found = []
    number = 0
    for cell in list(doctree.findall(_is_exercise_cell)):
        parent = cell.parent
        index = parent.index(cell)
        question = parent[index - 1] if index > 0 else None
        reason = parent[index + 1] if index + 1 < len(parent) else None
        load = cell["cell_metadata"].get("load", "?")
        if not _part(question, "question") or not _part(reason, "reason"):
            logger.error(
                "the exercise cell of %s needs an {exercise} block just above it and an {answer} "
                "block just below it",
                load,
                location=cell,
            )
            continue
        outputs = [c for c in cell.children if c.get("nb_element") == "cell_code_output"]
        if not outputs:
            logger.error(
                "the exercise cell of %s has no executed output to fold", load, location=cell
            )
            continue
        number += 1
        question["exercise_used"] = reason["exercise_used"] = True
        first = next(question.findall(nodes.paragraph), None)
        if first is not None:
            first.insert(0, nodes.Text(" "))
            first.insert(0, nodes.strong(text=_text(app.config, "exercise").format(n=number)))
        fold = exercise_answer(summary=_text(app.config, "answer"))
        position = cell.index(outputs[0])
        cell.remove(outputs[0])
        parent.remove(reason)
        fold += outputs[0]
        fold += reason
        cell.insert(position, fold)
        cell["classes"].append("exercise-cell")
        page = Path(env.doc2path(env.docname))
        snippet = Snippet((page.parent / load).resolve())
        found.append(
            {
                "snippet": snippet.name,
                "question": to_markdown(question).strip(),
                "reason": to_markdown(reason).strip(),
                "shown": outputs[0].astext(),
            }
        )
    for node in list(doctree.findall(lambda n: _part(n, "question") or _part(n, "reason"))):
        if not node.get("exercise_used"):
            logger.error(
                "an {exercise} or {answer} block without its exercise cell next to it",
                location=node,
            )
    if found:
        build_guards.records_of(env, "exercises_found")[env.docname] = found


# ---------------------------------------------------------------------------------------------
# The teachers' page


class ExerciseList(Directive):
    """Every page's exercises: the questions, a link to them, the course kit's two files."""

    def run(self):
        env = self.state.document.settings.env
        config = env.config
        srcdir = Path(env.srcdir)
        result = []
        for docname in content_pages(env):
            page = srcdir / f"{docname}.md"
            env.note_dependency(str(page))
            exercises = page_exercises(page)
            if not exercises:
                continue
            item = nodes.container(classes=["exercise-list-page"])
            title = nodes.paragraph()
            xref = addnodes.pending_xref(
                "", refdomain="std", reftype="doc", reftarget="/" + docname, refexplicit=False
            )
            xref += nodes.inline(text=docname)
            title += nodes.strong("", "", xref)
            item += title
            links = nodes.paragraph()
            section = addnodes.pending_xref(
                "",
                refdomain="std",
                reftype="ref",
                reftarget=exercises_label(docname),
                refexplicit=True,
            )
            section += nodes.inline(text=_text(config, "questions") + f" ({len(exercises)})")
            links += section
            links += nodes.Text(" · " + _text(config, "downloads") + ": ")
            up = "../" * env.docname.count("/")
            links += nodes.reference(
                "", _text(config, "handout"), refuri=f"{up}{DOWNLOADS}/{docname}.ipynb"
            )
            links += nodes.Text(" · ")
            links += nodes.reference(
                "", _text(config, "answers"), refuri=f"{up}{DOWNLOADS}/{docname}-answers.md"
            )
            item += links
            listing = nodes.enumerated_list()
            for exercise in exercises:
                entry = nodes.list_item()
                self.state.nested_parse(
                    StringList(exercise["question"].splitlines()), self.content_offset, entry
                )
                entry += nodes.paragraph("", "", nodes.literal(text=exercise["snippet"] + ".py"))
                listing += entry
            item += listing
            result.append(item)
        return result


def content_pages(env) -> list[str]:
    """The pages listed in the root page's toctrees (one per part of the sidebar), in order."""
    root = Path(env.srcdir) / f"{env.config.root_doc}.md"
    env.note_dependency(str(root))
    text = root.read_text(encoding="utf-8")
    blocks = [part.split("\n```", 1)[0] for part in text.split("```{toctree}")[1:]]
    names = [
        line.strip()
        for block in blocks
        for line in block.splitlines()
        if line.strip() and not line.startswith(":")
    ]
    return [name for name in names if (Path(env.srcdir) / f"{name}.md").exists()]


# ---------------------------------------------------------------------------------------------
# Course kit files


def exercise_notebook(docname: str, title: str, exercises: list[dict], config) -> dict:
    """The questions and their code cells, without outputs, after the cells that install what
    they need beyond torch; it links back to the page on the published site."""
    link = page_url(config, docname, exercises_label(docname))
    cells = [
        markdown_cell(
            "# " + _text(config, "notebook_title").format(page=title) + "\n\n"
            f"{_text(config, 'site')}[{docname}]({link})\n\n{_text(config, 'notebook_intro')}"
        )
    ]
    cells += setup_cells([Snippet(SNIPPETS / f"{e['snippet']}.py") for e in exercises])
    for exercise in exercises:
        snippet = Snippet(SNIPPETS / f"{exercise['snippet']}.py")
        cells.append(markdown_cell(exercise["question"]))
        cells.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "id": "",
                "metadata": {"tags": ["raises-exception"]} if snippet.raises else {},
                "outputs": [],
                "source": snippet.source.rstrip("\n"),
            }
        )
    return notebook_document(cells)


def answers_markdown(docname: str, title: str, exercises: list[dict], config) -> str:
    lines = ["# " + _text(config, "answers_title").format(page=title), ""]
    for exercise in exercises:
        snippet = Snippet(SNIPPETS / f"{exercise['snippet']}.py")
        printed, error = transcripts.recorded_output(snippet)
        header = transcripts.read_header(snippet.transcript("cpu"))
        output = (printed + (error or "")).rstrip("\n")
        lines += [
            exercise["question"],
            "",
            "```python",
            snippet.source.rstrip("\n"),
            "```",
            "",
            _text(config, "output").format(torch=header.get("Torch", "?")),
            "",
            "```text",
            output,
            "```",
            "",
            f"{_text(config, 'why')}{exercise['reason']}",
            "",
            "---",
            "",
        ]
    return "\n".join(lines)


def write_kit(app: Sphinx, exception) -> None:
    # (not for the PDF book's single page, whatcopy/site/book.py: its links go to the site's)
    if exception is not None or app.builder.format != "html" or app.builder.name == "singlehtml":
        return
    found = getattr(app.env, "exercises_found", {})
    out = Path(app.outdir) / DOWNLOADS
    out.mkdir(parents=True, exist_ok=True)
    for docname, exercises in sorted(found.items()):
        title = app.env.titles[docname].astext()
        notebook = exercise_notebook(docname, title, exercises, app.config)
        (out / f"{docname}.ipynb").write_text(
            json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        (out / f"{docname}-answers.md").write_text(
            answers_markdown(docname, title, exercises, app.config), encoding="utf-8"
        )


class ExerciseRecords(build_guards.PageRecords):
    """Each page's exercises (env.exercises_found), for the exercise list and the kit."""

    name = "exercises_found"


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    app.add_node(
        exercise_answer,
        html=(visit_exercise_answer, depart_exercise_answer),
        latex=(skip, skip),
        text=(skip, skip),
    )
    app.add_directive("exercise", ExerciseQuestion)
    app.add_directive("answer", ExerciseAnswer)
    app.add_directive("exercise-list", ExerciseList)
    # After snippet_cells (priority 500) has read the outputs and resolved the {out} roles.
    app.connect("doctree-read", fold_answers, priority=600)
    app.add_env_collector(ExerciseRecords)
    # After course_kit.py (priority 500), which empties downloads/ before writing it.
    app.connect("build-finished", write_kit, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
