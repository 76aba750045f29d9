"""English site. Shared settings: whatcopy/sphinxext/site_conf.py."""

from whatcopy.sphinxext.site_conf import *

language = "en"
project = "What does it copy?"
html_title = "What does it copy? PyTorch's detach, clone and deepcopy, executed"
