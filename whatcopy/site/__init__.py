"""Assembling the site: both languages' Sphinx builds (build), the root and 404 pages
(root_pages), the PDF books (book), the browser they are printed and checked with (browser), and
the performance figures (bench)."""
