"""Reading the site's sources: the one reader of MyST pages (pages, through myst-nb's own
parser) and the translations' status (which Chinese page is behind its English twin)."""
