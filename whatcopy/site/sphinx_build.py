"""``python -m whatcopy.site.sphinx_build ARGS``: sphinx-build, in a process whose garbage
collector is set for a build (`build.sphinx_args` runs every build of the site through it).

A build makes millions of short-lived objects (doctree nodes, markdown tokens, HTML strings)
and few cycles among them: with Python's default first threshold (a collection every 700 new
objects) the collector ran 1 940 times in a build of the English pages, 1.4 to 1.75 of its
9 to 12 CPU-seconds; with 50 000, 23 times and 0.5 to 0.6 CPU-s
(docs/dev/decisions/0042-sphinx-build-collects-less-often.md). Nothing else differs from
``python -m sphinx``.
"""

import sys

import whatcopy

if __name__ == "__main__":
    whatcopy.collect_garbage_less_often()  # (before Sphinx is imported: imports make objects too)
    from sphinx.cmd.build import main

    sys.exit(main(sys.argv[1:]))
