# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""One model shared by threads, and a model closed while it is in use: the
cases of test_threads.py, run in a child interpreter so that a crash (or an
AddressSanitizer report, when step 71-python-asan preloads ASan and points
LIBONNXSLIM_LIBRARY at an ASan build) fails the case instead of killing the
runner.

    python3 -X faulthandler threads_child.py CASE [ITERATIONS]

CASE: close_in_save_progress, close_in_convert_progress, close_while_reading,
close_source_of_copy, copy_both_ways, shared_readers, or all. Prints
"ok CASE: ..." or "WRONG CASE: ..." per case; exits 0 when every case was
ok, 1 otherwise (and dies with the signal on a crash).
"""

import os
import shutil
import sys
import tempfile
import threading

import libonnxslim

HERE = os.path.dirname(os.path.abspath(__file__))
BERT = os.path.normpath(os.path.join(HERE, "..", "..", "test", "data", "bert-tiny.onnx"))


class Wrong(Exception):
    pass


def expect(cond, why):
    if not cond:
        raise Wrong(why)


def read_all(m):
    """Everything a reader reads: node fields and attributes, tensors' bytes,
    value infos, the serialized model. Returns a summary to compare."""
    g = m.graph
    out = [m.producer_name, len(m.opsets), g.name]
    for n in g.nodes:
        out.append((n.name, n.op_type, n.domain, tuple(n.inputs), tuple(n.outputs)))
        for a in n.attributes:
            out.append((a, repr(n.find_attribute(a).value)))
    for t in g.initializers:
        out.append((t.name, t.dtype, tuple(t.shape), len(t.tobytes())))
    for vi in g.inputs + g.outputs:
        out.append((vi.name, repr(vi.type)))
    for n in g.nodes:
        out.append(len(g.consumers(n.outputs[0])) if n.outputs else -1)
    return out


def closed_error(e):
    """An exception that says the model is closed (what a use after close raises)."""
    return isinstance(e, libonnxslim.InvalidArgument) and "closed" in str(e)


def close_in_progress(kind):
    """close() inside the progress callback of save()/convert() raises; the
    operation stops cleanly (the file is not written, the model unchanged);
    the model is usable afterwards and closes normally."""
    tmp = tempfile.mkdtemp()
    try:
        m = libonnxslim.load(BERT)
        before = m.save_bytes()
        calls = []

        def close_now(done, total):
            calls.append((done, total))
            m.close()  # must raise: the call in flight uses the model

        out = os.path.join(tmp, "out.onnx")
        try:
            if kind == "save":
                m.save(out, progress=close_now, no_fsync=True)
            else:
                m.convert(to="fp16", progress=close_now)
        except RuntimeError as e:
            expect("progress" in str(e) and "close" in str(e), "unclear exception: %r" % e)
        else:
            raise Wrong("close() inside the progress callback did not raise")
        expect(len(calls) == 1, "the callback was called %d times, not once" % len(calls))
        expect(not m.closed, "the model was closed inside the call")
        expect(not os.path.exists(out), "the canceled save left %s" % out)
        expect(m.save_bytes() == before, "the canceled %s changed the model" % kind)
        # a callback that catches the exception: the operation completes
        caught = []

        def try_close(done, total):
            try:
                m.close()
            except RuntimeError as e:
                caught.append(e)

        if kind == "save":
            m.save(out, progress=try_close, no_fsync=True)
            expect(os.path.getsize(out) > 0, "the save did not complete")
        else:
            m.convert(to="fp16", progress=try_close)
            expect(m.save_bytes() != before, "the conversion did not complete")
        expect(caught, "close() in the callback did not raise")
        read_all(m)
        m.close()
        expect(m.closed, "close() after the call did not close")
        return "close() in the callback raised, the model stayed usable, then closed"
    finally:
        shutil.rmtree(tmp)


def close_in_save_progress(iterations):
    return close_in_progress("save")


def close_in_convert_progress(iterations):
    return close_in_progress("convert")


def close_while_reading(iterations):
    """Thread A reads the model in a loop, thread B closes it once A has
    started: A gets "the model is closed" or completes, never a crash."""
    outcomes = {"closed": 0, "completed": 0}
    for _ in range(iterations):
        m = libonnxslim.load(BERT)
        started = threading.Event()
        result = []

        def reader():
            try:
                for i in range(50):
                    read_all(m)
                    started.set()
                result.append("completed")
            except Exception as e:  # noqa: B902 - classified below
                result.append(e)
            finally:
                started.set()

        a = threading.Thread(target=reader)
        a.start()
        started.wait()
        m.close()
        a.join()
        r = result[0]
        if r == "completed":
            outcomes["completed"] += 1
        elif closed_error(r):
            outcomes["closed"] += 1
        else:
            raise Wrong("the reader got %r, not 'the model is closed'" % r)
    expect(outcomes["closed"] > 0, "no reader saw the model closed: %s" % outcomes)
    return "%d runs: %d readers saw 'the model is closed', %d completed" % (
        iterations, outcomes["closed"], outcomes["completed"])


def close_source_of_copy(iterations):
    """Thread A copies tensors, attributes and types of model S into model D
    (add_initializer(Tensor), set_attribute(Tensor), set_value_type(Type)) in
    a loop; thread B closes S once A has started: A gets "the model is
    closed" or completes, never a crash."""
    outcomes = {"closed": 0, "completed": 0}
    dest = libonnxslim.load(BERT)
    name = dest.graph.inputs[0].name
    for it in range(iterations):
        src = libonnxslim.load(BERT)
        tensors = src.graph.initializers
        vtype = src.graph.inputs[0].type
        started = threading.Event()
        result = []

        def copier():
            try:
                for i in range(5):
                    for k, t in enumerate(tensors):
                        dest.graph.add_initializer(dest.unique_name("copy"), t)
                        dest.graph.nodes[0].set_attribute("t", t)
                        dest.graph.set_value_type(name, vtype)
                        started.set()
                result.append("completed")
            except Exception as e:  # noqa: B902 - classified below
                result.append(e)
            finally:
                started.set()

        a = threading.Thread(target=copier)
        a.start()
        started.wait()
        src.close()
        a.join()
        r = result[0]
        if r == "completed":
            outcomes["completed"] += 1
        elif closed_error(r):
            outcomes["closed"] += 1
        else:
            raise Wrong("the copier got %r, not 'the model is closed'" % r)
        if it % 20 == 19:  # keep the destination small
            dest.close()
            dest = libonnxslim.load(BERT)
    dest.close()
    expect(outcomes["closed"] > 0, "no copier saw the source closed: %s" % outcomes)
    return "%d runs: %d copiers saw 'the model is closed', %d completed" % (
        iterations, outcomes["closed"], outcomes["completed"])


def copy_both_ways(iterations):
    """Two threads copy tensors between two models in opposite directions
    (each call holds both models' locks): no deadlock, no error."""
    a, b = libonnxslim.load(BERT), libonnxslim.load(BERT)
    errors = []
    sys.setswitchinterval(1e-6)  # switch threads often: between two lock acquires too

    def copy(src, dst):
        try:
            tensors = src.graph.initializers
            for i in range(iterations):
                dst.graph.add_initializer(dst.unique_name("copy"), tensors[i % len(tensors)])
        except Exception as e:  # noqa: B902 - reported
            errors.append(repr(e))

    threads = [threading.Thread(target=copy, args=(a, b)),
               threading.Thread(target=copy, args=(b, a))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sys.setswitchinterval(0.005)
    n = (len(a.graph.initializers), len(b.graph.initializers))
    a.close()
    b.close()
    expect(not errors, "%d errors, first: %s" % (len(errors), errors[:1]))
    return "2 threads x %d copies between two models, both ways: %s initializers" % (
        iterations, n)


def shared_readers(iterations):
    """Four threads use one model at the same time (a model with external
    data and converted tensors): reads, save_bytes(), fingerprint() and saves
    with external data give what one thread gets, and no error."""
    import numpy as np
    tmp = tempfile.mkdtemp()
    try:
        with libonnxslim.load(BERT) as m:
            for i in range(4):
                m.graph.add_initializer("big%d" % i, np.linspace(-3, 3, 256 * 1024,
                                                                 dtype=np.float32))
            m.save(os.path.join(tmp, "m.onnx"), external_data="one_file", threshold=0,
                   no_fsync=True)
        m = libonnxslim.load(os.path.join(tmp, "m.onnx"))
        m.convert(to="fp16")
        expected = read_all(m)
        expected_bytes = m.save_bytes()
        expected_fp = m.fingerprint()
        errors = []
        rounds = max(1, iterations // 20)

        def user(k):
            try:
                for _ in range(rounds):
                    if read_all(m) != expected:
                        errors.append("a read differs from the single-thread read")
                    if m.save_bytes() != expected_bytes:
                        errors.append("save_bytes() differs from the single-thread result")
                    if m.fingerprint() != expected_fp:
                        errors.append("fingerprint() differs from the single-thread result")
                    m.save(os.path.join(tmp, "out%d.onnx" % k), external_data="one_file",
                           no_fsync=True)
            except Exception as e:  # noqa: B902 - reported
                errors.append(repr(e))

        threads = [threading.Thread(target=user, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        m.close()
        expect(not errors, "%d errors, first: %s" % (len(errors), errors[:1]))
        return "4 threads x %d rounds on one model: all equal, no error" % rounds
    finally:
        shutil.rmtree(tmp)


CASES = {f.__name__: f for f in (close_in_save_progress, close_in_convert_progress,
                                 close_while_reading, close_source_of_copy,
                                 copy_both_ways, shared_readers)}


def main(argv):
    names = list(CASES) if argv[1] == "all" else [argv[1]]
    iterations = int(argv[2]) if len(argv) > 2 else 200
    wrong = 0
    for name in names:
        try:
            print("ok %s: %s" % (name, CASES[name](iterations)), flush=True)
        except Wrong as e:
            wrong += 1
            print("WRONG %s: %s" % (name, e), flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
