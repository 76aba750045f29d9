"""Jupyter kernels forked from a server that imported torch once, for the pages' execution: the
server and its launcher (kernels), and the provisioner that gives them Unix sockets
(kernel_sockets)."""
