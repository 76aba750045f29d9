"""`nox -s bench` keeps its figures as data (docs/dev/bench.json) and writes the one table
docs/dev/performance.md shows from them; a figure a run did not measure keeps its last value."""

from __future__ import annotations

import json

from whatcopy.site import bench


def test_the_bench_keeps_its_figures_and_writes_the_table(tmp_path):
    results = tmp_path / "bench.json"
    page = tmp_path / "performance.md"
    page.write_text(
        f"# Performance\n\nIntro.\n\n{bench.TABLE_START}\nthe table before\n{bench.TABLE_END}\nEnd.\n"
    )
    builds = {
        "cold_total": 16.84,
        "warm_total": 1.44,
        "edit_total": 5.61,
        "en_executed": 18,
        "zh_executed": 0,
        "weights": [],
        "lighthouse": [],
    }
    kept = bench.keep(builds, results)
    assert kept["cold build, both languages (s)"]["value"] == 16.8
    assert json.loads(results.read_text()) == kept
    text = page.read_text()
    assert (
        "the table before" not in text
        and text.startswith("# Performance\n\nIntro.\n\n")
        and "End." in text
    )
    assert "| cold build, both languages (s) | 16.8 |" in text
    # a run of the suite alone keeps the builds' figures, with their own date and commit
    kept = bench.keep({"tests": (201.3, "1780 passed in 150s")}, results)
    assert kept["cold build, both languages (s)"]["value"] == 16.8
    assert kept["`nox -s tests` after its installs (s)"]["value"] == 201.3
    assert page.read_text().count(bench.TABLE_START) == 1
