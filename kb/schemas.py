"""Every kb data file's pydantic model and where its JSON Schema is published (for editors).

``scripts/write_schemas.py`` writes the schemas; ``tests/test_data_schemas.py`` checks the committed
ones are the models' and that every data file validates against its model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from rulekb.kb.examples.model import ExamplesFile
from rulekb.kb.faq.model import FaqFile
from rulekb.kb.graph.curation import DefinesFile
from rulekb.kb.paths import DATA_DIR, EXAMPLES_DIR, FAQ_DIR
from rulekb.kb.termbase.model import TermsFile
from rulekb.kb.text.vocabulary import EnglishVocabulary, SynonymsFile

__all__ = ["DATA_SCHEMAS", "DataSchema"]


@dataclass(frozen=True)
class DataSchema:
    """One kind of data file: its model, where its schema is published, and the files of that kind."""

    schema: Path
    model: type[BaseModel]
    pattern: str
    """The files, as a glob beside the schema."""

    def files(self) -> list[Path]:
        return sorted(self.schema.parent.glob(self.pattern))


DATA_SCHEMAS: tuple[DataSchema, ...] = (
    DataSchema(DATA_DIR / "defines.schema.json", DefinesFile, "defines.toml"),
    DataSchema(DATA_DIR / "english.schema.json", EnglishVocabulary, "english.toml"),
    DataSchema(DATA_DIR / "synonyms.schema.json", SynonymsFile, "synonyms.toml"),
    DataSchema(DATA_DIR / "terms.schema.json", TermsFile, "terms.toml"),
    DataSchema(FAQ_DIR / "faq.schema.json", FaqFile, "*.toml"),
    DataSchema(EXAMPLES_DIR / "examples.schema.json", ExamplesFile, "*.toml"),
)
