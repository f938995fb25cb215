"""Write the JSON Schema of every kb data file next to it, from its pydantic model.

Usage: .venv/bin/python scripts/write_schemas.py  (tests/test_data_schemas.py checks they are current).
"""

from __future__ import annotations

import json

from rulekb.kb.schemas import DATA_SCHEMAS


def main() -> None:
    for path, model in DATA_SCHEMAS:
        path.write_text(json.dumps(model.model_json_schema(by_alias=True), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
