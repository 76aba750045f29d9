"""The site's Sphinx extensions, behind one `setup()`: each language's conf.py names
`whatcopy.sphinxext` (with myst_nb and sphinx_copybutton), and this module sets up the rest in
the one order below. Shared settings are in `site_conf`.

The order matters only where two modules handle the same event at the same priority (Sphinx
calls them in the order they were connected); where an order across modules is required, the
module says so with an explicit priority at its `app.connect`, and the comment there names the
handler it must come before or after.
"""

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

from whatcopy import project
from whatcopy.core.snippets import set_root
from whatcopy.incremental import source_version

# In the order they are set up.
MODULES = (
    "messages",  # the extensions' own strings in Chinese (whatcopy.po)
    "snippet_cells",  # loads snippets into cells, links them to their transcripts
    "snippet_runs",  # each cell's outputs: its snippet's run on the fork server
    "site_languages",  # language switcher, theme strings
    "output_figures",  # printed tables and graphs drawn as HTML tables and SVG
    "op_reference",  # the operator reference: generators/operators.py's table
    "atlas",  # the error atlas: generators/errors.py's messages, explained, linked back
    "claims",  # {claim}: a sentence's claim, checked on every kind of input; the claims page
    "course_kit",  # downloads (.py, transcripts, notebooks, zip) and the snippet index
    "accessibility",  # keyboard access to the drawn figures
    "site_search",  # Pagefind's index of the finished pages, and the search page
    "valid_html",  # valid HTML where myst-nb writes otherwise
    "lean_theme",  # the book theme within the page budget: fonts, CSP, social meta
    "lean_code",  # highlighted code without the spans drawn as plain text
    "device_prose",  # {on-cuda}: GPU statements with their CUDA run, or marked unverified
    "seed_ledger",  # the corrections page's verdict tables (docs/seed_claims.yaml)
    "exercises",  # predict-the-output exercises, folded answers
    # last: its build-finished handler sees the warnings the others' handlers logged
    "build_guards",  # a changed extension, or a page that failed last time, is read again
)


def configure(app: Sphinx, config: Config) -> None:
    """The project being built is the one `whatcopy_root` names (the extensions' data files
    come from it), and the build folder holds the snippets' runs and myst-nb's notebooks."""
    if config.whatcopy_root:
        set_root(config.whatcopy_root)  # (the recorder's core keeps its paths in step)
    build = Path(config.whatcopy_build_dir or project.current().build)
    config.snippets_notebook_folder = str(build / "jupyter_execute")


def setup(app: Sphinx) -> dict:
    # The project's settings (site_conf.py sets them; -D overrides): docs/dev/configuration.md
    app.add_config_value("whatcopy_root", "", "", str)
    app.add_config_value("whatcopy_build_dir", "", "", str)
    app.add_config_value("site_url", "", "html", str)
    app.connect("config-inited", configure, priority=100)  # before anything reads them
    for name in MODULES:
        app.setup_extension(f"{__name__}.{name}")
    return {
        "env_version": source_version(),
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
