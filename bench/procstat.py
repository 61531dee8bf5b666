# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""What the bench's Python runners share: this process's memory figures and
their MODEL [--key VALUE ...] command lines."""
import sys


def status_kb(keys=("VmHWM", "RssAnon", "RssFile")):
    """{key: kB} of /proc/self/status for each key (-1 when absent)."""
    out = dict.fromkeys(keys, -1)
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in out:
                out[k] = int(v.split()[0])
    return out


def parse_args(argv, opt, usage):
    """MODEL and --KEY VALUE options into opt (in place): a value takes the
    type of its default (int, float; str when the default is None). Returns
    MODEL (None when not given); a wrong command line prints usage to stderr
    and exits with status 2."""
    model = None
    i = 0
    while i < len(argv):
        k = argv[i][2:]
        if argv[i].startswith("--") and k in opt and i + 1 < len(argv):
            d = opt[k]
            opt[k] = argv[i + 1] if d is None else type(d)(argv[i + 1])
            i += 2
        elif model is None and not argv[i].startswith("--"):
            model = argv[i]
            i += 1
        else:
            print(usage, file=sys.stderr)
            sys.exit(2)
    return model
