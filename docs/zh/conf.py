"""Simplified Chinese site. Shared settings: whatcopy/sphinxext/site_conf.py."""

from whatcopy.sphinxext.site_conf import *

language = "zh_CN"
project = "到底复制了什么？"
html_title = "到底复制了什么？PyTorch 的 detach、clone 与 deepcopy 实测"

# myst-nb's folded code cells (tag hide-input)
nb_code_prompt_show = "显示代码"
nb_code_prompt_hide = "隐藏代码"
