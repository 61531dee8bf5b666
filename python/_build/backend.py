# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The build backend of the libonnxslim Python package (PEP 517, in-tree).

The package is pure Python, so building its wheel is writing a zip file:
this backend does it with the standard library alone. `pip install ./python`
then needs nothing from an index and nothing installed beside pip: no
setuptools, no wheel (setuptools before 70.1 needs the `wheel` package for
bdist_wheel, which a pyenv python does not have; offline, pip's isolated
build could not fetch either). Metadata comes from pyproject.toml's
[project] table; the wheel's bytes depend only on the sources (sorted
entries, fixed timestamps).

Hooks: build_wheel, build_sdist, build_editable (a .pth file naming this
directory), prepare_metadata_for_build_wheel/_editable and the
get_requires_* hooks (nothing required).
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "libonnxslim"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def _toml_value(text):
    """A value of the small TOML subset pyproject.toml uses here."""
    text = text.strip()
    if text.startswith('"'):
        return text[1:text.index('"', 1)]
    if text.startswith("[") and "{" in text:
        return [dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', t)) for t in re.findall(r"\{[^}]*\}", text)]
    if text.startswith("["):
        return [s for s in re.findall(r'"((?:[^"\\]|\\.)*)"', text)]
    if text.startswith("{"):
        return dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', text))
    raise ValueError("pyproject.toml: value not understood: %r" % text)


def _pyproject():
    """{table: {key: value}} of pyproject.toml (strings, lists of strings, inline tables)."""
    tables, table, pending = {}, None, None
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].rstrip() if '"' not in raw else raw.rstrip()
            if pending is not None:
                pending[1] += " " + line
                if line.strip().startswith("]"):
                    tables[table][pending[0]] = _toml_value(pending[1])
                    pending = None
                continue
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"\[([\w.-]+)\]\s*$", line.strip())
            if m:
                table = m.group(1)
                tables.setdefault(table, {})
                continue
            key, _, value = line.partition("=")
            key, value = key.strip().strip('"'), value.strip()
            if value.startswith("[") and not value.rstrip().endswith("]"):
                pending = [key, value]
                continue
            tables[table][key] = _toml_value(value)
    return tables


def _meta():
    t = _pyproject()
    p = t["project"]
    name, version = p["name"], p["version"]
    lines = ["Metadata-Version: 2.1", "Name: " + name, "Version: " + version,
             "Summary: " + p.get("description", "")]
    if "license" in p:
        lines.append("License: " + p["license"].get("text", ""))
    authors = [a["name"] for a in p.get("authors", []) if "name" in a]
    if authors:
        lines.append("Author: " + ", ".join(authors))
    if "keywords" in p:
        lines.append("Keywords: " + ",".join(p["keywords"]))
    lines += ["Classifier: " + c for c in p.get("classifiers", [])]
    if "requires-python" in p:
        lines.append("Requires-Python: " + p["requires-python"])
    for extra, reqs in sorted(t.get("project.optional-dependencies", {}).items()):
        lines.append("Provides-Extra: " + extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (r, extra) for r in reqs]
    body = ""
    if "readme" in p:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(HERE, p["readme"]), encoding="utf-8") as f:
            body = f.read()
    text = "\n".join(lines) + "\n"
    if body:
        text += "\n" + body
    return name, version, text


def _dist_info_files():
    name, version, metadata = _meta()
    wheel = "Wheel-Version: 1.0\nGenerator: libonnxslim _build/backend.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files = {"METADATA": metadata, "WHEEL": wheel}
    lic = os.path.join(HERE, "..", "LICENSE")
    if os.path.exists(lic):
        with open(lic, encoding="utf-8") as f:
            files["LICENSE"] = f.read()
    return name, version, files


def _write_metadata(directory):
    name, version, files = _dist_info_files()
    dist_info = "%s-%s.dist-info" % (name, version)
    os.makedirs(os.path.join(directory, dist_info), exist_ok=True)
    for n, text in files.items():
        with open(os.path.join(directory, dist_info, n), "w", encoding="utf-8") as f:
            f.write(text)
    return dist_info


def _wheel(directory, members):
    """Writes NAME-VERSION-py3-none-any.whl with members (path -> bytes) and the dist-info."""
    name, version, files = _dist_info_files()
    dist_info = "%s-%s.dist-info" % (name, version)
    entries = dict(members)
    for n, text in files.items():
        entries["%s/%s" % (dist_info, n)] = text.encode("utf-8")
    record = []
    for path in sorted(entries):
        digest = base64.urlsafe_b64encode(hashlib.sha256(entries[path]).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (path, digest, len(entries[path])))
    record.append("%s/RECORD,," % dist_info)
    entries["%s/RECORD" % dist_info] = ("\n".join(record) + "\n").encode()
    filename = "%s-%s-py3-none-any.whl" % (name.replace("-", "_"), version)
    with zipfile.ZipFile(os.path.join(directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(entries, key=lambda p: (p.startswith(dist_info), p)):
            info = zipfile.ZipInfo(path, FIXED_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, entries[path])
    return filename


def _package_files():
    pkg = os.path.join(HERE, PACKAGE)
    out = {}
    for n in sorted(os.listdir(pkg)):
        if n.endswith(".py") or n == "py.typed":
            with open(os.path.join(pkg, n), "rb") as f:
                out["%s/%s" % (PACKAGE, n)] = f.read()
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_metadata(metadata_directory)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return _write_metadata(metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, {"_libonnxslim_editable.pth": (HERE + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    name, version, files = _dist_info_files()
    base = "%s-%s" % (name, version)
    filename = base + ".tar.gz"
    members = {"pyproject.toml": None, "README.md": None, "_build/backend.py": None}
    members.update({p: None for p in _package_files()})
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        entries = {}
        for rel in members:
            with open(os.path.join(HERE, rel), "rb") as f:
                entries[rel] = f.read()
        entries["PKG-INFO"] = files["METADATA"].encode()
        for rel in sorted(entries):
            info = tarfile.TarInfo("%s/%s" % (base, rel))
            info.size, info.mtime, info.mode = len(entries[rel]), 315532800, 0o644
            tar.addfile(info, io.BytesIO(entries[rel]))
    return filename
