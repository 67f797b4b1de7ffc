"""from_code.translate: a framework's scatter call -> its ONNX / OpenVINO operator (issue 24).

* Differential, for every supported call shape: random cases (duplicates and negative indices drawn often)
  run through the framework's own call (JAX and NumPy always; PyTorch and TensorFlow where installed, as
  tests/from_code/test_framework_map.py does) and through scatter_core running the translation; they agree exactly,
  or, under replacement with duplicates, another duplicate wins, which the caveats state.
* What the answer says for the issue's examples; hostile text; the real signatures.
"""

from __future__ import annotations

import builtins
import re
import sys
from collections import Counter

import numpy as np
import pytest

import framework_map as fm
import scatter_core as sc
from from_code.translate import CALLS, MAX_CALL_TEXT
from from_code.case import (agrees, case_for, example_tensors, framework_code,
                                          runs_in)
from tests.support.skipping import require_framework
from tests.support.from_call import ALL, SHAPES, read, run_framework


CASES = 6  # per call shape: 3 float32 and 3 int32
JAX_CASES = 3  # JAX compiles per shape and dtype: what 2 cores afford in CI (about a minute)


# ------------------------------------------------------------------------------ every shape translates
@pytest.mark.parametrize("framework,text", ALL, ids=[t for _, t in ALL])
def test_every_supported_call_shape_translates_and_its_case_runs_in_scatter_core(framework, text):
    tr = read(text)
    assert tr.framework == framework
    assert isinstance(tr.onnx, list) and isinstance(tr.openvino, list) and isinstance(tr.caveats, list)
    assert tr.exact == bool((tr.onnx or tr.openvino) and tr.reading.alpha is None)
    if not (tr.onnx and tr.openvino):  # a target without a single exact operator: the composition says why
        assert tr.composition
    for target, ops in (("ONNX", tr.onnx), ("OpenVINO", tr.openvino)):
        for op, attrs in ops:
            spec = sc.OPERATORS[op]
            assert spec.framework == target
            assert set(attrs) <= set(spec.attribute_names)
            if "reduction" in attrs:
                assert attrs["reduction"] in spec.reduction_spellings  # scatter_core's spelling ("add", "sum")
            assert sc.OPERATORS[tr.oldest[op]].op_type == spec.op_type
            assert sc.OPERATORS[tr.oldest[op]].version <= spec.version
    assert tr.entry is None or tr.entry in fm.BY_ID
    rng = np.random.default_rng(len(text))
    for n in range(4):
        cc = case_for(tr, example_tensors(tr, rng, "float32" if n % 2 else "int32"))
        assert cc.case.spec.name == tr.target
        assert cc.output().shape == cc.shape


# ------------------------------------------------------------------------------ differential
def _differential(framework: str, texts: list[str], run_as: str | None = None):
    rng = np.random.default_rng()  # new cases each run; a failure prints the case
    failures, seen = [], Counter()
    for text in texts:
        tr = read(text)
        if run_as is not None and run_as not in runs_in(tr):
            continue
        for n in range(JAX_CASES if framework == "JAX" else CASES):
            tensors = example_tensors(tr, rng, "float32" if n % 2 else "int32")
            cc = case_for(tr, tensors)
            got = run_framework(tr, tensors, run_as)
            verdict = agrees(cc, got, tr.reading.canonical)
            dup = bool(cc.case.trace().duplicate_groups().size)
            seen["duplicates"] += dup
            seen["negative"] += any(v.min(initial=0) < 0 for k, v in tensors.items()
                                    if k not in ("shape", "mask") and v.dtype.kind == "i" and k != "data"
                                    and any(s.name == k and s.role == "indices" for s in tr.slots))
            if verdict == "other-winner":  # allowed only where the caveats say the winner is unspecified
                assert tr.reading.canonical == "none" and dup, text
                assert any("undefined" in c or "unspecified" in c for c in tr.caveats), text
                seen["other-winner"] += 1
            elif verdict != "exact":
                failures.append(f"{text}: {({k: v.tolist() for k, v in tensors.items()})}: {verdict}")
    assert not failures, "\n".join(failures[:10])
    return seen


@pytest.mark.slow
def test_jax_calls_agree_with_scatter_core_running_their_translation():
    require_framework("JAX")
    seen = _differential("JAX", SHAPES["JAX"])
    assert seen["duplicates"] > 10 and seen["negative"] > 10, seen


def test_numpy_calls_agree_with_scatter_core_running_their_translation():
    seen = _differential("NumPy", SHAPES["NumPy"])
    assert seen["duplicates"] > 10 and seen["negative"] > 10, seen


def test_index_assignments_run_in_numpy_agree_with_their_translation():
    """x[i, j] = v and x[idx] += v mean the same in NumPy as in PyTorch (records.py says so): checked here always."""
    seen = _differential("PyTorch", SHAPES["PyTorch"], run_as="NumPy")
    assert seen["duplicates"] > 5 and seen["negative"] > 5, seen


@pytest.mark.slow
@pytest.mark.parametrize("framework", ["PyTorch", "TensorFlow"])
def test_pytorch_and_tensorflow_calls_agree_where_installed(framework):
    require_framework(framework)
    _differential(framework, SHAPES[framework])


def test_what_running_pytorch_found_stays_fixed_where_installed():
    """Two disagreements the first PyTorch run (torch 2.13.0+cpu) found: index_put refuses a number among its
    indices (from_call now says so instead of translating a call PyTorch rejects), and select_scatter on 1-D data
    takes a 0-d src (the generated code once made it 1-d)."""
    require_framework("PyTorch")
    import torch

    with pytest.raises(TypeError):
        torch.zeros(3, 2).index_put((torch.tensor([0]), 0), torch.ones(1))
    tr = read("torch.select_scatter(x, src, 0, -1)")
    tensors = {"data": np.array([1.0, 2.0, 3.0], np.float32), "src": np.array(9.0, np.float32)}
    got = run_framework(tr, tensors)
    assert got.tolist() == [1.0, 2.0, 9.0] and agrees(case_for(tr, tensors), got, "none") == "exact"


# ------------------------------------------------------------------------------ the examples
def test_include_self_false_has_no_onnx_attribute_and_is_exact_in_openvino():
    tr = read('x.scatter_reduce(1, idx, src, reduce="amax", include_self=False)')
    assert tr.framework == "PyTorch" and tr.entry == "torch.scatter_reduce"
    assert tr.onnx == []
    assert tr.openvino == [("ScatterElementsUpdate-12", {"axis": 1, "reduction": "max", "use_init_val": False})]
    assert tr.exact is True
    assert "include_self=False" in tr.composition and "no ONNX attribute" in tr.composition
    # the initial-value sentence is the framework map's own
    assert any(fm.BY_ID["torch.scatter_reduce"].divergences["initial value"] in c for c in tr.caveats)


def test_the_newest_and_the_oldest_onnx_version():
    tr = read("x.scatter_add(0, idx, src)")
    assert tr.onnx == [("ScatterElements-18", {"axis": 0, "reduction": "add"})]
    assert tr.oldest["ScatterElements-18"] == "ScatterElements-16"  # add arrived in 16
    tr = read("x.scatter_reduce(0, idx, src, 'amin')")
    assert tr.oldest["ScatterElements-18"] == "ScatterElements-18"  # min arrived in 18
    tr = read("tf.tensor_scatter_nd_update(t, idx, upd)")
    assert tr.onnx == [("ScatterND-18", {"reduction": "none"})] and tr.oldest["ScatterND-18"] == "ScatterND-11"
    assert tr.oldest["ScatterNDUpdate-15"] == "ScatterNDUpdate-3"  # TF refuses negatives itself


def test_a_version_refusing_negative_indices_is_not_offered_for_a_call_that_takes_them():
    tr = read("x.at[i, j].set(v)")
    assert tr.oldest["ScatterNDUpdate-15"] == "ScatterNDUpdate-15"
    assert any(c.startswith("ScatterNDUpdate-3 also has this reduction but refuses negative indices")
               for c in tr.caveats)


def test_mean_caveats_name_the_integer_truncation_from_the_registry():
    tr = read("x.scatter_reduce(0, idx, src, 'mean')")
    assert tr.onnx == [] and "no mean" in tr.composition
    note = sc.OPERATORS["ScatterElementsUpdate-12"].notes_on("integer-mean")[0]
    assert any(note.text in c for c in tr.caveats)
    assert any("truncat" in c for c in tr.caveats)


def test_duplicates_negative_indices_and_out_of_range_caveats_come_from_the_records():
    jax = read("x.at[idx].set(v)")
    assert any(fm.BY_ID["jax.at.nd"].divergences["duplicates"] in c for c in jax.caveats)  # unspecified winner
    assert any("ONNX requires an error" in c for c in jax.caveats)  # mode="drop" drops out-of-range silently
    torch = read("x.scatter(1, idx, src)")
    assert any("CUDA" in c for c in torch.caveats)  # the order of duplicates under CUDA
    assert any(fm.BY_ID["torch.scatter"].divergences["negative indices"] in c for c in torch.caveats)
    tf = read("tf.tensor_scatter_nd_add(t, idx, upd)")
    assert any(fm.BY_ID["tf.tensor_scatter_nd_add"].divergences["out-of-range indices"] in c for c in tf.caveats)
    assert any("LAST" not in c and "last write" in c for c in read("x[i] = v").caveats)  # LAST_WINS note


def test_augmented_assignment_is_a_read_combine_write_not_an_accumulation():
    tr = read("x[idx] += v")
    assert tr.onnx == [] and tr.openvino == [] and tr.exact is False
    assert "GatherND" in tr.composition and "accumulate=True" in tr.composition
    data, idx, v = np.zeros(4, np.float32), np.array([1, 1, -1]), np.array([1, 2, 3], np.float32)
    cc = case_for(tr, {"data": data, "index": idx, "values": v})
    got = run_framework(tr, {"data": data, "index": idx, "values": v}, "NumPy")
    assert agrees(cc, got, "none") == "exact" and got[1] == 2  # one duplicate won; they did not add up to 3
    acc = read("x.index_put_((idx,), v, accumulate=True)")
    assert acc.onnx == [("ScatterND-18", {"reduction": "add"})]
    assert case_for(acc, {"data": data, "index": idx, "values": v}).output()[1] == 3


def test_an_augmented_subtraction_of_bool_data_is_refused_with_a_message_as_the_frameworks_refuse_it():
    """x[i, j] -= v on bool data: NumPy and PyTorch both raise (bool subtraction is not defined); the case did
    too, with a bare TypeError that reached the page. Now a ScatterError names the data, the dtype and the rule;
    += and *= on bool (logical or / and, as PyTorch does) still make a case."""
    bools = {"data": np.array([[True, False], [False, True]]), "indices_0": np.array([0, -1]),
             "indices_1": np.array([1, 1]), "values": np.array([True, True])}
    with pytest.raises(sc.ScatterError, match="subtract, which is not defined for bool") as exc:
        case_for(read("x[i, j] -= v"), bools)
    assert exc.value.argument == "data" and exc.value.rule == "dtype"
    with pytest.raises(TypeError):  # NumPy, running the same call, refuses it too
        run_framework(read("x[i, j] -= v"), bools, "NumPy")
    for text, want in (("x[i, j] += v", [[True, True], [False, True]]),  # (0, 1): False or True
                       ("x[i, j] *= v", [[True, False], [False, True]])):  # (0, 1): False and True
        tr = read(text)
        assert case_for(tr, bools).output().tolist() == want
        assert run_framework(tr, bools, "NumPy").tolist() == want


def test_mask_assignment_and_masked_scatter_are_compositions_around_scatternd():
    for text in ("x[x > 0] = v", "x.masked_scatter(m, src)"):
        tr = read(text)
        assert tr.exact is False and tr.onnx == [] and "NonZero" in tr.composition
        assert tr.target == "ScatterND-18"
    assert "Where(mask" in read("x[x > 0] = v").composition
    number = read("x[x > 0] = 0")  # a number: Where alone, no scatter
    assert number.reading.where and number.composition.startswith("Where(mask, values, x) is exact")


def test_a_bool_tensor_typed_as_indices_is_refused_not_read_as_indices_1_and_0():
    """x[mask] = v with True/False typed for mask: the call's text reads mask as integer indices, so the case
    would write rows 1 and 0 (NumPy and PyTorch write the True rows): refused, naming the tensor as written."""
    data, v = np.zeros((4, 3), np.float32), np.float32(9)
    mask = np.array([True, False, True, False])
    for text, names in (("x[mask] = v", {"data": data, "index": mask, "values": v}),
                        ("x.scatter_(0, idx, src)", {"data": data, "index": np.ones((1, 3), bool),
                                                     "src": np.ones((1, 3), np.float32)})):
        tr = read(text)
        with pytest.raises(sc.ScatterError, match="is a bool tensor") as info:
            case_for(tr, names)
        assert info.value.rule == "dtype" and info.value.argument == "index"
        assert str(info.value).startswith(("mask is", "idx is"))
    assert case_for(read("x[mask] = v"), {"data": data, "index": mask.astype(np.int64), "values": v}
                    ).output()[[0, 1]].tolist() == [[9, 9, 9], [9, 9, 9]]  # integer indices still work
    # the framework itself gets the bool tensor as it is: NumPy writes the True rows (0 and 2), not rows 1 and 0
    got = run_framework(read("x[mask] = v"), {"data": data, "index": mask, "values": v}, "NumPy")
    assert got[:, 0].tolist() == [9, 0, 9, 0]


def test_slice_scatter_is_openvino_slicescatter_and_a_coordinate_grid_in_onnx():
    tr = read("torch.slice_scatter(x, src, dim=1, start=2)")
    assert tr.openvino == [("SliceScatter-15", {"start": [2], "stop": [2 ** 63 - 1], "step": [1], "axes": [1]})]
    assert tr.onnx == [] and "1308" in tr.composition and tr.entry == "torch.slice_scatter"


def test_index_put_tuple_and_keyword_only_arguments_follow_the_real_signatures():
    assert read("x.index_put_(indices=(i, j), values=v, accumulate=True)").onnx[0][1] == {"reduction": "add"}
    with pytest.raises(sc.ScatterError, match=r"takes 4 positional argument\(s\) here, 5 given"):
        read("x.scatter_reduce(1, idx, src, 'sum', False)")  # include_self is keyword-only
    with pytest.raises(sc.ScatterError, match="by position only"):
        read("np.add.at(a, indices=idx, b=v)")
    with pytest.raises(sc.ScatterError, match="has no argument 'axis'"):
        read("x.scatter(axis=1, index=idx, src=src)")  # PyTorch spells it dim
    with pytest.raises(sc.ScatterError, match="missing reduce"):
        read("x.scatter_reduce(1, idx, src)")
    with pytest.raises(sc.ScatterError, match="got 'dim' twice"):
        read("x.scatter(1, idx, src, dim=1)")
    assert read("torch.scatter(x, 1, idx, value=3)").slots[-1].scalar == 3  # value= is scatter's overload
    assert CALLS["torch.scatter_reduce"].kwonly == ("include_self",)


@pytest.mark.parametrize("text,argument,words", [
    ("x.scatter_reduce(1, idx, src, reduce='max')", "reduce", "'amax'"),
    ("x.scatter_reduce(1, idx, src, 'sum', include_self=1)", "include_self", "True or False"),
    ("x.scatter(d, idx, src)", "dim", "literal"),
    ("x.at[idx].divide(v)", "divide", ".multiply"),
    ("np.divide.at(a, idx, b)", "np.divide.at", "np.add.at"),
    ("x.gather(1, idx)", None, "scatter_reduce"),
    ("tf.scatter_nd_update(v, idx, upd)", "tf.scatter_nd_update", "tf.tensor_scatter_nd_update"),
    ("x.at[idx].set(v, mode='wrap')", "mode", "'clip'"),
    ("np.put(a, ind, v, mode='bounce')", "mode", "'wrap'"),
    ("x[idx] //= v", "//=", "+="),
    ("x[1:2, idx] = v", "index", "x[:, i] or x[..., i]"),
    ("torch.index_put(x, (i, 0), v)", "indices", "x[..., 0] = v"),  # PyTorch's own TypeError, checked below
])
def test_unsupported_functions_and_values_name_them_and_list_what_is_supported(text, argument, words):
    with pytest.raises(sc.ScatterError) as info:
        read(text)
    assert words in str(info.value)
    if argument:
        assert info.value.argument == argument


# ------------------------------------------------------------------------------ hostile text
@pytest.mark.parametrize("text,words", [
    ("__import__('os').system('rm -rf /')", "double underscores"),
    ("x.scatter(1, idx, lambda: 0)", "lambda"),
    ("(lambda: x)().scatter_add(0, i, s)", "lambda"),
    ("().__class__.__bases__[0].__subclasses__()", "double underscores"),
    ("a.b.c.d.e.f.g.h.scatter_add(0, i, s)", "attribute chain"),
    ("x.scatter(1, idx, src); import os", "statements"),
    ("import os", "one call"),
    ("eval('x.scatter(1, i, s)')", "not a supported scatter call"),
    ("x.scatter(*args)", "unpacking"),
    ("x.scatter(**kw)", "kwargs are not read"),
    ("x.scatter(1, idx, [s for s in src])", "list comprehension"),
    ("x.scatter(1, idx, f'{src}')", "f-string"),
    ("x.scatter((y := 1), idx, src)", "assignment expression"),
    ("x.scatter(1, idx,", "not Python syntax"),
    ("(" * 900 + ")" * 900, "too many nested parentheses"),
    ("x.scatter_add(0, " + "-" * 1900 + "i, s)", "nests deeper"),
    ("x" + ".y" * 3000, "characters|attribute chain"),
    ("x.scatter_add(0, " + "+".join(["i"] * 400) + ", s)", "syntax nodes|nests deeper"),
    ("", "paste one call"),
])
def test_hostile_text_is_answered_with_a_message_and_never_run(text, words, monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("from_call evaluated something")

    monkeypatch.setattr(builtins, "eval", refuse)
    monkeypatch.setattr(builtins, "exec", refuse)
    with pytest.raises(sc.ScatterError, match=words):
        read(text)


def test_a_megabyte_of_text_is_refused_by_its_size_before_it_is_parsed(monkeypatch):
    import ast

    def no_parse(*_a, **_k):
        raise AssertionError("parsed")

    monkeypatch.setattr(ast, "parse", no_parse)
    with pytest.raises(sc.ScatterError, match=f"paste one call of at most {MAX_CALL_TEXT:,}") as info:
        read("x.scatter(1, idx, src)" + " " * 1_000_000)
    assert info.value.rule == "size"
    with pytest.raises(sc.ScatterError, match="must be text"):
        read(b"x.scatter(1, i, s)")  # type: ignore[arg-type]


def test_generated_code_never_holds_the_users_text():
    tr = read("self.cache_k.scatter_reduce_(dim=1, index=my_idx.unsqueeze(-1), src=new_k, reduce='sum')")
    code = framework_code(tr)
    for users in ("self", "cache_k", "my_idx", "unsqueeze", "new_k"):
        assert users not in code
    assert "out = data.scatter_reduce(1, index, src, 'sum')" in code
    assert [s.text for s in tr.slots] == ["self.cache_k", "my_idx.unsqueeze(-1)", "new_k"]  # shown, never run


def test_every_framework_map_record_with_a_call_reads_back_as_its_configuration():
    from from_code.translate import call_for

    linked = set()
    for spec in sc.OPERATORS_LIST:
        for config in fm.configurations(spec):
            for entry in fm.entries_for(config):
                text = call_for(entry, config)
                if text is None:
                    continue
                linked.add(entry.id)
                tr = read(text)
                assert tr.framework == entry.framework, (entry.id, text)
                want = "sum" if entry.id.endswith(".sub") else config.canonical  # x.at[..].add(-v): a sum of -v
                assert tr.reading.canonical == want, (entry.id, config.label, text)
                if tr.reading.init is False:
                    assert not config.use_init_val
    executable = {e.id for e in fm.ENTRIES if e.executable}
    assert len(linked) >= len(executable) - 5, executable - linked  # a few compositions have no single call


def test_index_add_with_alpha_is_a_mul_then_the_scatter_and_its_case_adds_alpha_times_source():
    tr = read("x.index_add_(1, idx, src, alpha=2)")
    assert tr.exact is False and tr.onnx == [] and tr.openvino == []
    assert "Mul(source, alpha), then ScatterElements-18(axis=1, reduction='add')" in tr.composition
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    idx, src = np.array([2, 2, 1, 0]), np.arange(8, dtype=np.float32).reshape(2, 4)
    want = data.copy()
    for j, i in enumerate(idx):  # index_add's definition, written out
        want[:, i] += 2 * src[:, j]
    cc = case_for(tr, {"data": data, "index": idx, "source": src})
    assert cc.case.spec.name == "ScatterElements-18" and cc.case.attrs["reduction"] == "add"
    np.testing.assert_array_equal(cc.output(), want)


# ------------------------------------------------------------------------------ guarded run and the exported test
@pytest.mark.slow
def test_the_guarded_run_answers_with_the_frameworks_result_or_its_error():
    from from_code.run import installed, run_guarded

    tr = read("np.put(a, ind, v)")
    tensors = {"data": np.zeros(4, np.int32), "ind": np.array([0, -1, 0]), "v": np.array([5, 6, 7], np.int32)}
    out = run_guarded(tr, tensors)
    assert out.ok and out.verdict == "exact" and out.output.tolist() == [7, 0, 0, 6]
    assert out.version.startswith("numpy ")
    bad = run_guarded(tr, {**tensors, "ind": np.array([0, 4])})  # out of range: NumPy's own IndexError comes back
    assert not bad.ok and bad.error.startswith("IndexError")
    require_framework("JAX")
    jax = read("x.at[idx].set(v)")  # JAX drops an out-of-range write that the translation refuses
    out = run_guarded(jax, {"data": np.zeros(3, np.int32), "index": np.array([1, 5]), "values": np.array([7, 8],
                                                                                                        np.int32)})
    assert out.ok and out.output.tolist() == [0, 7, 0]
    assert out.verdict.startswith("the translation refuses: ") and "out of range" in out.verdict
    if not installed("PyTorch"):
        torch = run_guarded(read("x.scatter_add(0, idx, src)"), {})
        assert not torch.ok and torch.error == "PyTorch is not installed here"


def test_the_guarded_worker_finds_the_version_of_tensorflow_cpu_too():
    """The worker's version lookup tries each distribution that installs the module: with tensorflow-cpu alone
    (this project's verified build) importlib.metadata knows no "tensorflow", and asking for it failed every
    TensorFlow run (found with tensorflow-cpu 2.21.0; tests/from_code/test_from_call_frameworks.py runs it there)."""
    from from_code.case import DISTRIBUTIONS_OF, framework_script

    script = framework_script(read("tf.scatter_nd(idx, upd, shape)"))
    assert "for dist in ('tensorflow', 'tensorflow-cpu'):" in script and "except PackageNotFoundError:" in script
    assert script.index("PackageNotFoundError:") < script.index("\ntry:")  # a missing name is not the call failing
    assert DISTRIBUTIONS_OF["NumPy"] == ("numpy",)


@pytest.mark.slow
@pytest.mark.parametrize("text,dtype", [("x.at[idx].set(v)", "int32"), ("np.add.at(a, (i, j), b)", "float32"),
                                        ("np.put(a, ind, v, mode='clip')", "int32"), ("x[idx] += v", "int32"),
                                        ("x.scatter_reduce(1, idx, src, 'amax')", "float32"),
                                        ("tf.tensor_scatter_nd_add(t, idx, upd)", "int32")])
def test_the_exported_pytest_runs_the_call_against_the_onnx_model(text, dtype, tmp_path):
    import subprocess

    from from_code.run import equivalence_pytest
    from tests.support.skipping import require_or_skip

    require_or_skip("onnxruntime")
    tr = read(text)
    if tr.framework == "JAX":
        require_framework("JAX")
    tensors = example_tensors(tr, np.random.default_rng(7), dtype)
    if tr.framework in ("PyTorch", "TensorFlow"):
        require_framework(tr.framework)
    code = equivalence_pytest(tr, tensors)
    assert text not in code  # generated from numbers and fixed names
    path = tmp_path / "test_exported.py"
    path.write_text(code)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "JAX_PLATFORMS": "cpu"})
    # the model on onnxruntime and onnx.reference, the framework's own call (installed here), and where a cell
    # repeats, that the recorded result is one the spec allows
    ok = done.returncode == 0 and re.search(r"\b[34] passed", done.stdout) and "skipped" not in done.stdout
    assert ok, done.stdout[-2000:] + done.stderr[-2000:]


def test_the_export_refuses_a_call_with_no_onnx_operator():
    from from_code.run import equivalence_pytest

    tr = read("x.at[1:3].set(v)")
    with pytest.raises(sc.ScatterError, match="SliceScatter-15 \\(OpenVINO\\)"):
        equivalence_pytest(tr, example_tensors(tr, np.random.default_rng(0)))


def test_scatter_with_a_reduce_argument_takes_the_caveats_of_the_reducing_record():
    add = read("x.scatter(0, idx, src, reduce='add')")
    assert add.entry == "torch.scatter_add" and add.onnx == [("ScatterElements-18", {"axis": 0, "reduction": "add"})]
    assert not any(fm.BY_ID["torch.scatter"].divergences["duplicates"] in c for c in add.caveats)
    plain = read("x.scatter(0, idx, src)")
    assert plain.entry == "torch.scatter"
    assert any(fm.BY_ID["torch.scatter"].divergences["duplicates"] in c for c in plain.caveats)


@pytest.mark.parametrize("script,words", [
    ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "NumPy crashed (SIGSEGV)"),
    ("import time\ntime.sleep(60)\n", "NumPy timed out after 2 s"),
    ("raise SystemExit(3)\n", "NumPy worker exited with code 3 without an answer"),
])
def test_a_crash_a_hang_or_no_answer_from_the_child_is_a_message(script, words, monkeypatch):
    import from_code.run as run

    monkeypatch.setattr(run, "framework_script", lambda *_a: script)
    tr = read("np.put(a, ind, v)")
    out = run.run_guarded(tr, {"data": np.zeros(3), "ind": np.array([0]), "v": np.array([1.0])}, timeout=2)
    assert not out.ok and out.error.startswith(words)


# ------------------------------------------------------------------------------ wording a reviewer found
@pytest.mark.parametrize("framework,text", ALL, ids=[t for _, t in ALL])
def test_the_answer_says_each_caveat_once_and_no_internal_name(framework, text):
    tr = read(text)
    said = tr.caveats + [tr.composition or ""] + list(tr.inputs)
    assert not any("framework_map" in s for s in said)  # the package's name is not the user's vocabulary
    topics = Counter(c.split(" (")[0].split(":")[0] for c in tr.caveats if c.startswith(f"{framework}, "))
    assert all(n == 1 for n in topics.values()), topics  # e.g. JAX's out-of-range sentence once, not twice
    assert not any("0..n-1" in c or ", (" in c for c in tr.caveats)  # PyTorch's range in words, no garbled join


def test_jax_mode_replaces_the_records_out_of_range_sentence():
    record = fm.BY_ID["jax.at.nd"].divergences["out-of-range indices"]
    plain = read("x.at[idx].set(v)").caveats
    assert sum(record in c for c in plain) == 1 and not any("mode=\"clip\": out-of-range" in c for c in plain)
    clip = read("x.at[idx].set(v, mode='clip')").caveats
    assert not any(record in c for c in clip) and sum("clamped to the nearest edge" in c for c in clip) == 1


def test_index_fill_takes_negative_indices_unlike_index_copy():
    """Found running torch 2.13: index_fill counts -1 from the end; index_copy and index_add raise."""
    fill, copy = read("x.index_fill(0, idx, -1)"), read("x.index_copy(0, idx, src)")
    assert fill.negatives and not copy.negatives
    assert fill.openvino[0][0] == "ScatterElementsUpdate-12"  # ScatterUpdate-3 refuses negative indices
    assert copy.openvino[0][0] == "ScatterUpdate-3"
    assert any("index_fill counts negative indices from the end" in c for c in fill.caveats)
    assert any("index -1 is out of bounds" in c for c in copy.caveats)  # PyTorch's own words
    tensors = {"data": np.zeros((3, 2), np.float32), "index": np.array([-1, 0])}
    np.testing.assert_array_equal(case_for(fill, tensors).output(), [[-1, -1], [0, 0], [-1, -1]])
    require_framework("PyTorch")
    import torch

    got = run_framework(fill, tensors)
    np.testing.assert_array_equal(got, [[-1, -1], [0, 0], [-1, -1]])
    with pytest.raises(IndexError, match="index -1 is out of bounds"):
        torch.zeros(3, 2).index_copy(0, torch.tensor([-1]), torch.ones(1, 2))


def test_every_framework_map_entry_has_a_link_that_reads_as_its_configuration():
    """WebNN's and the compositions' entries too: their link opens the same operation as another framework's call,
    preferring one whose operators include the configuration's own family (ScatterND mul: x.at[i, j].multiply)."""
    from from_code.translate import reverse_link, stand_in_note

    stand_ins = set()
    for spec in sc.OPERATORS_LIST:
        for config in fm.configurations(spec):
            for entry in fm.entries_for(config):
                link = reverse_link(entry, config)
                assert link is not None and link.entry == entry.id, (entry.id, config.label)
                tr = read(link.call)
                want = "sum" if entry.id.endswith(".sub") and not link.stand_in else config.canonical
                assert tr.reading.canonical == want, (entry.id, config.label, link.call)
                if link.stand_in:
                    stand_ins.add(entry.id)
                    assert tr.framework != entry.framework or entry.framework == "TensorFlow", entry.id
                    note = stand_in_note(entry.id, tr)
                    assert entry.call in note and tr.framework in note
                    assert ("not WebNN's JavaScript" in note) == (entry.framework == "WebNN")
    assert {e.id for e in fm.ENTRIES if e.framework == "WebNN"} <= stand_ins
    assert {"tf.unsorted_segment_prod", "jax.at.elements.mean", "tf.tensor_scatter_nd.mean"} <= stand_ins
    nd_prod = next(c for c in fm.configurations("ScatterND-18") if c.canonical == "prod")
    assert reverse_link(fm.BY_ID["tf.unsorted_segment_prod"], nd_prod).call == "x.at[i, j].multiply(v)"


def test_the_index_forms_become_the_operators_their_family_records_name():
    """Issue 25: the operator types each form becomes come from the family records' call_forms, in their order."""
    from from_code.translate import FORMS, targets

    want = {"elements": (("ScatterElements",), ("ScatterElementsUpdate",)),
            "nd": (("ScatterND",), ("ScatterNDUpdate",)),
            "axis": (("ScatterElements",), ("ScatterUpdate", "ScatterElementsUpdate")),
            "slice": ((), ("SliceScatter",)), "mask": ((), ()), "mask-axis": ((), ()), "where": ((), ()),
            "flat": (("ScatterND",), ("ScatterNDUpdate",))}
    assert set(FORMS) == set(want)
    for name, (onnx, openvino) in want.items():
        assert (targets(FORMS[name], "ONNX"), targets(FORMS[name], "OpenVINO")) == (onnx, openvino), name
    assert all(FORMS[f.core].name == f.core for f in FORMS.values() if f.core)
    for family in sc.FAMILIES.values():  # every form a family record names is a Form record here
        assert set(family.call_forms) <= set(FORMS)


@pytest.mark.parametrize("call, tensors, expected", [
    ("x.at[idx].set(v)", {"data": [0, 0, 0, 0], "index": [0, 9, 9], "values": [1, 2, 3]},
     "idx[1] = 9 is out of range for x's axis 0 of size 4 (allowed -4..3); 1 more of your index value(s)"),
    ("x.at[i, j].set(v)", {"data": [[0, 0, 0], [0, 0, 0]], "indices_0": [0, 1], "indices_1": [1, 3], "values": [1, 2]},
     "j[1] = 3 is out of range for x's axis 1 of size 3"),
    ("tf.tensor_scatter_nd_update(t, idx, upd)", {"tensor": [[0, 0, 0], [0, 0, 0]], "indices": [[0, 1], [1, 5]],
                                                   "updates": [1, 2]},
     "idx[1, 1] = 5 is out of range for t's axis 1 of size 3"),
    ("x.index_add_(0, idx, src)", {"data": [[0, 0], [0, 0]], "index": [0, -3], "source": [[1, 1], [1, 1]]},
     "idx[1] = -3 is out of range for x's axis 0 of size 2 (allowed -2..1)"),
    ("np.put(a, ind, v)", {"data": [[0, 0, 0], [0, 0, 0]], "ind": [0, 6], "v": [1, 2]},
     "ind[1] = 6 is out of range for a flattened to size 6"),
    ("x[idx] += v", {"data": [0, 0, 0, 0], "index": [0, 9], "values": [1, 2]},
     "idx[1] = 9 is out of range for x's axis 0 of size 4"),
])
def test_an_out_of_range_index_names_the_users_tensor_and_position(call, tensors, expected):
    tr = read(call)
    with pytest.raises(sc.ScatterError) as err:
        case_for(tr, {n: np.asarray(v, np.int64) for n, v in tensors.items()})
    message = str(err.value)
    assert message.startswith(expected), message
    assert f". In {tr.target}: " in message  # the translated operator's wording follows, named as such


@pytest.mark.parametrize("call", ["x.at[i, j].min(v)", "x.at[idx].max(v)", "tf.tensor_scatter_nd_min(t, idx, upd)",
                                  "x.scatter_reduce(0, idx, src, reduce='amin')", "np.minimum.at(a, i, b)"])
def test_example_values_for_min_and_max_change_some_cell(call):
    tr = read(call)
    data = next(s.name for s in tr.slots if s.role == "data")
    for seed in range(1, 31):
        tensors = example_tensors(tr, np.random.default_rng(seed))
        assert not np.array_equal(case_for(tr, tensors).output(), tensors[data]), seed


def test_runtime_caveats_are_those_that_can_apply_to_the_datas_dtype():
    """A fact that holds for some dtypes only (Fact.dtypes: OpenVINO's reference has no int8 mean kernel) is a
    caveat of int8 data and of a call whose dtype is unknown, not of float32 data."""
    spec = sc.OPERATORS["ScatterElementsUpdate-12"]
    (i8,) = [n for n in spec.notes_on("integer-mean") if n.dtypes]
    assert "int8" in i8.dtypes and "float32" not in i8.dtypes
    call = "x.scatter_reduce(0, idx, src, 'mean')"
    for dtype, shown in ((None, True), (np.int8, True), ("uint8", True), (np.float32, False), ("int64", False)):
        caveats = read(call, dtype).caveats
        assert any(i8.text in c for c in caveats) is shown, dtype
        assert any("truncat" in c for c in caveats), dtype  # the dtype-free fact stays


@pytest.mark.parametrize("call, tensors, expected", [
    ("x[idx] = v", {"data": [0, 0, 0, 0], "index": [0, 1], "values": [1, 2, 3]},
     "v (values) has shape (3,), which does not broadcast"),
    ("x.scatter_(0, idx, s)", {"data": [0, 0, 0, 0], "index": [0, 1, 2], "src": [1, 2]},
     "s (src) has shape (2,); PyTorch needs it at least as large as idx (index) (3,)"),
    ("x.index_add_(0, idx, src)", {"data": [[0, 0], [0, 0]], "index": [0, 1], "source": [[1, 1, 1], [1, 1, 1]]},
     "src (source) has shape (2, 3); it must be (2, 2)"),
])
def test_a_shape_error_names_the_users_tensor_and_the_argument(call, tensors, expected):
    """A shape error names the tensor as the call writes it (v), with the framework's argument (values)."""
    tr = read(call)
    with pytest.raises(sc.ScatterError) as err:
        case_for(tr, {n: np.asarray(v, np.int64) for n, v in tensors.items()})
    assert str(err.value).startswith(expected), str(err.value)
