"""Stale transcripts are loud: `python -m whatcopy stale` (and every build) prints one line per
transcript recorded for another version of its snippet, with the command that records it, and
the deploy workflow refuses to publish with any. Reads headers only: no snippet runs."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import yaml
from project import ROOT

from whatcopy.core import transcripts
from whatcopy.site import build as site_build

NAME = "detach/stops_gradient"


def copy_project(tmp_path):
    """A project of one snippet and its CPU transcript, as committed (so not stale)."""
    for rel in (f"snippets/{NAME}.py", f"transcripts/cpu/{NAME}.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / rel, tmp_path / rel)
    (tmp_path / "generators").mkdir()
    return tmp_path


def stale(repo, capsys) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = transcripts.stale_main(["--root", str(repo)])
    return code, capsys.readouterr().out.splitlines()


def test_no_transcript_is_stale_now():
    assert transcripts.stale_lines() == []


def test_an_edited_snippet_is_named_with_the_command_that_records_it(tmp_path, capsys):
    repo = copy_project(tmp_path)
    assert stale(repo, capsys) == (0, ["no stale transcript"])
    snippet = repo / "snippets" / f"{NAME}.py"
    snippet.write_text(snippet.read_text() + "print('one more line')\n")  # the seeded fault
    code, lines = stale(repo, capsys)
    assert code == 1
    assert lines == [
        (
            f"stale: transcripts/cpu/{NAME}.txt was recorded for another version of "
            f"snippets/{NAME}.py; record it: python3 -m nox -s record -- snippets/{NAME}.py"
        ),
        "1 stale transcript(s)",
    ]


def test_the_command_line_runs_without_torch_or_sphinx(tmp_path):
    """The deploy workflow runs it with the container's bare python3: the standard library only
    (as `python3 -I` with the repository alone on the path)."""
    repo = copy_project(tmp_path)
    (repo / "snippets" / f"{NAME}.py").write_text("print('changed')\n")
    guard = (
        "import sys; sys.path[:0] = [sys.argv[1]]; "
        "sys.modules.update(torch=None, sphinx=None, numpy=None); "
        "from whatcopy.__main__ import main; sys.exit(main(['stale', '--root', sys.argv[2]]))"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", guard, str(ROOT), str(repo)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert f"stale: transcripts/cpu/{NAME}.txt" in result.stdout


def test_the_build_prints_them(tmp_path, capsys):
    repo = copy_project(tmp_path)
    (repo / "snippets" / f"{NAME}.py").write_text("print('changed')\n")
    previous = transcripts.set_root(repo)
    try:
        lines = site_build.report_stale()
    finally:
        transcripts.set_root(previous)
    assert len(lines) == 1 and capsys.readouterr().out == lines[0] + "\n"


def publishing_steps(text: str) -> list[str]:
    """The `run` and `uses` of the steps of the job that hands the site to GitHub Pages."""
    workflow = yaml.safe_load(text)
    for job in workflow["jobs"].values():
        steps = [step.get("run") or step.get("uses", "") for step in job.get("steps", [])]
        if any(s.startswith("actions/upload-pages-artifact") for s in steps):
            return steps
    return []


def refuses_stale(text: str) -> bool:
    """A step runs `python3 -m whatcopy stale` before the site is handed to the deploy job."""
    steps = publishing_steps(text)
    upload = next(i for i, s in enumerate(steps) if s.startswith("actions/upload-pages-artifact"))
    return any(re.search(r"-m whatcopy stale\b", s) for s in steps[:upload])


def test_the_deploy_workflow_refuses_to_publish_with_a_stale_transcript():
    text = (ROOT / ".github" / "workflows" / "site.yml").read_text(encoding="utf-8")
    assert refuses_stale(text), "site.yml must run `python3 -m whatcopy stale` before publishing"
    # the seeded fault: the step moved after the upload, or gone
    without = text.replace("python3 -m whatcopy stale", "echo skipped")
    assert not refuses_stale(without)
