"""`nox -s lint` and the pre-commit hooks run the same ruff, at the same version; the package's
import layers (pyproject.toml's contracts) hold, and they refuse an import that breaks them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
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


def lint_imports(package_root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` with the project's contracts, over the package found in `package_root`."""
    return subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), str(ROOT / "pyproject.toml")],
        cwd=package_root,
        env={**os.environ, "PYTHONPATH": str(package_root)},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_package_keeps_its_layers_and_nox_lint_checks_them():
    noxfile = (ROOT / "noxfile.py").read_text()
    assert 'session.run("lint-imports")' in noxfile
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout, result.stdout


# a seeded import, and the end of the name of the contract it breaks (lint-imports wraps names)
SEEDED = {
    "an upward import": ("core/snippets.py", "from whatcopy.site import build", "shared tables"),
    "Sphinx in the core": ("core/child.py", "import sphinx.application", "torch"),
    "a circle": ("site/build.py", "from whatcopy.site import book", "through others"),
}


@pytest.mark.parametrize("case", SEEDED)
def test_the_layer_contracts_refuse_a_seeded_import(case, tmp_path):
    module, line, contract = SEEDED[case]
    shutil.copytree(
        ROOT / "whatcopy", tmp_path / "whatcopy", ignore=shutil.ignore_patterns("__pycache__")
    )
    path = tmp_path / "whatcopy" / module
    path.write_text(path.read_text() + f"\n{line}  # seeded\n")
    result = lint_imports(tmp_path)
    assert result.returncode != 0, result.stdout
    broken = [row for row in result.stdout.splitlines() if row.endswith(" BROKEN")]
    assert any(row.endswith(f"{contract} BROKEN") for row in broken), result.stdout
    # the report names the importing module (in full, or relative to its package)
    assert re.search(rf"\b{Path(module).stem}\b -> ", result.stdout), result.stdout
