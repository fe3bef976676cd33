import os
import sys

import matplotlib
import pytest
from hypothesis import settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile("default", max_examples=150, deadline=None, derandomize=True)
settings.load_profile("default")

# Figures are drawn off screen (in this process only: notebooks that tests run in a kernel
# keep the inline backend), and each test starts with no figure left open.
matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
