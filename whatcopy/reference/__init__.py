"""Readers of what the programs in generators/ print (standard library only)."""
