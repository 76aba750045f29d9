"""Readers of the tables the generators print (generators/*.py), standard library only: the
operator reference's rows (op_table) and the claims' results per kind of input
(claims_table). The pages' extensions draw them, the tests check them, and the workflows compare
them without Sphinx installed."""
