# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The model diff (onnxslim/diff.h): Model.diff() and its report."""

import ctypes
from typing import Iterable, List, Optional

from ._constants import CONSTANTS as _C
from ._errors import _check, _str
from ._lib import DiffNumbers, DiffOptions, lib


def _maybe(raw: Optional[bytes]) -> Optional[str]:
    return None if raw is None else _str(raw)


class DiffEntry:
    """One difference (an entry of onnxslim_diff_report).

    ``kind`` ("node", "initializer", ... onnxslim_diff_kind_name()) and
    ``kind_code``; ``what`` ("presence", "dtype", "contents", ...
    onnxslim_diff_aspect_name()) and ``what_code``; ``graph`` ("" for the
    main graph), ``name``, ``label``, ``attribute`` (None unless about a node
    attribute); ``a`` and ``b`` the values as text (None where absent);
    ``index_a``/``index_b`` the node's positions (None); ``digest_a``/
    ``digest_b`` (contents; None); for tensors compared by value
    ``elements``, ``differing``, ``nan_mismatches``, ``max_abs_diff`` and
    ``dequantized`` (None when not compared by value; ``dequantized`` is
    the onnxslim_diff_dequant value, DIFF_DEQUANT_NONE when B's values were
    compared as stored); ``text`` the line ``libonnxslim diff`` prints
    (unescaped). ``str(entry)`` is the text.
    """

    __slots__ = ("kind", "kind_code", "what", "what_code", "graph", "name", "label", "attribute",
                 "a", "b", "index_a", "index_b", "digest_a", "digest_b", "elements", "differing",
                 "nan_mismatches", "max_abs_diff", "dequantized", "text")

    kind: str
    kind_code: int
    what: str
    what_code: int
    graph: str
    name: str
    label: str
    attribute: Optional[str]
    a: Optional[str]
    b: Optional[str]
    index_a: Optional[int]
    index_b: Optional[int]
    digest_a: Optional[str]
    digest_b: Optional[str]
    elements: Optional[int]
    differing: Optional[int]
    nan_mismatches: Optional[int]
    max_abs_diff: Optional[float]
    dequantized: Optional[int]
    text: str

    def __init__(self, report: ctypes.c_void_p, i: int) -> None:
        self.kind_code = lib.onnxslim_diff_report_kind(report, i)
        self.what_code = lib.onnxslim_diff_report_aspect(report, i)
        self.kind = _str(lib.onnxslim_diff_kind_name(self.kind_code))
        self.what = _str(lib.onnxslim_diff_aspect_name(self.what_code))
        self.graph = _str(lib.onnxslim_diff_report_graph(report, i))
        self.name = _str(lib.onnxslim_diff_report_name(report, i))
        self.label = _str(lib.onnxslim_diff_report_label(report, i))
        self.attribute = _maybe(lib.onnxslim_diff_report_attribute(report, i))
        self.a = _maybe(lib.onnxslim_diff_report_value(report, i, _C["DIFF_A"]))
        self.b = _maybe(lib.onnxslim_diff_report_value(report, i, _C["DIFF_B"]))
        ia = lib.onnxslim_diff_report_node_index(report, i, _C["DIFF_A"])
        ib = lib.onnxslim_diff_report_node_index(report, i, _C["DIFF_B"])
        self.index_a = ia if ia >= 0 else None
        self.index_b = ib if ib >= 0 else None
        self.digest_a = _maybe(lib.onnxslim_diff_report_digest(report, i, _C["DIFF_A"]))
        self.digest_b = _maybe(lib.onnxslim_diff_report_digest(report, i, _C["DIFF_B"]))
        num = DiffNumbers()
        num.version = _C["DIFF_NUMBERS_VERSION"]
        if lib.onnxslim_diff_report_numbers(report, i, ctypes.byref(num)) == 0:
            self.elements, self.differing = num.elements, num.differing
            self.nan_mismatches, self.max_abs_diff = num.nan_mismatches, num.max_abs_diff
            self.dequantized = num.dequantized
        else:
            self.elements = self.differing = self.nan_mismatches = None
            self.max_abs_diff = self.dequantized = None
        self.text = _str(lib.onnxslim_diff_report_text(report, i))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return "<libonnxslim.DiffEntry %r>" % self.text


class DiffReport(List[DiffEntry]):
    """What Model.diff() found: a list of :class:`DiffEntry`, empty when the
    models are equal; ``fingerprint_a`` and ``fingerprint_b`` the models'
    fingerprints; ``equal`` True when the list is empty."""

    def __init__(self, entries: Iterable[DiffEntry], fingerprint_a: str, fingerprint_b: str) -> None:
        super().__init__(entries)
        self.fingerprint_a = fingerprint_a
        self.fingerprint_b = fingerprint_b

    @property
    def equal(self) -> bool:
        """True when the models are equal (no entry)."""
        return len(self) == 0

    def __str__(self) -> str:
        return "\n".join(e.text for e in self)


def diff(a: int, b: int, storage: bool = False) -> DiffReport:
    """onnxslim_diff() of two open models' handles; a :class:`DiffReport`."""
    opts = DiffOptions()
    _check(lib.onnxslim_diff_options_init(ctypes.byref(opts), _C["DIFF_OPTIONS_VERSION"]))
    if storage:
        opts.flags |= _C["DIFF_COMPARE_STORAGE"]
    report = ctypes.c_void_p()
    _check(lib.onnxslim_diff(ctypes.byref(report), a, b, ctypes.byref(opts)))
    try:
        entries = [DiffEntry(report, i) for i in range(lib.onnxslim_diff_report_count(report))]
        fa = _str(lib.onnxslim_diff_report_fingerprint(report, _C["DIFF_A"]))
        fb = _str(lib.onnxslim_diff_report_fingerprint(report, _C["DIFF_B"]))
        return DiffReport(entries, fa, fb)
    finally:
        lib.onnxslim_diff_report_free(report)


