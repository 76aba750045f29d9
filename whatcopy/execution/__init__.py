"""The pages' notebooks filled with the outputs of their snippets' runs (notebooks), which
whatcopy/core/runs.py made on the fork server before the pages were read."""
