"""A snippet that catches an error or records warnings shows their messages in full: it keeps
the caught exception and uses it as a whole (not only ``type(error).__name__``, not cut with
``.split(...)[0]``), and it reads ``.message`` of the warnings it records, uncut. A snippet that
ignores warnings fails too. Read from the snippets' source (no run): the transcripts show what
was printed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from project import ROOT, SNIPPETS

CUTTING = {"split", "rsplit", "partition", "rpartition", "splitlines"}


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _cut(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str | None:
    """How a use of a message is cut or reduced, if it is: ``type(...)``, ``.split(...)``, a
    slice or an index."""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name):
            if parent.func.id == "type" and child in parent.args:
                return "type(...)"
            if parent.func.id == "len":
                return "len(...)"
        if isinstance(parent, ast.Attribute) and parent.attr in CUTTING:
            return f".{parent.attr}(...)"
        if isinstance(parent, ast.Subscript) and parent.value is child:
            return "an index or a slice"
        child, parent = parent, parents.get(parent)
    return None


def _is_catch_warnings(call: ast.AST) -> bool:
    return (
        isinstance(call, ast.Call)
        and (getattr(call.func, "attr", None) or getattr(call.func, "id", None)) == "catch_warnings"
    )


def message_problems(path: Path) -> list[str]:
    """One line per place where the snippet drops, cuts or ignores a message."""
    rel = path.relative_to(ROOT).as_posix() if ROOT in path.parents else str(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = _parents(tree)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler):
            if any(isinstance(n, ast.Raise) for n in ast.walk(node)):
                continue  # raised again: the message goes on
            if node.name is None:
                problems.append(
                    f"{rel}:{node.lineno}: catches an exception without keeping it "
                    f"(`except ... as error:`) to print its message in full"
                )
                continue
            uses = [
                n
                for statement in node.body
                for n in ast.walk(statement)
                if isinstance(n, ast.Name) and n.id == node.name
            ]
            cuts = [_cut(use, parents) for use in uses]
            if not any(cut is None for cut in cuts):
                how = ", ".join(sorted({c for c in cuts if c})) or "not at all"
                problems.append(
                    f"{rel}:{node.lineno}: uses the caught {node.name!r} only through {how}; "
                    'print the message in full: f"{type(error).__name__}: {error}"'
                )
        elif isinstance(node, ast.withitem) and _is_catch_warnings(node.context_expr):
            call = node.context_expr
            record = any(
                k.arg == "record" and isinstance(k.value, ast.Constant) and k.value.value
                for k in call.keywords
            )
            if not record:
                continue  # a filter change is checked below
            if node.optional_vars is None:
                problems.append(
                    f"{rel}:{call.lineno}: records warnings and drops them; write `as caught` "
                    "and print each warning's category and message"
                )
                continue
            messages = [
                n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "message"
            ]
            if not any(_cut(n, parents) is None for n in messages):
                problems.append(
                    f"{rel}:{call.lineno}: records warnings but never prints a warning's "
                    "`.message` in full"
                )
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in (
            "simplefilter",
            "filterwarnings",
        ):
            action = node.args[0] if node.args else None
            if isinstance(action, ast.Constant) and action.value == "ignore":
                problems.append(f"{rel}:{node.lineno}: ignores warnings; record and print them")
    return problems


SNIPPET_FILES = sorted(SNIPPETS.rglob("*.py"))


@pytest.mark.parametrize("path", SNIPPET_FILES, ids=lambda p: p.relative_to(SNIPPETS).as_posix())
def test_a_snippet_shows_each_message_it_catches_in_full(path):
    problems = message_problems(path)
    assert not problems, "\n".join(problems)


BAD = {
    "bare_except.py": "try:\n    1 / 0\nexcept ZeroDivisionError:\n    print('failed')\n",
    "class_only.py": (
        "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n"
        "    print('failed:', type(error).__name__)\n"
    ),
    "first_sentence.py": (
        "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n"
        "    print('failed:', str(error).split('.')[0])\n"
    ),
    "unused.py": "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n    outcome = 'no'\n",
    "swallowed.py": (
        "import warnings\nwith warnings.catch_warnings(record=True):\n"
        "    warnings.warn('careful')\n"
    ),
    "counted.py": (
        "import warnings\nwith warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.warn('careful')\nprint('warnings:', len(caught))\n"
    ),
    "category_only.py": (
        "import warnings\nwith warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.warn('careful')\nprint(caught[0].category.__name__)\n"
    ),
    "cut_warning.py": (
        "import warnings\nwith warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.warn('careful. really')\nprint(str(caught[0].message).split('. ')[0])\n"
    ),
    "ignored.py": (
        "import warnings\nwith warnings.catch_warnings():\n"
        "    warnings.simplefilter('ignore')\n    warnings.warn('careful')\n"
    ),
}
GOOD = {
    "full_error.py": (
        "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n"
        "    print('failed:', f'{type(error).__name__}: {error}')\n"
    ),
    "kept_error.py": (
        "messages = {}\ntry:\n    1 / 0\nexcept ZeroDivisionError as error:\n"
        "    messages['x'] = str(error)\nprint(messages)\n"
    ),
    "full_warning.py": (
        "import warnings\nwith warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.warn('careful')\nfor w in caught:\n"
        "    print(f'{w.category.__name__}: {w.message}')\n"
    ),
    "reraised.py": "try:\n    1 / 0\nexcept ZeroDivisionError:\n    raise\n",
}


def test_the_check_catches_a_dropped_cut_or_ignored_message_and_passes_a_full_one(tmp_path):
    for name, source in {**BAD, **GOOD}.items():
        (tmp_path / name).write_text(source, encoding="utf-8")
    for name in BAD:
        problems = message_problems(tmp_path / name)
        assert len(problems) == 1 and problems[0].startswith(str(tmp_path / name)), (name, problems)
    for name in GOOD:
        assert message_problems(tmp_path / name) == [], name
