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
