"""The site's Sphinx extensions (``whatcopy.sphinxext.<name>``) and shared settings (``site_conf``)."""
