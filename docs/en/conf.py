"""English site. Shared settings: docs/site_conf.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from site_conf import *  # noqa: E402, F403

language = "en"
project = "What does it copy?"
html_title = "What does it copy? PyTorch's detach, clone and deepcopy, executed"
