"""Make the two-hand Pinochle test helpers importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
