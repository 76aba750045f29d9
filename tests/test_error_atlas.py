"""The error atlas (generators/errors.py, docs/error_atlas.yaml, docs/*/errors.md): at least 60
distinct messages; every entry explained, with a link, in both languages; every linked section
links back; the built pages show exactly the messages of the generator's transcript (which
tests/test_transcripts.py checks against a fresh run); each message comes from where its entry
says; and the generator stops, naming the entry, when a trigger no longer gives its message.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
import torch
import yaml
from project import HTML, LANGUAGES, ROOT, Page, parsed_html, site_sections
from test_pages import glossary_problems, hand_typed_values, typography_problems

from whatcopy.core import transcripts
from whatcopy.reference import atlas
from whatcopy.sphinxext import atlas as atlas_ext

GENERATOR = transcripts.by_name(atlas.NAME)
FEWEST = 60  # the floor: distinct messages


@pytest.fixture(scope="module")
def recorded() -> atlas.Atlas:
    return atlas.parse(atlas.printed(GENERATOR.transcript("cpu")))


@pytest.fixture(scope="module")
def data() -> dict:
    return atlas_ext.load()


def where(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if ROOT in path.parents else str(path)


# ---------------------------------------------------------------------------------------------
# The transcript and the data file


def test_the_atlas_has_at_least_60_distinct_messages(recorded):
    distinct = {(e.message.category, e.message.text) for e in recorded.entries}
    assert len(distinct) >= FEWEST, f"{GENERATOR.transcript('cpu')}: {len(distinct)} messages"
    assert recorded.summary["messages"] == str(len(recorded.entries))


def test_every_entry_is_explained_with_a_link_in_both_languages(recorded, data):
    problems = atlas_ext.problems(data, [e.ident for e in recorded.entries])
    assert not problems, "\n".join(problems)


def see_problems(data: dict) -> list[str]:
    """An entry whose `see:` label no page of a language defines above a heading."""
    found, path = [], atlas_ext.data_file()
    for language in ("en", "zh"):
        known = site_sections(language)
        for ident, entry in (data.get("entries") or {}).items():
            label = entry.get("see") if isinstance(entry, dict) else None
            if label and (label not in known or not known[label][1]["heading"]):
                found.append(
                    f"{where(path)}: entry {ident}: `see: {label}` is no section label of docs/{language}"
                )
    return found


def test_every_link_names_a_section_in_both_languages(data):
    problems = see_problems(data)
    assert not problems, "\n".join(problems)


def text_problems(data: dict, path: Path, tmp_path: Path) -> list[str]:
    """The page rules for the data file's words: no hand-typed outputs; in Chinese, the
    typography and the glossary's terms (as tests/test_pages.py checks a page)."""
    found = []
    for ident, entry in (data.get("entries") or {}).items():
        for language in ("en", "zh"):
            text = entry.get(language) if isinstance(entry, dict) else None
            lines = [text[f] for f in atlas_ext.FIELDS if isinstance(text, dict) and text.get(f)]
            folder = tmp_path / language
            folder.mkdir(parents=True, exist_ok=True)
            page = Page(language, folder / "atlas.md")
            page.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            problems = hand_typed_values(page)
            if language == "zh":
                problems += typography_problems(page)
                problems += [p for p in glossary_problems(page) if " writes " in p]
            found += [
                f"{where(path)}: entry {ident} ({language}): {p.split(': ', 1)[1]}"
                for p in problems
            ]
    return found


def test_the_atlas_text_follows_the_page_rules(data, tmp_path):
    problems = text_problems(data, atlas_ext.data_file(), tmp_path)
    assert not problems, "\n".join(problems)


def test_the_checks_catch_an_entry_without_text_or_link(recorded, data, tmp_path):
    """Seeded faults: a Chinese fix gone, a `see:` gone, a label no page has, an entry the
    generator lacks, a Chinese sentence with ASCII punctuation."""
    bad = yaml.safe_load(yaml.safe_dump(data))
    entries = bad["entries"]
    del entries["backward-twice"]["zh"]["fix"]
    del entries["no-grad-fn"]["see"]
    entries["scalar-outputs"]["see"] = "no-such-section"
    entries["made-up"] = entries["grad-shape"]
    entries["grad-unused"]["zh"]["cause"] = "这里用了半角标点,不对"
    idents = [e.ident for e in recorded.entries]
    problems = atlas_ext.problems(bad, idents) + see_problems(bad)
    assert any("entry backward-twice: no zh.fix" in p for p in problems), problems
    assert any("entry no-grad-fn: no `see:`" in p for p in problems), problems
    assert any("entry scalar-outputs: `see: no-such-section`" in p for p in problems), problems
    assert any("entry made-up: the generator has no such entry" in p for p in problems), problems
    punctuation = text_problems(bad, atlas_ext.data_file(), tmp_path)
    assert any("entry grad-unused (zh)" in p and "ASCII punctuation" in p for p in punctuation)


# ---------------------------------------------------------------------------------------------
# The built pages


def page(language: str):
    return parsed_html(HTML / LANGUAGES[language][0] / "errors.html")


def entry_id(section) -> str:
    """An entry's id: its heading's (where the search's indexing moved it, site_search.py), or
    its section's."""
    heading = section.find(["h2", "h3", "h4", "h5", "h6"])
    return (heading.get("id") if heading else None) or section["id"]


def shown_entries(soup) -> list[tuple[str, list[str], str]]:
    """(id, the message blocks' text, the first code block's text) of each entry on a page."""
    found = []
    for section in soup.select("section.atlas-entry"):
        messages = [pre.get_text().rstrip("\n") for pre in section.select(".atlas-message pre")]
        code = section.select_one(".atlas-code pre").get_text().rstrip("\n")
        found.append((entry_id(section).removeprefix("err-"), messages, code))
    return found


def transcript_differences(recorded: atlas.Atlas, shown: list) -> list[str]:
    expected = [(e.ident, [m.shown for m in e.messages], e.code) for e in recorded.entries]
    if [s[0] for s in shown] != [e[0] for e in expected]:
        return [f"the page's entries {[s[0] for s in shown]} are not the transcript's"]
    return [
        f"err-{ident}: the page shows {got!r}, the transcript {want!r}"
        for (ident, got, got_code), (_, want, want_code) in zip(shown, expected, strict=True)
        if got != want or got_code != want_code
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_shows_the_transcripts_messages(recorded, language):
    """Message by message, in order, as tests/test_transcripts.py's fresh run printed them;
    and so many entries per language (the count the report gives)."""
    shown = shown_entries(page(language))
    problems = transcript_differences(recorded, shown)
    assert not problems, f"{HTML / LANGUAGES[language][0] / 'errors.html'}:\n" + "\n".join(problems)
    assert len(shown) == len(recorded.entries) >= FEWEST


def test_a_message_changed_by_torch_fails_the_comparison(recorded):
    shown = shown_entries(page("en"))
    ident, messages, code = shown[0]
    reworded = [(ident, [messages[0].replace("second time", "2nd time")], code)] + shown[1:]
    problems = transcript_differences(recorded, reworded)
    assert len(problems) == 1 and problems[0].startswith(f"err-{ident}:"), problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_has_its_cause_fix_and_link_on_the_page(data, language):
    soup = page(language)
    for section in soup.select("section.atlas-entry"):
        ident = entry_id(section).removeprefix("err-")
        fields = [p.get_text(" ", strip=True) for p in section.select("p.atlas-field")]
        see = data["entries"][ident]["see"]
        links = [a["href"] for a in section.select("p.atlas-field a[href]")]
        assert len(fields) == 5 and all(f.split(":", 1)[-1].strip() for f in fields[1:3]), (
            f"err-{ident}: {fields}"
        )
        assert links and links[-1].endswith(f"#{see}"), f"err-{ident}: links {links}, see {see}"


def back_link_problems(data: dict, language: str) -> list[str]:
    """An entry whose `see:` section, on its built page, has no link to the entry."""
    known = site_sections(language)
    folder = HTML / LANGUAGES[language][0]
    problems = []
    for ident, entry in data["entries"].items():
        path, _ = known[entry["see"]]
        built = folder / f"{path.stem}.html"
        section = parsed_html(built).find(id=entry["see"])
        hrefs = [a["href"] for a in section.select("a[href]")] if section else []
        if not any(h.endswith(f"errors.html#err-{ident}") for h in hrefs):
            problems.append(
                f"{where(path)}: section {entry['see']} does not link back to err-{ident}; add "
                "```{error-messages}``` to it"
            )
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_linked_section_links_back_to_its_entries(data, language):
    problems = back_link_problems(data, language)
    assert not problems, "\n".join(problems)


def test_a_section_without_its_back_link_fails(data):
    """A `see:` label moved to a section that has no {error-messages} for it."""
    moved = yaml.safe_load(yaml.safe_dump(data))
    moved["entries"]["backward-twice"]["see"] = "detach-same-memory"
    problems = back_link_problems(moved, "en")
    assert len(problems) == 1 and "err-backward-twice" in problems[0], problems


# ---------------------------------------------------------------------------------------------
# The generator


def definitions() -> dict:
    """The generator's registry and functions, without running it (its top-level statements
    from `warn_always = ...` on are left out)."""
    tree = ast.parse(GENERATOR.source)
    body = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "warn_always":
            break
        body.append(node)
    module = types.ModuleType("error_atlas_definitions")  # its dataclass looks itself up there
    sys.modules[module.__name__] = module
    exec(compile(ast.Module(body, []), GENERATOR.rel, "exec"), module.__dict__)  # noqa: S102  (its own source)
    return module.__dict__


def test_the_generator_stops_naming_an_entry_whose_message_is_gone():
    generator = definitions()
    quiet = generator["entry"]("quiet", "backward", "-", "x = torch.ones(2)", "print('x:', x)")
    with pytest.raises(RuntimeError, match=r"entry 'quiet' .*: the code gave no message"):
        generator["examine"](quiet)
    broken = dataclasses.replace(quiet, code="torch.ones(3).item()", fix="torch.ones(3).item()")
    with pytest.raises(RuntimeError, match=r"entry 'quiet' .*: the fix still gives raises"):
        generator["examine"](broken)


def test_the_reader_refuses_text_it_cannot_read(recorded):
    text = atlas.printed(GENERATOR.transcript("cpu")).replace("fix:", "the fix:", 1)
    with pytest.raises(atlas.AtlasError, match="expected 'code:'"):
        atlas.parse(text)
    with pytest.raises(atlas.AtlasError, match="not the error atlas"):
        atlas.parse("messages: 0\n")


LOCATE = r"""
import json, re, sys, traceback, warnings
import numpy as np, torch
spec = json.loads(sys.argv[1])
torch.set_warn_always(True)
found = {}
for ident, prelude, code in spec:
    namespace = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(prelude + "\n" + code, namespace)
            text, frames = "", []
        except Exception as error:
            text = str(error)
            frames = [f.filename for f in traceback.extract_tb(error.__traceback__)]
    text = text or "".join(str(w.message) for w in caught)
    match = re.search(r"(?:Exception raised from \S+|Triggered internally) at (\S+?):\d+", text)
    if match:
        found[ident] = match.group(1).rsplit("/pytorch/", 1)[-1]
    else:
        inside = [f for f in frames if "/torch/" in f]
        found[ident] = "torch/" + inside[-1].rsplit("/torch/", 1)[1] if inside else None
print(json.dumps(found))
"""


def test_each_message_comes_from_the_source_its_entry_names():
    """Run each trigger with TORCH_SHOW_CPP_STACKTRACES=1: the C++ file that raised or warned,
    or the torch module whose code raised, is the file the entry's `source` names. Messages
    raised by Python itself, or by C++ that gives no location, are not checked."""
    generator = definitions()
    entries = [
        e for e in generator["ENTRIES"] if not (e.without_cuda and torch.cuda.is_available())
    ]
    spec = json.dumps([(e.ident, generator["PRELUDE"], e.code) for e in entries])
    env = {**os.environ, "TORCH_SHOW_CPP_STACKTRACES": "1", "CUDA_VISIBLE_DEVICES": ""}
    run = subprocess.run(
        [sys.executable, "-c", LOCATE, spec], capture_output=True, text=True, env=env, check=True
    )
    located = json.loads(run.stdout.splitlines()[-1])
    wrong = [
        f"{GENERATOR.rel}: entry {e.ident!r}: source {e.source!r}, but it comes from {located[e.ident]}"
        for e in entries
        if located[e.ident] and not e.source.startswith(located[e.ident] + " ")
    ]
    assert not wrong, "\n".join(wrong)
    assert sum(1 for e in entries if located[e.ident]) >= 60, located  # most are checked


def test_the_generator_is_kept_apart_from_the_teachers_snippets():
    assert GENERATOR.path.parent == ROOT / "generators"
    assert GENERATOR.name not in {s.name for s in transcripts.all_snippets()}


def test_the_data_file_is_parsed_again_only_when_its_text_changed(tmp_path):
    """Pages read the atlas through whatcopy/content/yaml_files.py, which parses a text once per
    process: a changed file is parsed again, each caller gets a copy of its own, and a file that
    is no YAML is named with its line, as yaml.safe_load(file) names it."""
    from whatcopy.content import yaml_files

    path = tmp_path / "error_atlas.yaml"
    path.write_text("entries:\n  a: {see: one}\n", encoding="utf-8")
    first = atlas_ext.load(path)
    first["entries"]["a"]["see"] = "changed by a caller"
    assert atlas_ext.load(path) == {"entries": {"a": {"see": "one"}}}
    path.write_text("entries:\n  a: {see: two}\n", encoding="utf-8")
    assert atlas_ext.load(path) == {"entries": {"a": {"see": "two"}}}
    path.write_text("entries:\n  a: {see: [two}\n", encoding="utf-8")
    with pytest.raises(yaml.YAMLError, match=rf'in "{path}", line 2'):
        yaml_files.load(path)
