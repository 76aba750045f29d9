"""`nox -s lint` and the pre-commit hooks run the same ruff, at the same version."""

from __future__ import annotations

import re

import yaml
from project import ROOT


def pinned(path: str) -> set[str]:
    return set(re.findall(r"^ruff==(\S+)", (ROOT / path).read_text(), re.MULTILINE))


def test_pre_commit_runs_the_pinned_ruff_as_nox_lint_does():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    lint = pinned("requirements/lint.txt")
    assert len(lint) == 1 and lint == pinned("requirements/constraints.txt"), lint
    for name in ("ruff-check", "ruff-format"):
        assert hooks[name]["additional_dependencies"] == [f"ruff=={next(iter(lint))}"], hooks[name]
    noxfile = (ROOT / "noxfile.py").read_text()
    assert '"ruff", "check", "."' in noxfile and '"ruff", "format", "--check", "."' in noxfile
    assert hooks["ruff-check"]["entry"].startswith("ruff check")
    assert hooks["ruff-format"]["entry"].startswith("ruff format --check")
