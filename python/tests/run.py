# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Runs python/tests/test_*.py with unittest and prints the step's summary line.

Usage: python3 python/tests/run.py   (PYTHONPATH must reach python/libonnxslim)
The last line is "N passed, N failed, N skipped", counted from unittest's
result, a test counted once however many of its subtests failed (errors count
as failures). Exit status 1 when anything failed.
"""

import os
import sys
import unittest


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    # A test with failing subtests appears once per failed subtest in
    # result.failures; count each test once (a subtest's test_case is its test).
    bad = {getattr(t, "test_case", t).id() for t, _ in result.failures + result.errors}
    bad |= {t.id() for t in result.unexpectedSuccesses}
    failed = len(bad)
    skipped = len({t.id() for t, _ in result.skipped} - bad)
    passed = result.testsRun - failed - skipped
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
