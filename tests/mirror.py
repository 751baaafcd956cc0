"""Where the data tests fetch from: ``$ROUGELAB_DATA_MIRROR`` if it is set (CI names one), else this
checkout's own verified data cache, which ``make data`` fills with the same ``owner/repo/commit/path``
layout as a mirror. Nothing outside the repository is assumed."""
import os
from pathlib import Path

from rougelab.paths import cache_dir

MIRROR = Path(os.environ.get("ROUGELAB_DATA_MIRROR") or cache_dir("datasets"))
