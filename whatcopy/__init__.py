"""The site's machinery: snippets and their transcripts, the build, the Sphinx extensions.

The core (``languages``, ``root``, ``transcripts``) needs only the standard library, so a GPU
machine with nothing but torch can record from the repository root:
``python -m whatcopy.transcripts record --device cuda``.
"""
