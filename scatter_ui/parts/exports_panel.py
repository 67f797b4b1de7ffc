"""Download buttons that export the current case (pytest, spec_examples JSON, NumPy loop, ONNX).

Used by the explorer pages (after the step log) and by the check page. The
files are generated only when the button is pressed (callable ``data``).
"""

from __future__ import annotations

import importlib.util

import numpy as np
import streamlit as st

import scatter_core as sc
import scatter_export as se

from scatter_ui.parts.controls import lazy_expander
from scatter_ui.figures.text import file_stem

MAX_EXPORT_ELEMENTS = 100_000  # per tensor: the exports inline every value as text


def _slug(op: str) -> str:
    return file_stem(op.lower())  # ASCII only: an operator or a choice named by a model never makes a path


def _onnx_available() -> bool:
    return importlib.util.find_spec("onnx") is not None


def onnx_unavailable_reason(op: str) -> str | None:
    """Why this version has no ONNX export ('' or None when it has one)."""
    spec = sc.OPERATORS[op]
    if spec.framework != "ONNX":
        return f"{op} is an {spec.framework} operator: there is no ONNX model to export."
    if spec.deprecated:
        return f"{op} is deprecated in favour of {spec.deprecated}; onnx refuses to build it."
    if not _onnx_available():
        return "The ONNX export needs the onnx package (install the runtimes extra: pip install -e '.[runtimes]')."
    return None


@st.cache_data(max_entries=32, show_spinner=False)
def _onnx_zip(case_key: tuple, _case: sc.Case, expected):
    """The ONNX test-case zip, or the reason onnx cannot build it (a string); keyed on the case's ``key``."""
    try:
        return se.onnx_test_case(_case, expected)
    except sc.ScatterError as exc:
        return str(exc)


def _safe(build):
    """A download callable that never raises (Streamlit runs it when the button is clicked, and a raise there
    is only a server log line and a failed download): a failure becomes a comment in the file."""
    def run():
        try:
            return build()
        except sc.ScatterError as exc:
            return f"# export failed: {exc}\n"
        except Exception as exc:  # noqa: BLE001 - any failure is said in the file, never a traceback
            return f"# export failed ({type(exc).__name__}): {exc}\n"
    return run


def render(case: sc.Case, expected, key: str, rtol: float = sc.DEFAULT_RTOL, atol: float = sc.DEFAULT_ATOL,
           expanded: bool = False, expected_from: str = "") -> None:
    """An "Export this case" expander with one download button per format (``expected``: None, the case's own
    output).

    ``expected_from`` names where ``expected`` comes from when it may be either (the check page: "computed" or
    "your-expected"); it goes into every file name, so the two downloads are never confused."""
    op = case.op
    slug = _slug(op) + (f"_{_slug(expected_from)}" if expected_from else "")
    box = lazy_expander("Export this case", f"{key}:open", expanded=expanded)  # built only while open
    if box is None:
        return
    with box:
        sizes = [np.asarray(a).size for a in (*case.given(), expected) if a is not None]
        if max(sizes) > MAX_EXPORT_ELEMENTS:
            st.caption(f"This case is too large to export: the exports write every value out, and a tensor "
                       f"here has {max(sizes):,} elements (the limit is {MAX_EXPORT_ELEMENTS:,}).")
            return
        st.caption("A pytest test in plain NumPy (the spec's loop and the arrays inlined, no Scatter Explorer "
                   "needed), the case as a spec_examples JSON file, a short NumPy loop that prints the output, and "
                   "for ONNX operators a model with its input and expected output tensors.")
        cols = st.columns(4)
        cols[0].download_button(
            "pytest test (.py)", data=_safe(lambda: se.pytest_case(case, expected, rtol=rtol, atol=atol)),
            file_name=f"test_{slug}_case.py", mime="text/x-python", key=f"{key}:pytest", on_click="ignore",
            icon=":material/science:")
        cols[1].download_button(
            "spec_examples JSON", data=_safe(lambda: se.example_json(case, expected)),
            file_name=f"{slug}_case.json", mime="application/json", key=f"{key}:json", on_click="ignore",
            icon=":material/data_object:")
        cols[2].download_button(
            "NumPy loop (.py)", data=_safe(lambda: se.numpy_loop(case)),
            file_name=f"{slug}_loop.py", mime="text/x-python", key=f"{key}:loop", on_click="ignore",
            icon=":material/code:")
        reason = onnx_unavailable_reason(op)
        blob = None
        if not reason:
            blob = _onnx_zip(case.key, case, None if expected is None else np.asarray(expected))
            if isinstance(blob, str):
                reason = blob
        if reason:
            cols[3].caption(f"ONNX model: {reason}")
        else:
            cols[3].download_button(
                "ONNX model + tensors (.zip)", data=blob,
                file_name=f"{slug}_case.zip", mime="application/zip", key=f"{key}:onnx", on_click="ignore",
                icon=":material/deployed_code:",
                help="model.onnx plus test_data_set_0/input_0..2.pb (data, indices, updates) and output_0.pb "
                     "(the expected output), in ONNX's test-data layout")
        _framework_buttons(case, expected, key, slug)


def _framework_buttons(case: sc.Case, expected, key: str, slug: str) -> None:
    """"as PyTorch / TensorFlow / JAX" scripts from framework_map's verified records, where a faithful one exists."""
    cols = st.columns(len(se.SNIPPET_FRAMEWORKS))
    for col, framework in zip(cols, se.SNIPPET_FRAMEWORKS):
        reason = se.framework_unavailable_reason(framework, case)
        if reason:
            col.caption(f"as {framework}: {reason}")
            continue
        col.download_button(
            f"as {framework} (.py)", data=_safe(lambda f=framework: se.framework_snippet(f, case, expected)),
            file_name=f"{slug}_{framework.lower()}.py", mime="text/x-python", key=f"{key}:{framework}",
            on_click="ignore", icon=":material/swap_horiz:",
            help=f"The case in {framework}, with the function framework_map checks against this app's core and "
                 "where its semantics differ (docs/frameworks.md)")


def render_computed(case: sc.Case, key: str) -> None:
    """The export buttons for an explorer view: the case, its own output as the expected one."""
    try:
        render(case, None, key)
    except sc.ScatterError as exc:  # e.g. a dtype the exports do not cover
        st.caption(f"Export unavailable: {exc}")
