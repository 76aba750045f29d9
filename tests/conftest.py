"""What the suite prints at its end, besides pass and fail: the figures tests measured."""

from project import NOTES


def pytest_terminal_summary(terminalreporter, config):
    for line in config.stash.get(NOTES, []):
        terminalreporter.write_line(line)
