"""Render the app icons (webapp/static/icons/*.png) from icons/icon.svg in headless Chromium.

    .venv/bin/python scripts/make_icons.py

Run once after changing the SVG; the PNGs are committed (the app never renders them itself).
The SVG keeps its drawing inside the central 80 % circle, so the same image is a maskable icon.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "webapp" / "static" / "icons"
SIZES = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180}


def main() -> None:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, size in SIZES.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
            page.screenshot(path=str(ICONS / name), clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
            print(f"wrote {ICONS / name} ({size}×{size})")
        browser.close()


if __name__ == "__main__":
    main()
