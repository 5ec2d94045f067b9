# SPDX-License-Identifier: Apache-2.0
"""Issue 25, item 6: a PEP 517 build backend in the standard library only, so that
`pip install ./python` works offline: pip's build isolation would otherwise download
setuptools. It builds a pure-Python wheel (PEP 427), an editable wheel (PEP 660, a .pth file
naming this directory) and an sdist from the files listed below; nothing else is packaged.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME, DIST = "ninfer-conform", "ninfer_conform"
PACKAGE = "ninfer_conform"
SDIST_EXTRA = ("pyproject.toml", "README.md", "build_backend/ninfer_build.py")
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # a fixed timestamp: the same sources give the same wheel


def _version() -> str:
    """The package's __version__, the one place it is written."""
    with open(os.path.join(ROOT, PACKAGE, "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)  # type: ignore[union-attr]


def _metadata() -> str:
    """Core metadata 2.1 (PKG-INFO in the sdist, METADATA in the wheel); the README as its description."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
            "Summary: Write ninfer-conform exec-protocol subjects (kernels, codecs) in Python\n"
            "License: Apache-2.0\nRequires-Python: >=3.8\nProvides-Extra: numpy\n"
            "Requires-Dist: numpy; extra == \"numpy\"\n"
            "Description-Content-Type: text/markdown\n\n%s") % (NAME, _version(), readme)


def _package_files() -> List[str]:
    """The package's files relative to ROOT (sources and py.typed; no caches)."""
    found = []
    for name in sorted(os.listdir(os.path.join(ROOT, PACKAGE))):
        if name.endswith(".py") or name == "py.typed":
            found.append(PACKAGE + "/" + name)
    return found


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def _write_wheel(directory: str, files: Dict[str, bytes]) -> str:
    """A wheel holding `files` plus its dist-info (METADATA, WHEEL, RECORD); returns its name."""
    info = "%s-%s.dist-info" % (DIST, _version())
    files = dict(files)
    files[info + "/METADATA"] = _metadata().encode()
    files[info + "/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: ninfer_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [_record_line(p, d) for p, d in files.items()] + [info + "/RECORD,,"]
    files[info + "/RECORD"] = ("\n".join(record) + "\n").encode()
    name = "%s-%s-py3-none-any.whl" % (DIST, _version())
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, FIXED_TIME)
            entry.external_attr = 0o644 << 16
            z.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return name


def _read(path: str) -> bytes:
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


# ---- PEP 517 / PEP 660 hooks ----------------------------------------------------------------

def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []  # nothing to download: the point of this backend


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[dict] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None,
                metadata_directory: Optional[str] = None) -> str:
    return _write_wheel(wheel_directory, {p: _read(p) for p in _package_files()})


def build_editable(wheel_directory: str, config_settings: Optional[dict] = None,
                   metadata_directory: Optional[str] = None) -> str:
    """`pip install -e ./python`: a .pth naming this directory, so edits take effect at once."""
    return _write_wheel(wheel_directory, {DIST + ".pth": (ROOT + "\n").encode()})


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    base = "%s-%s" % (DIST, _version())
    members: List[Tuple[str, bytes]] = [(p, _read(p)) for p in list(SDIST_EXTRA) + _package_files()]
    members.append(("PKG-INFO", _metadata().encode()))
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for path, data in members:
            entry = tarfile.TarInfo(base + "/" + path)
            entry.size, entry.mode, entry.mtime = len(data), 0o644, 1577836800
            t.addfile(entry, io.BytesIO(data))
    return name
