"""Every runtime fact's check (runtime_check.fact_checks, what `scatter-explorer verify-facts` runs) holds on the
installed runtimes, which the test suite holds to the verified versions (constraints/verified.txt)."""

from __future__ import annotations

import dataclasses

import pytest

import scatter_core as sc
from runtime_check import fact_checks
from tests.support.skipping import require_or_skip

pytestmark = pytest.mark.runtimes


@pytest.mark.parametrize("fact_id", [f.id for f in sc.FACTS])
def test_fact_holds(fact_id):
    require_or_skip(*dict.fromkeys(p.runtime for p in fact_checks.CHECKS[fact_id]))
    result = fact_checks.check(fact_id)
    assert result.status == "holds", "\n".join(result.details)


def test_a_check_fails_on_a_wrong_expectation_of_each_kind():
    require_or_skip("onnxruntime", "openvino-cpu")
    (probe,) = fact_checks.CHECKS["ort-scatter-9-negative-index"]
    for wrong in (dataclasses.replace(probe, output=[1, 0, 0]),
                  dataclasses.replace(probe, output=None, error="no such words"),
                  dataclasses.replace(probe, output=None, accept=lambda out: out[0] == 1),
                  dataclasses.replace(probe, output=None, crash=True)):
        result = fact_checks.check("ort-scatter-9-negative-index", {"ort-scatter-9-negative-index": (wrong,)})
        assert result.status == "fails" and result.details[0].startswith("FAILS: onnxruntime Scatter-9"), wrong
    crash = fact_checks.CHECKS["ov-range-low"][0]
    said = fact_checks.check("ov-range-low", {"ov-range-low": (dataclasses.replace(crash, crash=False, guarded=True,
                                                                                    output=[0, 0, 0, 7]),)})
    assert said.status == "fails" and "got crashed: openvino-cpu crashed" in said.details[0]
