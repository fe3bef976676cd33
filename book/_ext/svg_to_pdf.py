"""SVG figures in the PDF edition, converted to PDF with librsvg's ``rsvg-convert``.

LaTeX cannot include SVG. Sphinx's own converter (``sphinx.ext.imgconverter``) needs
ImageMagick and gives a bitmap; ``rsvg-convert`` (Debian's ``librsvg2-bin``, one of the
packages ``make texlive`` installs) gives vector output, so the figures stay sharp in print.
The converter is tried before Sphinx's (priority 199 < 200) and is used only where
``rsvg-convert`` is installed. The HTML builder takes SVG as it is and never calls it.
"""

from __future__ import annotations

import shutil
import subprocess

from sphinx.application import Sphinx
from sphinx.transforms.post_transforms.images import ImageConverter


class SvgToPdf(ImageConverter):
    """SVG figures in the PDF edition, converted with librsvg's ``rsvg-convert`` (vector
    output; Sphinx's own converter needs ImageMagick and gives a bitmap)."""

    default_priority = 199                      # before sphinx.ext.imgconverter (200)
    conversion_rules = [("image/svg+xml", "application/pdf")]

    def is_available(self) -> bool:
        return shutil.which("rsvg-convert") is not None

    def convert(self, _from: str, _to: str) -> bool:
        subprocess.run(["rsvg-convert", "-f", "pdf", "-o", _to, _from], check=True)
        return True


def setup(app: Sphinx) -> dict:
    app.add_post_transform(SvgToPdf)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
