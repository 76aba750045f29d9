"""Sphinx settings shared by both languages; docs/en/conf.py and docs/zh/conf.py add their own
(``from whatcopy.sphinxext.site_conf import *``).

Paths are absolute. The project root is found above the working directory, which Sphinx sets
to the conf.py's folder while reading it. The project's own settings are config values
(``whatcopy_root``, ``whatcopy_build_dir``, ``site_url``; ``python -m whatcopy build`` passes
them with ``-D``), and the environment is read only for what a user or CI sets on purpose:
docs/dev/configuration.md.
"""

import os

from whatcopy import project as _project
from whatcopy.content import pages as _pages
from whatcopy.project import find_root

ROOT = find_root()
DOCS = ROOT / "docs"
whatcopy_root = str(ROOT)
# The build folder, the snippets' runs and the notebooks myst-nb writes included (`--out`
# chooses another; whatcopy.sphinxext derives snippets_notebook_folder from it).
whatcopy_build_dir = str(DOCS / "_build")
# The address the site is published at, ending in / (the deploy workflow sets SITE_URL): each
# page's canonical link, absolute hreflang links, og:url. Empty: a local site.
site_url = os.environ.get("SITE_URL", "")

author = "The what-does-it-copy authors"
copyright = "2026, " + author

extensions = [
    "myst_nb",
    "sphinx_copybutton",
    "whatcopy.sphinxext",  # the site's own, in the order whatcopy/sphinxext/__init__.py gives
]

templates_path = [str(DOCS / "_templates")]
html_static_path = [str(DOCS / "_static")]
html_css_files = ["site.css"]
locale_dirs = [str(DOCS / "locale")]
exclude_patterns = ["conf.py"]

# Warnings are errors (-W on the command line) and every reference must resolve.
nitpicky = True

# MyST-NB executes nothing: each code cell shows its snippet's run, made on the fork server
# before the pages are read and kept in <whatcopy_build_dir>/runs/ (snippet_runs). A snippet
# that raises what it does not declare, writes to stderr or hangs (SNIPPET_TIMEOUT) is an error
# there, naming its file and line.
nb_execution_mode = "off"
myst_enable_extensions = list(_pages.MYST_EXTENSIONS)  # the page reader reads fences with them
myst_heading_anchors = 3

html_theme = "sphinx_book_theme"
html_show_sphinx = False
html_copy_source = False
html_last_updated_fmt = None
html_permalinks_icon = "#"
# The repository the launch buttons open notebooks from. The deploy workflow
# (.github/workflows/site.yml) publishes each language's executed notebooks to the
# `notebooks` branch as <language folder>/<page>.ipynb, which is where `path_to_docs`
# (set per language by site_languages.py) and `repository_branch` point. GitHub Actions sets
# GITHUB_REPOSITORY; elsewhere the clone's origin remote or pyproject.toml's [project.urls]
# (whatcopy.project.github_repository), else the project's own name stands in.
REPOSITORY = _project.repository(ROOT)
NOTEBOOKS_BRANCH = "notebooks"
html_theme_options = {
    "repository_url": f"https://github.com/{REPOSITORY}",
    "repository_branch": NOTEBOOKS_BRANCH,
    "path_to_docs": "",  # the language folder, filled in by site_languages.py
    "use_download_button": True,
    "use_fullscreen_button": True,
    "use_repository_button": False,
    "use_edit_page_button": False,
    "use_source_button": False,
    "launch_buttons": {
        "colab_url": "https://colab.research.google.com",
        "binderhub_url": "https://mybinder.org",
        "notebook_interface": "jupyterlab",
    },
    "navigation_with_keys": True,
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "article_header_end": ["site-header-buttons.html"],
    "footer_content_items": ["copyright.html", "attribution.html"],
    "back_to_top_button": False,
    "pygments_light_style": "a11y-high-contrast-light",
    "pygments_dark_style": "a11y-high-contrast-dark",
}

# One search field: the header's, which stays in view. sphinx-book-theme also puts one at the
# top of the sidebar (its default sidebar list, less "search-button-field.html"), which scrolls
# away with the sidebar (at 1280x800 it was 161 px above the screen on inplace.html).
html_sidebars = {"**": ["navbar-logo.html", "icon-links.html", "sbt-sidebar-nav.html"]}

# pydata-sphinx-theme's colour mode before its script runs: follow the system.
html_context = {"default_mode": "auto"}

copybutton_exclude = ".linenos, .gp, .go"

# snippet_cells
# (snippets_notebook_folder: <whatcopy_build_dir>/jupyter_execute)
# No html_favicon: docs/_templates/layout.html inlines _static/favicon.svg as a data: URI
# (lean_theme.py), one request fewer per first view. The file stays for the root pages.

# nox -s linkcheck (external links; internal ones are checked by the tests)
linkcheck_timeout = 15
linkcheck_retries = 2
