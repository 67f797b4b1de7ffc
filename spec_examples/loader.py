"""Read the example and errata files in ``spec_examples/data``.

One file per spec page section (``onnx__ScatterND-16.json``,
``scatter-elements-update-12.json``, ...), one per ONNX node-test source file
(``onnx-node-tests__scatternd.json``), ``teaching.json`` for our own cases and
``errata.json``. Every file is checked when it is read; a malformed record
raises :class:`CatalogueError` naming the file and the record.

Loading reads JSON and builds the small literal arrays; the large arrays of the
shapes-only examples are generated only when first accessed.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from types import MappingProxyType

import numpy as np

from . import generate as gen
from .model import Erratum, Example, Source

DATA_DIR = Path(__file__).resolve().parent / "data"
ERRATA_FILE = "errata.json"
ROLES = ("data", "indices", "updates")
ERRATUM_KINDS = ("example-output", "prose", "formula", "code")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
TEACHING_SOURCE = "Scatter Explorer teaching case"
# what a data file holds, in catalogue order: spec pages first, then ONNX node tests, then our cases
SOURCE_KINDS = ("spec-page", "node-tests", "teaching")


class CatalogueError(ValueError):
    """A data file in spec_examples/data is malformed."""


def _fail(where: str, message: str):
    raise CatalogueError(f"{where}: {message}")


def _operators():
    from scatter_core import OPERATORS  # pure NumPy; imported lazily to keep import light

    return OPERATORS


def _array(values, dtype: str, where: str) -> np.ndarray:
    """An exact, read-only array of ``values`` in ``dtype`` (refuses lossy integer casts). A float that JSON
    cannot hold is a string (``"NaN"``, ``"Infinity"``, ``"-Infinity"``, ``"NaN:0x<bits>"``; see
    ``scatter_core.JSON_NONFINITE_NOTE``), read back bit-exactly; Python's bare NaN tokens are still read."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        _fail(where, f"unknown dtype {dtype!r}")
    try:
        raw = np.asarray(values)
    except ValueError:
        raw = None
    if values is None or raw is None or raw.dtype == object:
        _fail(where, "values are missing or ragged (rows of different lengths)")
    if dt.kind in "iu" and raw.size and raw.dtype.kind not in "iu":
        _fail(where, f"values {values!r} are not all integers but the dtype is {dtype}")
    from scatter_core import from_json_values  # NaN, ±Infinity and NaN bits written as strings (strict JSON)

    try:
        arr = from_json_values(values, dt)
    except (OverflowError, ValueError) as exc:
        _fail(where, f"values do not fit {dtype}: {exc}")
    arr.flags.writeable = False
    return arr


def _natural(name: str) -> tuple:
    """Sort key that puts Scatter-9 before Scatter-11."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name))


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogueError(f"{path.name}: not valid JSON: {exc}") from None


def _example(rec: dict, page: dict, fname: str, operators, errata_ids: tuple[str, ...]) -> Example:
    where = f"{fname}: example {rec.get('id', '?')!r}"
    for key in ("id", "title", "op", "label", "dtypes", "attrs"):
        if key not in rec:
            _fail(where, f"missing field {key!r}")
    eid, op = rec["id"], rec["op"]
    if not ID_PATTERN.match(eid):
        _fail(where, "ids are lower-case words joined by '-'")
    if op not in operators:
        _fail(where, f"op {op!r} is not in scatter_core.OPERATORS")
    spec = operators[op]
    attrs = rec["attrs"]
    for name in attrs:
        if name not in spec.attribute_names:
            _fail(where, f"{name!r} is not an attribute of {op} ({', '.join(spec.attribute_names) or 'none'})")
    from scatter_core import codec_with_role

    axis_codec = codec_with_role(spec, "axis")  # the axis the generator places the indices along
    axis_attr = None if axis_codec is None else axis_codec.attr
    if axis_attr is not None and axis_attr.required and attrs.get(axis_attr.name) is None:
        _fail(where, f"{op} needs {axis_attr.name} (an input of the layer), record it under attrs")
    dtypes = rec["dtypes"]
    if set(dtypes) != set(ROLES):
        _fail(where, f"dtypes must name exactly {', '.join(ROLES)}")
    # an input the version lacks (SliceScatter's indices) or leaves out (TensorScatter's write_indices) is null
    from scatter_core import family_of

    may_be_null = {"indices"} if family_of(spec).indices != "required" else set()
    for role in ROLES:
        if spec.input(role) is None and (dtypes[role] is not None or rec.get(role) is not None):
            _fail(where, f"{op} has no {role} input: give \"{role}\": null and a null dtype")
    ours = bool(rec.get("ours", False))
    shapes_only = bool(rec.get("shapes_only", False))
    if shapes_only:
        if any(role in rec for role in ROLES) or rec.get("expected") is not None:
            _fail(where, "a shapes-only example has no values and no expected output")
        shapes = rec.get("shapes") or {}
        if not all(role in shapes for role in ROLES):
            _fail(where, "a shapes-only example needs shapes for data, indices and updates")
        generate = rec.get("generate")
        if not isinstance(generate, dict):
            _fail(where, "a shapes-only example needs a 'generate' block (seed, rule, recipes)")
        try:
            gen.check_recipe(generate)
        except ValueError as exc:
            _fail(where, str(exc))
        literal, expected = None, None
        shapes = {role: tuple(int(n) for n in shapes[role]) for role in ROLES}
        if axis_attr is not None:  # the generator needs the axis, normalised, to place the indices
            axis = int(attrs.get(axis_attr.name, axis_attr.default))
            generate = {**generate, "axis": axis % len(shapes["data"])}
        generation = f"Values generated by Scatter Explorer, seed {generate['seed']}. {generate['rule']}"
        seed = generate["seed"]
    else:
        if "generate" in rec or "shapes" in rec:
            _fail(where, "only a shapes-only example has 'shapes' and 'generate'")
        missing = [role for role in (*ROLES, "expected") if role not in rec]
        if missing:
            _fail(where, f"missing {', '.join(missing)} (use \"expected\": null when nothing is printed)")
        for role in ROLES:
            if (rec[role] is None or dtypes[role] is None) and role not in may_be_null:
                _fail(where, f"{role} (and its dtype) is required for {op}")
        literal = MappingProxyType({role: None if rec[role] is None else _array(rec[role], dtypes[role], f"{where}, {role}")
                                    for role in ROLES})
        expected = None
        if rec["expected"] is not None:
            expected = _array(rec["expected"], dtypes["data"], f"{where}, expected")
            if expected.shape != literal["data"].shape:
                _fail(where, f"expected has shape {expected.shape} but data has {literal['data'].shape}")
        shapes = {role: literal[role].shape for role in ROLES if literal[role] is not None}
        generate, generation, seed = None, None, None
    if ours != (page["kind"] == "teaching"):
        _fail(where, "teaching cases (and only they) are marked \"ours\": true and live in teaching.json")
    title = TEACHING_SOURCE if ours else page["title"]
    source = Source(url=page["url"], page_title=title, label=rec["label"], section=rec.get("section"),
                    file=fname, kind=page["kind"])
    inputs = None if literal is None else tuple(literal[role] for role in ROLES)
    return Example.of(
        op, inputs, attrs,
        id=eid, title=rec["title"], source=source,
        dtypes=MappingProxyType(dict(dtypes)), expected=expected, shapes_only=shapes_only, ours=ours,
        notes=rec.get("notes", ""), generation=generation, seed=seed,
        shapes=MappingProxyType(shapes), errata=errata_ids,
        _generate=MappingProxyType(generate) if generate is not None else None,
    )


def _erratum(rec: dict, examples: dict[str, Example], operators) -> Erratum:
    where = f"{ERRATA_FILE}: erratum {rec.get('id', '?')!r}"
    for key in ("id", "kind", "op", "page_url", "where", "runtimes", "explanation"):
        if not rec.get(key):
            _fail(where, f"missing or empty field {key!r}")
    if not ID_PATTERN.match(rec["id"]):
        _fail(where, "ids are lower-case words joined by '-'")
    kind = rec["kind"]
    if kind not in ERRATUM_KINDS:
        _fail(where, f"kind must be one of {', '.join(ERRATUM_KINDS)}")
    ops = (rec["op"],) if isinstance(rec["op"], str) else tuple(rec["op"])
    for op in ops:
        if op not in operators:
            _fail(where, f"op {op!r} is not in scatter_core.OPERATORS")
    concerns = tuple(rec.get("concerns", ()))
    for eid in concerns:
        if eid not in examples:
            _fail(where, f"concerns unknown example {eid!r}")
    printed = rules = None
    outputs = {}
    example_id = rec.get("example_id")
    if kind == "example-output":
        if example_id not in examples:
            _fail(where, f"example_id {example_id!r} is not a known example")
        ex = examples[example_id]
        if ex.expected is None:
            _fail(where, f"example {example_id!r} prints no output")
        if ex.op not in ops:
            _fail(where, f"example {example_id!r} is an example of {ex.op}, not of {', '.join(ops)}")
        dtype = ex.dtypes["data"]
        printed = ex.expected
        if "printed" in rec and not np.array_equal(_array(rec["printed"], dtype, where), printed):
            _fail(where, "'printed' differs from the example's expected output")
        if rec.get("spec_rules_give") is None:
            _fail(where, "an output erratum needs 'spec_rules_give' (what the page's own rules give)")
        rules = _array(rec["spec_rules_give"], dtype, f"{where}, spec_rules_give")
        if rules.shape != printed.shape:
            _fail(where, f"spec_rules_give has shape {rules.shape}, the printed output {printed.shape}")
        outputs = {name: _array(v, dtype, f"{where}, runtime_outputs[{name!r}]")
                   for name, v in rec.get("runtime_outputs", {}).items()}
        says = rec.get("says") or f"prints output = {printed.tolist()}"
        should = rec.get("should_say") or f"output = {rules.tolist()}"
    else:
        if example_id is not None:
            _fail(where, "only example-output errata name an example_id; use 'concerns'")
        says, should = rec.get("says"), rec.get("should_say")
        if not says or not should:
            _fail(where, "a prose, formula or code erratum needs 'says' and 'should_say'")
    return Erratum(
        id=rec["id"], kind=kind, op=rec["op"] if isinstance(rec["op"], str) else ops,
        page_url=rec["page_url"], where=rec["where"], says=says, should_say=should,
        runtimes=rec["runtimes"], explanation=rec["explanation"], example_id=example_id,
        concerns=concerns, evidence=rec.get("evidence", ""), printed=printed, spec_rules_give=rules,
        runtime_outputs=MappingProxyType(outputs),
    )


class Catalogue:
    """All examples and errata, loaded once."""

    def __init__(self, data_dir: Path = DATA_DIR):
        operators = _operators()
        errata_records = _read(data_dir / ERRATA_FILE).get("errata", ())
        concerning: dict[str, tuple[str, ...]] = {}  # example id -> ids of the errata about it
        for rec in errata_records:
            for eid in ([rec["example_id"]] if rec.get("example_id") else []) + list(rec.get("concerns", ())):
                concerning[eid] = concerning.get(eid, ()) + (rec.get("id", "?"),)
        examples: dict[str, Example] = {}
        docs = {p.name: _read(p) for p in data_dir.glob("*.json") if p.name != ERRATA_FILE}
        if not docs:
            raise CatalogueError(f"no example files in {data_dir}")
        for name, doc in docs.items():
            page = doc.get("page") or {}
            if not page.get("url") or not page.get("title") or page.get("kind") not in SOURCE_KINDS:
                _fail(name, f"the file needs a page with a title, a url and a kind ({', '.join(SOURCE_KINDS)})")
        for name in sorted(docs, key=lambda n: (SOURCE_KINDS.index(docs[n]["page"]["kind"]), _natural(n))):
            doc, page = docs[name], docs[name]["page"]
            for rec in doc.get("examples", ()):
                ex = _example(rec, page, name, operators, concerning.get(rec.get("id"), ()))
                if ex.id in examples:
                    _fail(name, f"duplicate example id {ex.id!r} (also in {examples[ex.id].source.file})")
                examples[ex.id] = ex
        errata: dict[str, Erratum] = {}
        for rec in errata_records:
            er = _erratum(rec, examples, operators)
            if er.id in errata:
                _fail(ERRATA_FILE, f"duplicate erratum id {er.id!r}")
            errata[er.id] = er
        self.examples = examples
        self.errata = errata

    def by_op(self, op: str) -> list[Example]:
        return [ex for ex in self.examples.values() if ex.op == op]


_CATALOGUE: Catalogue | None = None
_LOCK = threading.Lock()


def catalogue() -> Catalogue:
    global _CATALOGUE
    if _CATALOGUE is None:
        with _LOCK:
            if _CATALOGUE is None:
                _CATALOGUE = Catalogue()
    return _CATALOGUE
