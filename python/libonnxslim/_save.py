# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Saving (onnxslim/save.h): Model.save(), Model.merge(), Model.save_size() and the SaveReport."""

from __future__ import annotations

import ctypes
import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

from . import _args, _base, _progress
from ._constants import CONSTANTS as _C
from ._errors import _check, _need, _path, _str
from ._lib import SaveOptions, lib

if TYPE_CHECKING:
    from ._model import Model, PathType
    from ._progress import ProgressCallback

_PLACEMENTS: Dict[int, str] = {_C["SAVE_PLACEMENT_EXTERNAL"]: "external",
               _C["SAVE_PLACEMENT_BELOW_THRESHOLD"]: "below_threshold",
               _C["SAVE_PLACEMENT_SHAPE_INPUT"]: "shape_input",
               _C["SAVE_PLACEMENT_NO_LAYOUT"]: "no_layout"}

_LAYOUTS: Dict[Union[None, bool, str], str] = {None: "LAYOUT_AS_LOADED", "one_file": "LAYOUT_ONE_FILE",
            "per_tensor": "LAYOUT_PER_TENSOR", False: "LAYOUT_INLINE", True: "LAYOUT_ONE_FILE"}

# keyword -> SAVE_* flag
_FLAGS = (("no_fsync", "SAVE_NO_FSYNC"), ("allow_large", "SAVE_ALLOW_LARGE"),
          ("constants", "SAVE_CONSTANTS"), ("checksum", "SAVE_CHECKSUM"),
          ("force_shape_inputs", "SAVE_FORCE_SHAPE_INPUTS"), ("keep_storage", "SAVE_KEEP_STORAGE"))


class SaveEntry(NamedTuple):
    """Where a save put one tensor: its value ``name``; ``placement``, one of
    "external" (written to a data file), "below_threshold" (inline: smaller
    than the threshold, or an inline save), "shape_input" (inline: an input
    onnxruntime reads at load, such as a shape or Resize's scales) and "no_layout" (inline: STRING or
    unknown type); the data file ``location`` relative to the model's
    directory (None when inline), ``offset`` and ``length`` in it."""

    name: str
    placement: Union[str, int]  # an int: a SAVE_PLACEMENT_* value newer than this package
    location: Optional[str]
    offset: int
    length: int


class SaveReport(_base._Entries[SaveEntry]):
    """The report of :meth:`Model.save`: a sequence of :class:`SaveEntry` (none
    for a save with ``external_data=None``) and ``kernel_copied``."""

    def __init__(self, entries: Iterable[SaveEntry], kernel_copied: int) -> None:
        self._entries = list(entries)
        self._kernel_copied = kernel_copied

    @property
    def entries(self) -> List[SaveEntry]:
        """The entries, a list of :class:`SaveEntry`."""
        return list(self._entries)

    @property
    def kernel_copied(self) -> int:
        """Bytes the kernel copied (copy_file_range) during the save."""
        return self._kernel_copied

    @property
    def locations(self) -> List[str]:
        """The data files written, relative to the model's directory, in first-use order."""
        seen: List[str] = []
        for e in self._entries:
            if e.location is not None and e.location not in seen:
                seen.append(e.location)
        return seen

    def __repr__(self) -> str:
        moved = sum(1 for e in self._entries if e.placement == "external")
        return "<libonnxslim.SaveReport %d tensors, %d external>" % (len(self), moved)


def _report(rep: Any) -> SaveReport:
    entries: List[SaveEntry] = []
    for i in range(lib.onnxslim_save_report_count(rep)):
        name = _str(_need(lib.onnxslim_save_report_name(rep, i)))
        placement = _check(lib.onnxslim_save_report_placement(rep, i))
        loc = lib.onnxslim_save_report_location(rep, i)
        offset, length = ctypes.c_uint64(), ctypes.c_uint64()
        _check(lib.onnxslim_save_report_offset(rep, i, ctypes.byref(offset)))
        _check(lib.onnxslim_save_report_length(rep, i, ctypes.byref(length)))
        entries.append(SaveEntry(name, _PLACEMENTS.get(placement, placement),
                                 None if loc is None else _str(loc), offset.value, length.value))
    return SaveReport(entries, lib.onnxslim_save_report_kernel_copied(rep))


def _options(external_data: Union[None, bool, str], threshold: Optional[int],
             align: Optional[int], location: Optional[str], layout: Optional[int], flags: int,
             flag_kwargs: Dict[str, Any], what: str) -> Tuple[SaveOptions, Any]:
    """The C options of save() and save_bytes_external(), and what must live as long."""
    opts = SaveOptions()
    _check(lib.onnxslim_save_options_init(ctypes.byref(opts), _C["SAVE_OPTIONS_VERSION"]))
    if layout is not None:
        if external_data is not None:
            raise ValueError("give external_data= or layout=, not both")
        opts.layout = _args.int64(layout, "layout")
    else:
        try:
            key = _LAYOUTS[external_data]
        except (KeyError, TypeError):
            raise ValueError("external_data must be None, 'one_file', 'per_tensor' or False, "
                             "not %r" % (external_data,))
        opts.layout = _C[key]
    opts.flags = _args.uint64(flags, "flags") if flags else 0
    for kw, const in _FLAGS:
        if _args.flag(flag_kwargs.pop(kw, False), kw):
            opts.flags |= _C[const]
    if flag_kwargs:
        raise TypeError("%s() got an unexpected keyword argument %r" % (what, sorted(flag_kwargs)[0]))
    if threshold is not None:
        opts.size_threshold = _args.uint64(threshold, "threshold")
    if align is not None:
        opts.align = _args.uint64(align, "align")
    keep = None
    if location is not None:
        keep = _args.cstr(location, "location")
        opts.location = keep
    return opts, keep


def save(model: Model, path: PathType, external_data: Union[None, bool, str] = None,
         threshold: Optional[int] = None, align: Optional[int] = None,
         location: Optional[str] = None, layout: Optional[int] = None, flags: int = 0,
         progress: Optional[ProgressCallback] = None, **flag_kwargs: Any) -> SaveReport:
    """Model.save(); see there."""
    m = model._ptr()
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError("path must be str or os.PathLike, not %s" % type(path).__name__)
    opts, keep = _options(external_data, threshold, align, location, layout, flags, flag_kwargs,
                          "save")
    prog = _progress.make(progress, model)
    if prog:
        prog.attach(opts)
    rep = ctypes.c_void_p()
    rc = lib.onnxslim_save(ctypes.byref(rep), m, _path(path), ctypes.byref(opts))
    if prog:
        try:
            prog.check()
        except BaseException:
            lib.onnxslim_save_report_free(rep)  # NULL unless the last call raised
            raise
    _check(rc, os.fsdecode(path))
    try:
        return _report(rep)
    finally:
        lib.onnxslim_save_report_free(rep)


def save_bytes_external(model: Model, external_data: Union[None, bool, str] = "per_tensor",
                        threshold: Optional[int] = None, align: Optional[int] = None,
                        location: Optional[str] = None, layout: Optional[int] = None,
                        flags: int = 0, **flag_kwargs: Any) -> Tuple[bytes, SaveReport]:
    """Model.save_bytes_external(); see there."""
    m = model._ptr()
    opts, keep = _options(external_data, threshold, align, location, layout, flags, flag_kwargs,
                          "save_bytes_external")
    size = ctypes.c_size_t()
    rc = lib.onnxslim_save_buffer_external(None, m, None, 0, ctypes.byref(size), ctypes.byref(opts))
    if rc != _C["EBUFSIZE"]:
        _check(rc)
    buf = ctypes.create_string_buffer(max(size.value, 1))
    rep = ctypes.c_void_p()
    _check(lib.onnxslim_save_buffer_external(ctypes.byref(rep), m, buf, len(buf), ctypes.byref(size),
                                             ctypes.byref(opts)))
    del keep  # the location string lived through both calls
    try:
        return buf.raw[:size.value], _report(rep)
    finally:
        lib.onnxslim_save_report_free(rep)


def save_size(model: Model) -> int:
    """Model.save_size(); see there."""
    size = ctypes.c_uint64()
    _check(lib.onnxslim_save_size(model._ptr(), ctypes.byref(size)))
    return size.value
