"""Readers of the tables the generators print (generators/*.py): the operator reference's rows
(op_table), for the Sphinx extensions that draw them and for the weekly comparison. Standard
library only."""
