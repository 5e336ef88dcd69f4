"""A stdlib-only PEP 517 build backend for the cmem client.

The client has no dependencies and no compiled parts, so a wheel is a zip of
src/cmem plus its metadata. Writing it here means `pip install
--no-build-isolation ./clients/python` works on a machine with neither the
`wheel` package nor a reachable package index (setuptools < 70 cannot build
wheels without `wheel`).
"""

import base64
import hashlib
import os
import tarfile
import zipfile

NAME, VERSION = "cmem", "0.1.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST_INFO = f"{NAME}-{VERSION}.dist-info"

METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: Client for cmem, Collaborative Memory for multi-user, multi-agent LLM systems
Requires-Python: >=3.11
License: Apache-2.0
"""

WHEEL = """Wheel-Version: 1.0
Generator: cmem_build
Root-Is-Purelib: true
Tag: py3-none-any
"""


def _package_files():
    root = os.path.join(HERE, "src")
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, NAME)):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for f in sorted(filenames):
            if not f.endswith(".pyc"):
                full = os.path.join(dirpath, f)
                yield full, os.path.relpath(full, root).replace(os.sep, "/")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, DIST_INFO)
    os.makedirs(d, exist_ok=True)
    for name, text in (("METADATA", METADATA), ("WHEEL", WHEEL)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    return DIST_INFO


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    filename = f"{NAME}-{VERSION}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for full, arc in _package_files():
            with open(full, "rb") as f:
                data = f.read()
            z.writestr(arc, data)
            record.append(_record_line(arc, data))
        for name, text in (("METADATA", METADATA), ("WHEEL", WHEEL)):
            arc = f"{DIST_INFO}/{name}"
            z.writestr(arc, text)
            record.append(_record_line(arc, text.encode()))
        record.append(f"{DIST_INFO}/RECORD,,")
        z.writestr(f"{DIST_INFO}/RECORD", "\n".join(record) + "\n")
    return filename


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{VERSION}"
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as t:
        for rel in ("pyproject.toml", "README.md", "_build/cmem_build.py"):
            t.add(os.path.join(HERE, rel), f"{base}/{rel}")
        for full, arc in _package_files():
            t.add(full, f"{base}/src/{arc}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = METADATA.encode()
        info.size = len(data)
        import io
        t.addfile(info, io.BytesIO(data))
    return filename
