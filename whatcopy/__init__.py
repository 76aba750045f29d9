"""The site's machinery, in layers (pyproject.toml's import contracts; docs/dev/ARCHITECTURE.md):

- ``__main__``: the command line, ``python -m whatcopy <command>``;
- ``site``: both languages' builds, the root pages, the PDF books, the benchmark;
- ``sphinxext``: the Sphinx extensions, behind one ``setup()``;
- ``execution``, ``content``, ``reference``: the pages' notebooks filled with their snippets'
  runs, and the interpreters those run in; the reader of the pages; the readers of the
  generators' tables;
- ``core``: snippets, their transcripts and the pages' runs of them, in forked processes;
- ``project``, ``languages``, ``incremental``: where things are, the languages, and "make it
  unless unchanged".

The core and the tables below it need only the standard library and torch.
"""

import gc

# The cyclic garbage collector's thresholds for a process of the site's machinery (decision
# 0042): a first collection every 50 000 new objects, not Python's 700. A build or a test worker
# makes millions of short-lived objects that reference counting frees; the default walked them
# about 2 000 times per English build (1.4 to 1.75 CPU-s), this about 25 times (0.5 CPU-s).
GC_THRESHOLDS = (50_000, 20, 100)


def collect_garbage_less_often() -> None:
    """Set this process's collector to GC_THRESHOLDS (for a whole process: a command, a Sphinx
    build, a test worker; never called on import)."""
    gc.set_threshold(*GC_THRESHOLDS)
