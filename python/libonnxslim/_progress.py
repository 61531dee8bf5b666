# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The ``progress=`` argument of load(), Model.convert() and Model.save().

A Python callable ``progress(done, total)`` becomes the C progress function
(onnxslim_progress_fn) of the options: the library calls it with the bytes
done of a total known up front, at most once per MiB. Its return value is
ignored. To stop the work it raises: the exception (KeyboardInterrupt
included, so Ctrl-C while the callable runs) is caught in the C call,
which stops with ONNXSLIM_ECANCELED and changes nothing, and is re-raised
once the call has returned. An exception in the last call (done == total)
comes after the work has completed; it is re-raised all the same.

The callable runs inside the C call, which holds the model's lock: there
the model the call works on is marked busy, and using or closing it raises
RuntimeError (the C rule: the function must not use the model the
operation works on).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from ._lib import ProgressFn

if TYPE_CHECKING:
    from ._model import Model

#: The ``progress=`` argument: called as progress(done, total); the result is ignored.
ProgressCallback = Callable[[int, int], object]


class Progress:
    """One call's progress function: set it in the options with :meth:`attach`
    (the ctypes callback lives as long as this object), make the C call, then
    :meth:`check` re-raises what the callable raised."""

    def __init__(self, fn: ProgressCallback, model: Optional[Model] = None) -> None:
        if not callable(fn):
            raise TypeError("progress must be callable(done, total), not %s" %
                            type(fn).__name__)
        self.fn = fn
        self.model = model
        self.error: Optional[BaseException] = None
        self.c = ProgressFn(self._call)

    def _call(self, done: int, total: int, payload: Optional[int]) -> int:
        if self.error is not None:
            return 1
        model = self.model
        if model is not None:
            model._in_callback += 1
        try:
            self.fn(done, total)
        except BaseException as e:  # noqa: B902 - re-raised by check()
            self.error = e
            return 1
        finally:
            if model is not None:
                model._in_callback -= 1
        return 0

    def attach(self, opts: Any) -> None:
        opts.progress = self.c
        opts.progress_payload = None

    def check(self) -> None:
        """Re-raises the callable's exception, if it raised one."""
        if self.error is not None:
            e, self.error = self.error, None
            raise e


def make(fn: Optional[ProgressCallback], model: Optional[Model] = None) -> Optional[Progress]:
    """A Progress for fn, or None for None; `model`: the model the call works
    on (busy while fn runs)."""
    return None if fn is None else Progress(fn, model)
