"""Readers of the tables the generators print (standard library only): the pages' extensions
draw them, the tests check them, and the workflows compare them without Sphinx installed."""
