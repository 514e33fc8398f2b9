"""Writing a file so that a reader (or a crash) sees either the old contents or the new ones,
never a mixture: the scripts that keep state or data between runs use it.
"""

import os


def write_atomically(path, data):
    """Writes the bytes `data` to `path` through a temporary file beside it, synced and renamed."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
