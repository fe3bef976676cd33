"""Where the tests find the UCI files, and the mark that skips a test without them.

The files are read from ``$PRUNEKIT_DATA`` when it is set, else from ``../shared/data/uci``
beside the repository (see ``prunekit.datasets.load_uci`` for what to download).
"""

import os
from pathlib import Path

import pytest

from prunekit.datasets import ENV_VAR

UCI_DIR = Path(os.environ.get(ENV_VAR)
               or Path(__file__).resolve().parents[2] / "shared" / "data" / "uci")
needs_uci = pytest.mark.skipif(
    not UCI_DIR.is_dir(),
    reason=f"the UCI files are not in {UCI_DIR} (set {ENV_VAR} to their folder)")
