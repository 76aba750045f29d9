"""Two builds of one commit, compared file by file; where a book or a teachers' kit differs, it
says where (`python -m whatcopy compare TESTED OTHER`).

The reproducibility test compares the site the suite tested with a clean build of it in a copy
of the project; CI's fresh-machine step compares it with the site and books the README's docs
command built on the machine made fresh, which prints the books a second time
(docs/dev/decisions/0048-books-compared-on-the-fresh-machine.md). Two prints of the same pages
are the same bytes (docs/dev/decisions/0030-reproducible-books.md).
"""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path


def site_differences(tested: Path, other: Path) -> list[str]:
    """Files of the `other` site that the `tested` one lacks or holds otherwise. Files only in
    the tested site are not compared: a local docs/_build may keep pages since removed. Nor is
    Sphinx's `.buildinfo`: a hash of settings that include absolute folders (the theme's, in the
    virtual environment), which differ between two copies of the project, so Sphinx rebuilds
    from scratch when the project moves."""
    differing = []
    for path in sorted(p for p in other.rglob("*") if p.is_file() and p.name != ".buildinfo"):
        name = path.relative_to(other).as_posix()
        mine = tested / name
        if not mine.is_file() or mine.read_bytes() != path.read_bytes():
            differing.append(name)
    return differing


def book_differences(tested: Path, other: Path) -> list[str]:
    """How two prints of a book differ: in their bytes, and then, to say where, in sheets,
    fonts, links, outline or the first differing token of a sheet's drawing operations (a
    moved line shows as one number against another)."""
    from pypdf import PdfReader

    if tested.read_bytes() == other.read_bytes():
        return []
    found = ["the bytes"]
    readers = PdfReader(tested), PdfReader(other)
    if len(readers[0].pages) != len(readers[1].pages):
        return [*found, f"{len(readers[0].pages)} sheets against {len(readers[1].pages)}"]
    outlines = [
        [
            (item.title, reader.get_destination_page_number(item))
            for item in reader.outline
            if not isinstance(item, list)
        ]
        for reader in readers
    ]
    if outlines[0] != outlines[1]:
        found.append("the outline")
    for number, sheets in enumerate(zip(*(reader.pages for reader in readers)), start=1):
        fonts = [
            sorted(
                str(font.get_object().get("/BaseFont"))
                for font in sheet["/Resources"].get("/Font", {}).values()
            )
            for sheet in sheets
        ]
        if fonts[0] != fonts[1]:
            found.append(f"sheet {number}: fonts")
        links = [
            [
                str(a.get_object().get("/A", {}).get("/URI", a.get_object().get("/Dest")))
                for a in sheet.get("/Annots", [])
            ]
            for sheet in sheets
        ]
        if links[0] != links[1]:
            found.append(f"sheet {number}: links")
        tokens = [sheet.get_contents().get_data().split() for sheet in sheets]
        if len(tokens[0]) != len(tokens[1]):
            found.append(
                f"sheet {number}: {len(tokens[0])} drawing tokens against {len(tokens[1])}"
            )
            continue
        for a, b in zip(*tokens):
            if a != b:
                found.append(f"sheet {number}: {a[:40]!r} against {b[:40]!r}")
                break
    return found


def kit_differences(tested: Path, other: Path) -> list[str]:
    """How two kits differ: in their members' names, a member in its bytes (a book's, with
    where `book_differences` sees it differ)."""
    found = []
    with zipfile.ZipFile(tested) as one, zipfile.ZipFile(other) as two:
        if one.namelist() != two.namelist():
            return [f"members {sorted(set(one.namelist()) ^ set(two.namelist()))}"]
        for name in one.namelist():
            a, b = one.read(name), two.read(name)
            if a == b:
                continue
            if not name.endswith(".pdf"):
                found.append(name)
                continue
            with tempfile.TemporaryDirectory() as scratch:
                pair = Path(scratch) / "a.pdf", Path(scratch) / "b.pdf"
                pair[0].write_bytes(a)
                pair[1].write_bytes(b)
                found += [f"{name}: {m}" for m in book_differences(*pair)]
    return found


def where_they_differ(tested: Path, other: Path, names: list[str]) -> dict[str, list[str]]:
    """For each differing file of `names` that is a book or an archive (a teachers' kit holds
    the books), where it differs (its first ten differences)."""
    where = {}
    for name in names:
        mine, theirs = tested / name, other / name
        if mine.is_file() and name.endswith(".pdf"):
            where[name] = book_differences(mine, theirs)[:10]
        elif mine.is_file() and name.endswith(".zip"):
            where[name] = kit_differences(mine, theirs)[:10]
    return where


def main(argv: list[str]) -> int:
    """`compare TESTED OTHER`: 0 when every file of the site built in OTHER is, byte for byte,
    in TESTED; else each differing file, and where each book or kit among them differs."""
    if len(argv) != 2:
        print("usage: python -m whatcopy compare TESTED_HTML OTHER_HTML")
        return 2
    tested, other = (Path(arg) for arg in argv)
    missing = [str(folder) for folder in (tested, other) if not folder.is_dir()]
    if missing:
        print(f"no built site in {', '.join(missing)}")
        return 2
    differing = site_differences(tested, other)
    compared = sum(1 for p in other.rglob("*") if p.is_file() and p.name != ".buildinfo")
    if not differing:
        books = sorted(p.relative_to(other).as_posix() for p in other.glob("*/*.pdf"))
        print(f"the same, byte for byte: all {compared} of its files, the books among them {books}")
        return 0
    print(f"differing: {len(differing)} of {compared} files: {', '.join(differing[:20])}")
    for name, found in where_they_differ(tested, other, differing).items():
        print(f"  {name}: {'; '.join(found)}")
    return 1
