"""Write the JSON Schema of every kb data file next to it, from its pydantic model.

Usage: .venv/bin/python scripts/write_schemas.py  (tests/test_data_schemas.py checks they are current).
"""

from __future__ import annotations

import json

from rulekb.kb.schemas import DATA_SCHEMAS


def main() -> None:
    for kind in DATA_SCHEMAS:
        schema = kind.model.model_json_schema(by_alias=True)
        kind.schema.write_text(json.dumps(schema, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {kind.schema}")


if __name__ == "__main__":
    main()
