# IPython profile for the kernels that execute the pages (whatcopy/sphinxext/site_conf.py sets IPYTHONDIR).
c = get_config()  # noqa: F821
c.InteractiveShell.xmode = "Minimal"  # an expected error shows as "RuntimeError: ...", no frames
c.IPKernelApp.log_level = "ERROR"  # silences ipykernel's per-start notice about TCP transport
c.HistoryManager.enabled = (
    False  # kernels keep no history: a build writes nothing into the source tree
)
