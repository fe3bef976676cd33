"""The table of contents of the PDF edition: the book's ``_toc.yml`` without the Library reference.

The Library reference (one page per module, written by autodoc) is looked up rather than
read, and would add about 130 pages to the PDF; it stays in the HTML book and in the
docstrings. Every other part is kept, in the order of ``_toc.yml``, so a chapter added there is
in the PDF too.

Usage: ``python book/latex/pdf_toc.py OUT.yml``
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = ("Library reference",)


def pdf_toc(toc: dict) -> dict:
    """``toc`` (the parsed ``_toc.yml``) without the parts whose caption is in LEFT_OUT."""
    parts = [part for part in toc["parts"] if part.get("caption") not in LEFT_OUT]
    return {**toc, "parts": parts}


def main(argv: list[str]) -> int:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    out = Path(argv[0])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("# Written by book/latex/pdf_toc.py from _toc.yml: do not edit.\n"
                   + yaml.safe_dump(pdf_toc(toc), sort_keys=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
