"""Worked examples: the data files per source and the code that loads, runs and checks them."""
