"""Record types for the operator registry.

A :class:`OpSpec` is one operator version as its spec text defines it. Kernels
read the record's fields (index rule, shape flags, reduction spellings); they
never branch on an operator's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .reductions import REDUCTIONS, Reduction

ANY_INT = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


@dataclass(frozen=True)
class AttrSpec:
    """One attribute (ONNX) or attribute-like input (OpenVINO ``axis``)."""

    name: str
    kind: str  # the value's type: "int" | "ints" (a list of integers) | "str" | "bool"
    default: object = None
    required: bool = False
    is_input: bool = False  # OpenVINO passes axis (and SliceScatter's start/stop/step/axes) as tensor inputs
    doc: str = ""
    choices: tuple[str, ...] = ()  # kind "str": the allowed values (reduction's come from OpSpec.reductions)
    # which codec of scatter_core.attributes reads, writes and checks it, when not its kind's own: "axis" (an
    # int bounded by the data's rank), "reduction" (one of OpSpec.reductions' spellings), "init" (a bool that
    # only counts with a reduction that combines: use_init_val)
    codec: str = ""


@dataclass(frozen=True)
class InputSpec:
    """One tensor input of an operator version: its role in scatter_core and its name in the spec text.

    Roles are "data", "indices" and "updates" (the three positional arguments of
    ``scatter``). ``OpSpec.inputs`` lists them in the runtime node's input order
    (TensorScatter-24: past_cache, update, write_indices). Whether indices may be
    None is the family's rule (``Family.indices``); a version whose family reads
    no indices lists no "indices" input.
    """

    role: str
    name: str


DEFAULT_INPUTS = (InputSpec("data", "data"), InputSpec("indices", "indices"), InputSpec("updates", "updates"))


@dataclass(frozen=True)
class IndexRule:
    """What the spec text allows for index values."""

    negative: str  # "allowed" | "forbidden" | "unstated"
    dtypes: tuple[str, ...]
    text: str  # the rule in our words, as a short formula


@dataclass(frozen=True)
class RuntimeNote:
    """Observed behaviour of a real runtime that differs from, or adds to, the text: one fact of the table in
    :mod:`scatter_core.facts` as an operator record shows it (``Fact.note``), the versions resolved."""

    topic: str  # a rule id: "negative-index", "duplicates", "integer-mean", ...
    runtimes: str  # the runtimes and their pinned versions, e.g. "onnxruntime <pin>", "OpenVINO <pin> CPU plugin"
    text: str
    documented: bool = True  # False: observed by this project's tests, not (yet) in docs/semantics.md
    fact: str = ""  # the id of the fact in scatter_core.facts.FACTS
    dtypes: tuple[str, ...] = ()  # the data dtypes it concerns (empty: any)

    def concerns(self, dtype) -> bool:
        """True when the note can apply to data of ``dtype`` (None: any dtype)."""
        return not self.dtypes or dtype is None or np.dtype(dtype).name in self.dtypes


@dataclass(frozen=True)
class OpSpec:
    name: str  # versioned name, e.g. "ScatterND-16"
    op_type: str  # "ScatterND"
    version: int
    framework: str  # "ONNX" | "OpenVINO"
    family: str  # a key of scatter_core.families.FAMILIES: which family record plans the loop
    url: str
    summary: str  # one sentence, our words
    formula: str  # the update rule as a short formula
    loop: str  # what one iteration of the spec's loop is
    attributes: tuple[AttrSpec, ...]
    reductions: tuple[tuple[str, str], ...]  # (spelling in this version, canonical row); first is the default
    index_rule: IndexRule
    shape_rules: tuple[str, ...]
    duplicates_forbidden_with: tuple[str, ...]  # canonical reductions under which the text forbids duplicates
    duplicate_policy: str  # what the text says about duplicate indices, our words
    data_types: str
    changes: tuple[str, ...]  # what changed from `previous`
    previous: str | None = None
    deprecated: str | None = None
    axis_dim_may_exceed: bool = True  # elements: indices.shape[axis] may exceed data.shape[axis]
    one_element_for_scalar_updates: bool = False  # nd: a 0-d update slice may be given as shape (1,)
    runtime_notes: tuple[RuntimeNote, ...] = ()
    runnable_on: tuple[str, ...] = ()  # runtimes that can execute this version: "onnxruntime", "onnx.reference", "openvino"
    extra: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    # the tensor inputs in the runtime node's order (attributes with is_input follow, in attribute order)
    inputs: tuple[InputSpec, ...] = DEFAULT_INPUTS

    # -- derived views (no new facts here) ---------------------------------
    @property
    def reduction_spellings(self) -> tuple[str, ...]:
        return tuple(s for s, _ in self.reductions)

    @property
    def default_reduction(self) -> str:
        return self.reductions[0][0]

    def reduction(self, spelling: str) -> Reduction:
        return REDUCTIONS[dict(self.reductions)[spelling]]

    def spelling_of(self, canonical: str) -> str | None:
        for s, c in self.reductions:
            if c == canonical:
                return s
        return None

    def attribute(self, name: str) -> AttrSpec | None:
        for a in self.attributes:
            if a.name == name:
                return a
        return None

    @property
    def attribute_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.attributes)

    def input(self, role: str) -> InputSpec | None:
        """The input playing ``role`` ("data", "indices", "updates"); None when this version has none."""
        for i in self.inputs:
            if i.role == role:
                return i
        return None

    def input_name(self, role: str) -> str:
        """What the spec text calls the input playing ``role`` (the role itself when the version has none)."""
        i = self.input(role)
        return i.name if i is not None else role

    def notes_on(self, topic: str, dtype=None) -> tuple[RuntimeNote, ...]:
        """The runtime notes on ``topic``; given the data's ``dtype``, only those that can apply to it."""
        return tuple(n for n in self.runtime_notes if n.topic == topic and n.concerns(dtype))

    def note_text(self, topic: str) -> str:
        """Runtime notes on ``topic`` joined into one sentence ('' when none)."""
        return " ".join(f"{n.runtimes}: {n.text}" for n in self.notes_on(topic))
