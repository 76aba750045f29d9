"""Every snippet, run afresh, prints exactly what its recorded transcript says, per device."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from project import ROOT

import transcripts

SNIPPETS = transcripts.all_snippets()


@pytest.fixture(scope="session")
def cpu_outcomes():
    outcomes = transcripts.run_many(transcripts.check_one, SNIPPETS, "cpu")
    return {outcome.snippet.name: outcome for outcome in outcomes}


@pytest.mark.parametrize("name", [s.name for s in SNIPPETS])
def test_cpu_transcript_matches_a_fresh_run(name, cpu_outcomes):
    outcome = cpu_outcomes[name]
    assert outcome.ok, "\n".join(outcome.problems)


@pytest.mark.parametrize("device", transcripts.DEVICES)
def test_every_transcript_has_its_snippet(device):
    orphans = [str(p.relative_to(ROOT)) for p in transcripts.orphans(device)]
    assert not orphans, "transcripts of snippets that no longer exist: " + ", ".join(orphans)


def test_cuda_transcripts_match_a_fresh_run():
    if not transcripts.cuda_available():
        missing = [s.rel for s in SNIPPETS if not s.transcript("cuda").exists()]
        stale = [
            s.rel for s in SNIPPETS
            if s.transcript("cuda").exists()
            and transcripts.read_header(s.transcript("cuda")).get("Source-SHA256") != s.sha256
        ]
        pytest.skip(
            f"no CUDA device here: CUDA transcripts are checked by `nox -s cuda` on a GPU "
            f"machine ({len(missing)} not recorded yet, {len(stale)} outdated)"
        )
    outcomes = transcripts.run_many(transcripts.check_one, SNIPPETS, "cuda")
    problems = [p for o in outcomes for p in o.problems]
    assert not problems, "\n\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The harness itself, in a throwaway repository: each way a snippet can go wrong is reported
# with the snippet's file and line.


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "transcripts.py", tmp_path / "tools")
    (tmp_path / "snippets" / "demo").mkdir(parents=True)
    return tmp_path


def write(repo, name, source):
    path = repo / "snippets" / "demo" / f"{name}.py"
    path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return path


def harness(repo, *args, **env):
    return subprocess.run(
        [sys.executable, str(repo / "tools" / "transcripts.py"), *args],
        cwd=repo, capture_output=True, text=True, env={**os.environ, **env},
    )


GOOD = '''
    """Doubling a tensor."""
    import torch

    x = torch.tensor([1.0, 2.0])
    for factor in (2, 3):
        print("scaled:", x * factor)

    print("")
    '''


def test_record_writes_a_transcript_that_doctest_replays(repo):
    write(repo, "good", GOOD)
    assert harness(repo, "record").returncode == 0
    transcript = repo / "transcripts" / "cpu" / "demo" / "good.txt"
    text = transcript.read_text()
    assert "Claim: Doubling a tensor." in text
    assert ">>> for factor in (2, 3):\n...     print(\"scaled:\", x * factor)\n" in text
    assert "scaled: tensor([2., 4.])\nscaled: tensor([3., 6.])\n" in text
    assert "<BLANKLINE>" in text
    replay = subprocess.run([sys.executable, "-m", "doctest", str(transcript)], capture_output=True)
    assert replay.returncode == 0, replay.stdout
    check = harness(repo, "check")
    assert check.returncode == 0, check.stderr


def test_a_declared_exception_is_recorded_and_checked(repo):
    write(repo, "fails", '''
        """Shapes must agree."""
        import torch

        torch.ones(2) @ torch.ones(3)  # raises RuntimeError
        ''')
    assert harness(repo, "record").returncode == 0
    text = (repo / "transcripts" / "cpu" / "demo" / "fails.txt").read_text()
    assert "Traceback (most recent call last):\n    ...\nRuntimeError: inconsistent tensor size" in text
    assert harness(repo, "check").returncode == 0


def test_an_unexpected_exception_names_the_line(repo):
    write(repo, "boom", '''
        """Oops."""
        import torch

        a = torch.ones(2)
        b = a @ torch.ones(3)
        print("never")
        ''')
    result = harness(repo, "record")
    assert result.returncode == 1
    assert "snippets/demo/boom.py:5: unexpected RuntimeError" in result.stderr
    assert 'File "snippets/demo/boom.py", line 5' in result.stderr


def test_a_declared_exception_of_another_type_fails(repo):
    write(repo, "wrong", '''
        """Oops."""
        import torch

        torch.ones(2) @ torch.ones(3)  # raises ValueError
        ''')
    result = harness(repo, "record")
    assert "snippets/demo/wrong.py:4: declared '# raises ValueError' but raised RuntimeError" in result.stderr


def test_a_declared_exception_that_does_not_happen_fails(repo):
    write(repo, "calm", '''
        """Calm."""
        print("fine")  # raises RuntimeError
        ''')
    result = harness(repo, "record")
    assert "snippets/demo/calm.py:2: declared '# raises RuntimeError' but ran without raising" in result.stderr


def test_a_hanging_snippet_is_stopped_and_named(repo):
    write(repo, "hangs", '''
        """Never ends."""
        import time

        while True:
            time.sleep(0.1)
        ''')
    result = harness(repo, "record", SNIPPET_TIMEOUT="5")
    assert "snippets/demo/hangs.py:4: still running after 5 s" in result.stderr


def test_a_value_only_a_notebook_would_show_is_rejected(repo):
    write(repo, "echo", '''
        """Echo."""
        import torch

        x = torch.zeros(2)
        x.add_(1)
        ''')
    result = harness(repo, "record")
    assert "snippets/demo/echo.py:5: this expression evaluates to Tensor" in result.stderr


def test_a_warning_on_stderr_is_rejected(repo):
    write(repo, "warns", '''
        """Warns."""
        import warnings

        warnings.warn("careful")
        ''')
    result = harness(repo, "record")
    assert "snippets/demo/warns.py: wrote to stderr" in result.stderr and "careful" in result.stderr


def test_a_snippet_without_transcript_fails_the_check(repo):
    write(repo, "good", GOOD)
    result = harness(repo, "check")
    assert "snippets/demo/good.py: no cpu transcript (transcripts/cpu/demo/good.txt)" in result.stderr


def test_a_snippet_edited_after_recording_fails_the_check(repo):
    path = write(repo, "good", GOOD)
    harness(repo, "record")
    path.write_text(path.read_text().replace("(2, 3)", "(2, 4)"))
    result = harness(repo, "check")
    assert "snippets/demo/good.py changed after transcripts/cpu/demo/good.txt was recorded" in result.stderr


def test_changed_behaviour_fails_the_check_with_a_diff(repo):
    write(repo, "env", '''
        """Reads the environment, standing in for a library that changed its behaviour."""
        import os

        print("answer:", os.environ.get("DEMO_ANSWER", "42"))
        ''')
    harness(repo, "record")
    result = harness(repo, "check", DEMO_ANSWER="41")
    assert result.returncode == 1
    assert "snippets/demo/env.py:4: output differs from transcripts/cpu/demo/env.txt" in result.stderr
    assert "Expected:\n    answer: 42\nGot:\n    answer: 41" in result.stderr


def test_a_transcript_of_a_deleted_snippet_fails_the_check(repo):
    path = write(repo, "good", GOOD)
    harness(repo, "record")
    path.unlink()
    result = harness(repo, "check")
    assert "transcripts/cpu/demo/good.txt: transcript of a snippet that no longer exists" in result.stderr
