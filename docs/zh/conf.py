"""Simplified Chinese site. Shared settings: docs/site_conf.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from site_conf import *  # noqa: E402, F403

language = "zh_CN"
project = "到底复制了什么？"
html_title = "到底复制了什么？PyTorch 的 detach、clone 与 deepcopy 实测"

# myst-nb's folded code cells (tag hide-input)
nb_code_prompt_show = "显示代码"
nb_code_prompt_hide = "隐藏代码"
