"""rulekb: a rules knowledge base for Russian Warhammer 40,000 rulebooks.

The code lives in four top-level folders — ``corpus/`` (reading the texts), ``kb/`` (the knowledge
base), ``engine/`` (the rules as executable functions) and ``webapp/`` (the web app and the CLI) — and
is installed under this one package, ``rulekb.corpus``, ``rulekb.kb``, ``rulekb.engine`` and
``rulekb.webapp``, so nothing of ours takes a generic top-level name in a user's environment. In the
source tree the four entries here are symbolic links to those folders. See ``docs/packages.md``.
"""
