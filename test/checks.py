# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The ok/FAIL lines and the summary line of the test/check_*.py scripts.

    from checks import report, finish
    report(cond, "what is checked", "detail shown on failure")
    ...
    finish()   # prints "N passed, N failed"; exits 1 when a check failed
"""

import sys

passed = failed = 0


def report(ok, what, detail=""):
    """One check: "ok   WHAT", or "FAIL WHAT: DETAIL" (a multi-line detail
    goes below, indented). Returns ok."""
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        detail = str(detail)
        if "\n" in detail:
            detail = "\n    " + detail.replace("\n", "\n    ")
        elif detail:
            detail = " " + detail
        print("FAIL " + what + (":" + detail if detail else ""))
    return ok


def finish():
    """The summary line the test runner reads, and the exit status."""
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
