"""Child process of :func:`runtime_check.run_guarded`: ``python -m runtime_check.worker DIR``.

Reads ``DIR/request.json`` and ``DIR/inputs.npz`` (no pickles), runs the case
in-process with :func:`runtime_check.run`, writes ``DIR/result.json`` (and
``DIR/output.npz``).

Test hook: when the tests set ``RUNTIME_CHECK_TEST_FAULT`` to ``segfault``,
``hang`` or ``exit`` *and* the process runs under pytest (``PYTEST_CURRENT_TEST``
is set, which pytest does for the running test and its children), the worker
misbehaves that way instead of running the case, so the guard's crash, timeout
and no-answer paths can be exercised on any machine. Outside pytest the
variable is ignored.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

FAULT_ENV = "RUNTIME_CHECK_TEST_FAULT"


def _test_fault() -> None:
    fault = os.environ.get(FAULT_ENV)
    if not fault or not os.environ.get("PYTEST_CURRENT_TEST"):
        return
    if fault == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif fault == "hang":
        while True:
            time.sleep(1)
    elif fault == "exit":
        os._exit(3)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m runtime_check.worker DIR", file=sys.stderr)
        return 2
    directory = Path(argv[0])
    from runtime_check.core import run
    from runtime_check.guarded import read_request, write_result

    runtime, op, data, indices, updates, attrs = read_request(directory)
    _test_fault()
    result = run(runtime, op, data, indices, updates, **attrs)
    write_result(directory, result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
