"""What each gzip level costs per page and what it saves, on the pages a new question gets.

Prints figures, asserts nothing. Renders the search page of the given questions (development
questions by default) in-process, uncompressed, then compresses every page at each level 1–9 the way
the app does (``rulekb.webapp.caching.gzip_body``) and prints the CPU time per page and the mean
compressed size (with the largest page, which decides the phone's ≤ 30 KB target together with the
assets).

    .venv/bin/python benchmarks/gzip_levels.py [--build-dir build] [--repeat 5]
                                               [--questions tests/data/dev.jsonl tests/data/dev-extra.jsonl]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    from search_profile import question_arguments, questions

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    question_arguments(parser)
    parser.add_argument("--repeat", type=int, default=5, help="compress every page this many times per level")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat}: give 1 or more (how many times each page is compressed per level)")

    from rulekb.webapp import create_app
    from rulekb.webapp.caching import gzip_body

    app = create_app({"WARM_UP": False, "BUILD_DIR": args.build_dir})
    client = app.test_client()
    pages = [client.get("/search?q=" + quote(q)).get_data() for q in questions(args.questions)]
    plain = sum(len(p) for p in pages) / len(pages)
    print(f"{len(pages)} search pages, {plain / 1024:.1f} KB each on average uncompressed "
          f"(largest {max(len(p) for p in pages) / 1024:.1f} KB)")
    for level in range(1, 10):
        started = time.process_time()
        for _ in range(args.repeat):
            packed = [gzip_body(page, level) for page in pages]
        spent = (time.process_time() - started) / args.repeat / len(pages)
        sizes = [len(p) for p in packed]
        print(f"level {level}  {1000 * spent:5.3f} ms CPU a page  {sum(sizes) / len(sizes) / 1024:5.2f} KB on average"
              f"  largest {max(sizes) / 1024:5.2f} KB")


if __name__ == "__main__":
    main()
