"""Every kb data file's pydantic model and where its JSON Schema is published (for editors).

``scripts/write_schemas.py`` writes them; ``tests/test_data_schemas.py`` checks the committed ones
are the models'.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from rulekb.kb.faq.model import FaqFile
from rulekb.kb.paths import DATA_DIR, FAQ_DIR
from rulekb.kb.text.vocabulary import EnglishVocabulary

__all__ = ["DATA_SCHEMAS"]

#: (schema file, model) for every data file kind.
DATA_SCHEMAS: tuple[tuple[Path, type[BaseModel]], ...] = (
    (DATA_DIR / "english.schema.json", EnglishVocabulary),
    (FAQ_DIR / "faq.schema.json", FaqFile),
)
