"""Every snippet, run alone with only torch and numpy, prints exactly what its recorded
transcript says, per device; and the harness reports each way a snippet can go wrong."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from project import BUILD, NOTES, ROOT, clean_python

from whatcopy.core import runner, transcripts

SNIPPETS = transcripts.all_snippets()
GENERATORS = transcripts.all_generators()  # generators/: may need more than torch and numpy


@pytest.fixture(scope="session")
def clean_env_python(tmp_path_factory):
    """An interpreter that can import torch, numpy, what they need and nothing else."""
    return clean_python(tmp_path_factory.mktemp("clean-env"))


def check_every_snippet(python: Path) -> tuple[dict[str, list[str]], str]:
    """Each snippet's problems (none when it passed), and how they were found.

    A snippet the site build ran is judged from that run (docs/_build/runs, whatcopy/core/runs.py):
    the build runs each snippet in a fresh fork of an interpreter that has only torch, NumPy and
    what they need (whatcopy/execution/clean_env.py), from an empty folder, and records its
    problems and what each statement printed, which is compared with its transcript here, so
    each snippet runs once in the suite. The others (none on a built site but a generator no page shows) are checked here,
    in one transcript check in such an interpreter."""
    from whatcopy.core import runs

    problems, unrun = {}, []
    for snippet in SNIPPETS:
        run = runs.load(BUILD, snippet)
        if run is None:
            unrun.append(snippet)
        else:
            problems[snippet.name] = run["problems"] or runner.against_transcript(
                snippet, "cpu", run
            )
    timing = transcripts.Timing([], [])
    outcomes = transcripts.run_many(
        transcripts.check_one, unrun, "cpu", python=str(python), clean=True, timing=timing
    )
    problems.update({outcome.snippet.name: outcome.problems for outcome in outcomes})
    return problems, f"{len(SNIPPETS) - len(unrun)} judged from the site build's runs; " + (
        timing.summary() if unrun else "none run again"
    )


@pytest.fixture(scope="session")
def cpu_outcomes(clean_env_python, request, tmp_path_factory) -> dict[str, list[str]]:
    """The check runs once per test session: under pytest-xdist the first worker to get here
    runs it and writes the results where the other workers (waiting on a lock) read them.
    (xdist's own way to keep tests on one worker, `--dist loadgroup`, groups nothing under
    pytest 9.2: pytest-dev/pytest-xdist#1386.)"""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        problems, timing = check_every_snippet(clean_env_python)
    else:
        shared = tmp_path_factory.getbasetemp().parent  # this session's, common to its workers
        results = shared / "cpu-outcomes.json"
        with (shared / "cpu-outcomes.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if results.exists():
                problems, timing = json.loads(results.read_text(encoding="utf-8")), None
            else:
                problems, timing = check_every_snippet(clean_env_python)
                results.write_text(json.dumps(problems), encoding="utf-8")
    if timing:
        request.config.stash.setdefault(NOTES, []).append("transcript check: " + timing)
    return problems


@pytest.mark.parametrize("name", [s.name for s in SNIPPETS])
def test_snippet_runs_alone_and_prints_its_cpu_transcript(name, cpu_outcomes):
    """One run checks both: in a fresh process of an interpreter that has only torch and numpy,
    from an empty folder, the snippet prints exactly its transcript, raises only the recorded
    exception (on its last line) and writes nothing to stderr; so `python snippet.py` works
    for a reader who installed nothing else."""
    problems = cpu_outcomes[name]
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="session")
def generators_env_python(tmp_path_factory):
    """An interpreter that can import what requirements/generators.txt names (torch, numpy,
    expecttest), what they need, and nothing else."""
    folder = tmp_path_factory.mktemp("generators-env")
    # Found, without importing torch (2 s): the check's fork server imports it right after.
    probe = (
        "import importlib.util as u, sys; found = lambda m: u.find_spec(m) is not None; "
        "sys.exit(0 if all(map(found, ['torch', 'numpy', 'expecttest'])) "
        "and not found('sphinx') and not found('pytest') else 3)"
    )
    return clean_python(folder, ROOT / "requirements" / "generators.txt", probe)


@pytest.mark.parametrize("name", [g.name for g in GENERATORS])
def test_generator_runs_alone_and_prints_its_cpu_transcript(name, generators_env_python, request):
    """A generator's transcript is checked as a snippet's is, in a fresh process of an
    interpreter that has only what requirements/generators.txt names: from the site build's
    run where a page shows it (check_every_snippet), else here."""
    from whatcopy.core import runs

    run = runs.load(BUILD, transcripts.by_name(name))
    if run is not None:
        problems = run["problems"] or runner.against_transcript(
            transcripts.by_name(name), "cpu", run
        )
        assert not problems, "\n".join(problems)
        return
    timing = transcripts.Timing([], [])
    [outcome] = transcripts.run_many(
        transcripts.check_one,
        [transcripts.by_name(name)],
        "cpu",
        python=str(generators_env_python),
        clean=True,
        timing=timing,
    )
    request.config.stash.setdefault(NOTES, []).append(f"{name} check: {timing.summary()}")
    assert not outcome.problems, "\n".join(outcome.problems)


@pytest.mark.parametrize("device", transcripts.DEVICES)
def test_every_transcript_has_its_snippet(device):
    orphans = [str(p.relative_to(ROOT)) for p in transcripts.orphans(device)]
    assert not orphans, "transcripts of snippets that no longer exist: " + ", ".join(orphans)


def test_cuda_transcripts_match_a_fresh_run():
    if not transcripts.cuda_available():
        missing = [s.rel for s in SNIPPETS + GENERATORS if not s.transcript("cuda").exists()]
        stale = [
            s.rel
            for s in SNIPPETS + GENERATORS
            if s.transcript("cuda").exists()
            and transcripts.read_header(s.transcript("cuda")).get("Source-SHA256") != s.sha256
        ]
        pytest.skip(
            f"no CUDA device here: CUDA transcripts are checked by `nox -s cuda` on a GPU "
            f"machine ({len(missing)} not recorded yet, {len(stale)} outdated)"
        )
    outcomes = transcripts.run_many(transcripts.check_one, SNIPPETS + GENERATORS, "cuda")
    problems = [p for o in outcomes for p in o.problems]
    assert not problems, "\n\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The harness itself, in a throwaway repository: each way a snippet can go wrong is reported
# with the snippet's file and line.


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    return tmp_path


def write(repo, name, source):
    path = repo / "snippets" / "demo" / f"{name}.py"
    path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server():
    """One fork server for the harness tests: each snippet still runs in a fresh process."""
    server = transcripts.ForkServer("cpu")
    yield server
    server.close()


@pytest.fixture
def harness(server, capsys):
    """`harness(repo, "record")`: the command line on the throwaway project, in this process."""

    def run(repo, *args):
        capsys.readouterr()
        code = transcripts.main(["--root", str(repo), *args], server=server)
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)

    return run


GOOD = '''
    """Doubling a tensor."""
    import torch

    x = torch.tensor([1.0, 2.0])
    for factor in (2, 3):
        print("scaled:", x * factor)

    print("")
    '''


# The standard-library core of the package: all a bare GPU machine with torch needs to record
# (the command line, the paths and languages tables it reads, and the core layer).
CORE = ("__init__.py", "__main__.py", "project.py", "languages.py", "languages.json")
CORE += tuple(f"core/{path.name}" for path in (ROOT / "whatcopy" / "core").glob("*.py"))


def test_record_writes_a_transcript_that_doctest_replays(repo, harness, clean_env_python):
    """Recording through the command line as a GPU runner uses it (`python -m
    whatcopy record` from the repository root, by an interpreter with only torch and numpy
    and the package's core files); doctest replays what it wrote, and the check passes."""
    (repo / "whatcopy" / "core").mkdir(parents=True)
    for name in CORE:
        shutil.copy(ROOT / "whatcopy" / name, repo / "whatcopy" / name)
    write(repo, "good", GOOD)
    command = [str(clean_env_python), "-m", "whatcopy"]
    bare = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    record = subprocess.run(
        [*command, "record"], cwd=repo, capture_output=True, text=True, check=False, env=bare
    )
    assert record.returncode == 0, record.stderr
    assert "1 snippets forked from 1 server(s) that imported torch" in record.stdout
    transcript = repo / "transcripts" / "cpu" / "demo" / "good.txt"
    text = transcript.read_text()
    assert "Claim: Doubling a tensor." in text
    assert '>>> for factor in (2, 3):\n...     print("scaled:", x * factor)\n' in text
    assert "scaled: tensor([2., 4.])\nscaled: tensor([3., 6.])\n" in text
    assert "<BLANKLINE>" in text
    replay = subprocess.run(
        [sys.executable, "-m", "doctest", str(transcript)], capture_output=True, check=False
    )
    assert replay.returncode == 0, replay.stdout
    check = harness(repo, "check")
    assert check.returncode == 0, check.stderr


def test_a_declared_exception_is_recorded_and_checked(repo, harness):
    write(
        repo,
        "fails",
        '''
        """Shapes must agree."""
        import torch

        torch.ones(2) @ torch.ones(3)  # raises RuntimeError
        ''',
    )
    assert harness(repo, "record").returncode == 0
    text = (repo / "transcripts" / "cpu" / "demo" / "fails.txt").read_text()
    assert (
        "Traceback (most recent call last):\n    ...\nRuntimeError: inconsistent tensor size"
        in text
    )
    assert harness(repo, "check").returncode == 0


def test_an_unexpected_exception_names_the_line(repo, harness):
    write(
        repo,
        "boom",
        '''
        """Oops."""
        import torch

        a = torch.ones(2)
        b = a @ torch.ones(3)
        print("never")
        ''',
    )
    result = harness(repo, "record")
    assert result.returncode == 1
    assert "snippets/demo/boom.py:5: unexpected RuntimeError" in result.stderr
    assert 'File "snippets/demo/boom.py", line 5' in result.stderr


def test_a_declared_exception_of_another_type_fails(repo, harness):
    write(
        repo,
        "wrong",
        '''
        """Oops."""
        import torch

        torch.ones(2) @ torch.ones(3)  # raises ValueError
        ''',
    )
    result = harness(repo, "record")
    assert (
        "snippets/demo/wrong.py:4: declared '# raises ValueError' but raised RuntimeError"
        in result.stderr
    )


def test_a_declared_exception_that_does_not_happen_fails(repo, harness):
    write(
        repo,
        "calm",
        '''
        """Calm."""
        print("fine")  # raises RuntimeError
        ''',
    )
    result = harness(repo, "record")
    assert (
        "snippets/demo/calm.py:2: declared '# raises RuntimeError' but ran without raising"
        in result.stderr
    )


def test_a_hanging_snippet_is_stopped_and_named(repo, harness, monkeypatch):
    write(
        repo,
        "hangs",
        '''
        """Never ends."""
        import time

        while True:
            time.sleep(0.1)
        ''',
    )
    monkeypatch.setenv("SNIPPET_TIMEOUT", "2")
    result = harness(repo, "record")
    assert "snippets/demo/hangs.py:4: still running after 2 s" in result.stderr


def test_a_value_only_a_notebook_would_show_is_rejected(repo, harness):
    write(
        repo,
        "echo",
        '''
        """Echo."""
        import torch

        x = torch.zeros(2)
        x.add_(1)
        ''',
    )
    result = harness(repo, "record")
    assert "snippets/demo/echo.py:5: this expression evaluates to Tensor" in result.stderr


def test_a_warning_on_stderr_is_rejected(repo, harness):
    write(
        repo,
        "warns",
        '''
        """Warns."""
        import warnings

        warnings.warn("careful")
        ''',
    )
    result = harness(repo, "record")
    assert "snippets/demo/warns.py: wrote to stderr" in result.stderr and "careful" in result.stderr


def test_a_snippet_without_transcript_fails_the_check(repo, harness):
    write(repo, "good", GOOD)
    result = harness(repo, "check")
    assert (
        "snippets/demo/good.py: no cpu transcript (transcripts/cpu/demo/good.txt)" in result.stderr
    )


def test_a_snippet_edited_after_recording_fails_the_check(repo, harness):
    path = write(repo, "good", GOOD)
    harness(repo, "record")
    path.write_text(path.read_text().replace("(2, 3)", "(2, 4)"))
    result = harness(repo, "check")
    assert (
        "snippets/demo/good.py changed after transcripts/cpu/demo/good.txt was recorded"
        in result.stderr
    )


def test_changed_behaviour_fails_the_check_with_a_diff(repo, harness):
    answer = repo / "answer.txt"
    answer.write_text("42")
    write(
        repo,
        "env",
        f'''
        """Reads a file, standing in for a library that changed its behaviour."""
        from pathlib import Path

        print("answer:", Path({str(answer)!r}).read_text())
        ''',
    )
    harness(repo, "record")
    answer.write_text("41")
    result = harness(repo, "check")
    assert result.returncode == 1
    assert (
        "snippets/demo/env.py:4: output differs from transcripts/cpu/demo/env.txt" in result.stderr
    )
    assert "Expected:\n    answer: 42\nGot:\n    answer: 41" in result.stderr


def test_a_transcript_of_a_deleted_snippet_fails_the_check(repo, harness):
    path = write(repo, "good", GOOD)
    harness(repo, "record")
    path.unlink()
    result = harness(repo, "check")
    assert (
        "transcripts/cpu/demo/good.txt: transcript of a snippet that no longer exists"
        in result.stderr
    )


def test_each_forked_snippet_gets_fresh_random_state(repo, harness):
    """Forked children would all inherit the server's generators; each is reseeded, as a fresh
    interpreter is, so two runs of an unseeded snippet differ."""
    write(
        repo,
        "dice",
        '''
        """Unseeded."""
        import random

        import numpy
        import torch

        print("draws:", torch.rand(1).item(), random.random(), numpy.random.rand())
        ''',
    )
    harness(repo, "record")
    first = (repo / "transcripts/cpu/demo/dice.txt").read_text()
    result = harness(repo, "check")
    assert result.returncode == 1 and "output differs" in result.stderr, result.stderr
    [recorded] = [line.split()[1:] for line in first.splitlines() if line.startswith("draws:")]
    got = result.stderr.split("Got:\n")[1].split()[1:4]
    assert all(a != b for a, b in zip(recorded, got, strict=True)), (recorded, got)


def test_the_clean_run_sees_only_torch_and_numpy(repo, clean_env_python):
    """The run that checks the transcripts is also the check that a snippet runs alone: a
    snippet importing anything else (a docs or test tool, the harness, the tests' helpers, what
    only the generators may use) fails there, naming its line."""
    modules = ["sphinx", "pytest", "transcripts", "project", "expecttest"]
    for module in modules:
        write(
            repo,
            f"leans_on_{module}",
            f'''
            """Leans on {module}."""
            import torch
            import {module}
            ''',
        )
    previous = transcripts.set_root(repo)
    try:
        snippets = [transcripts.Snippet(repo / f"snippets/demo/leans_on_{m}.py") for m in modules]
        found = transcripts.run_many(
            lambda s, device, server: transcripts.diagnose(s, device, server),
            snippets,
            "cpu",
            jobs=1,
            python=str(clean_env_python),
            clean=True,
        )
    finally:
        transcripts.set_root(previous)
    for module, problems in zip(modules, found, strict=True):
        expected = f"snippets/demo/leans_on_{module}.py:3: unexpected ModuleNotFoundError"
        assert any(expected in p for p in problems), problems


def test_a_weekly_workflow_replays_the_transcripts_on_the_newest_torch():
    """PyTorch's behaviour can move under the pinned version's feet: a scheduled workflow replays
    every CPU transcript against the newest release, apart from the deploying workflow."""
    import yaml

    path = ROOT / ".github/workflows/newest-torch.yml"
    workflow = yaml.safe_load(path.read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as True
    assert triggers.get("schedule"), f"{path}: no schedule"
    text = path.read_text()
    assert "https://download.pytorch.org/whl/cpu torch numpy" in text, "not the newest CPU wheel"
    assert "python -m whatcopy check" in text
    # the generators need expecttest, at its pinned version; the reference's changed rows
    assert "grep -E '^expecttest==' requirements/generators.txt" in text
    assert "python -m whatcopy.reference.op_table changed" in text
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    uses = [step.get("uses", "") for step in steps]
    assert not any("deploy" in u or "pages" in u for u in uses), f"{path} must not deploy"
    assert workflow["permissions"] == {"contents": "read"}, f"{path} needs no write access"
