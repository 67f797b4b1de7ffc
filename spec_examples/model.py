"""Record types: one worked example (holding the core's record of it), its source, and one erratum."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Mapping

import numpy as np

import scatter_core as sc

from . import generate as gen


@dataclass(frozen=True)
class Source:
    """Where an example is printed."""

    url: str
    page_title: str
    label: str  # the example's label as printed, e.g. "Example 2" or "export_scatternd_add"
    section: str | None = None  # where on the page, when a page has two groups of examples
    file: str = ""  # the data file that holds the example, e.g. "onnx__ScatterND-16.json"
    kind: str = "spec-page"  # "spec-page", "node-tests" (ONNX backend test cases) or "teaching" (ours)


@dataclass(frozen=True, eq=False)
class Example:
    """One worked example of one operator version, holding the core's record of it (:attr:`record`).

    A printed example holds the :class:`scatter_core.Case` of its inputs and attributes where the core accepts
    them, else (a printed case the core refuses) a :class:`scatter_core.Unchecked` of them exactly as printed.
    A wrong printed *output* (an erratum) does not make the inputs invalid: such an example holds its Case, and
    ``expected`` keeps the output as printed. A shapes-only example prints no values: it holds an Unchecked of
    its version and attributes with no input values, and its inputs are generated from a fixed seed on first
    access, one input at a time (see :attr:`generation`); its :attr:`case` is built from them.

    ``data``, ``indices``, ``updates`` and ``attrs`` read the record (or, for a shapes-only example, its
    generated inputs): read-only NumPy arrays in the example's dtypes, and the attributes as printed (the
    version's own names and spellings, no defaults added). Build one with :meth:`of`.
    """

    id: str
    title: str
    source: Source
    dtypes: Mapping[str, str | None]  # data / indices / updates (None for an absent or left-out input)
    expected: np.ndarray | None  # the output exactly as printed (in data's dtype), None if none is printed
    shapes_only: bool
    ours: bool  # a Scatter Explorer teaching case rather than a printed example
    notes: str
    generation: str | None  # how the values of a shapes-only example are generated, our words
    seed: int | None
    shapes: Mapping[str, tuple[int, ...]]
    record: sc.Case | sc.Unchecked = field(repr=False)  # see the class docstring
    errata: tuple[str, ...] = ()  # ids of the errata that concern this example
    _generate: Mapping | None = field(default=None, repr=False)  # a shapes-only example's generation block

    @classmethod
    def of(cls, op: str, inputs: tuple | None, attrs: Mapping[str, object], **fields) -> "Example":
        """The example of version ``op`` with ``inputs`` (data, indices, updates) as printed, or None for a
        shapes-only example (``_generate`` in ``fields`` then says how its values are made), and ``attrs`` as
        printed: holding the core's Case where it accepts them, their Unchecked record where it refuses them."""
        spec = sc.get_spec(op)
        if inputs is None:
            record = sc.Unchecked(spec, None, None, None, MappingProxyType(dict(attrs)))
        else:
            record = _record(spec, inputs, attrs)
        return cls(record=record, **fields)

    @property
    def op(self) -> str:
        """The versioned operator name, a key of scatter_core.OPERATORS."""
        return self.record.spec.name

    @property
    def label(self) -> str:
        return self.source.label

    @property
    def _test_function(self) -> str | None:
        """The test's name when the label is a test function's (``export_scatternd_add``), else None."""
        label = self.label
        return label.removeprefix("export_") if label.startswith("export_") and " " not in label else None

    @property
    def short_label(self) -> str:
        """The label for a person: ``node test scatternd add`` rather than the function ``export_scatternd_add``."""
        fn = self._test_function
        return self.label if fn is None else "node test " + fn.replace("_", " ")

    @property
    def menu_title(self) -> str:
        """One readable line for a menu: ``Example 2: …``, or ``ONNX node test: add with a duplicate index``
        (a test function's name is not a title); ``(ours)`` marks a teaching case."""
        fn = self._test_function
        text = f"{self.label}: {self.title}" if fn is None else self.title.replace(f" {fn}:", ":", 1)
        return text + (" (ours)" if self.ours else "")

    @property
    def attrs(self) -> dict:
        """The attributes as printed, by the operator's own names (a fresh dict each time)."""
        record = self.record
        return dict(record.given_attrs if isinstance(record, sc.Case) else record.attrs)

    @property
    def data(self) -> np.ndarray:
        return self._input(0)

    @property
    def indices(self) -> np.ndarray | None:
        """None where the version has no indices input or the example leaves an optional one out."""
        return self._input(1)

    @property
    def updates(self) -> np.ndarray:
        return self._input(2)

    @property
    def inputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(data, indices, updates)."""
        return self.data, self.indices, self.updates

    @cached_property
    def case(self) -> sc.Case | None:
        """The core's :class:`scatter_core.Case` of this example, None when the core refuses its inputs (above
        the element limit, or an invalid printed case). A shapes-only example's is built from its generated
        inputs on first access."""
        record = _record(self.record.spec, self.inputs, self.attrs) if self.is_generated else self.record
        return record if isinstance(record, sc.Case) else None

    @property
    def is_generated(self) -> bool:
        return self._generate is not None

    def _input(self, position: int) -> np.ndarray | None:
        if self.is_generated:
            role = gen.ROLES[position]
            return gen.CACHE.get(gen.cache_key(self._generate, role, self.shapes, self.dtypes),
                                 lambda: gen.build(self._generate, role, self.shapes, self.dtypes))
        record = self.record
        if isinstance(record, sc.Case):
            return record.given()[position]  # as printed: the arrays are read-only, so the Case holds them as they are
        return (record.data, record.indices, record.updates)[position]  # None for an absent or left-out input

    def __repr__(self) -> str:
        kind = "shapes only, generated" if self.shapes_only else "printed values"
        return f"Example({self.id!r}, {self.op}, {self.label!r}, {kind})"


def _record(spec: sc.OpSpec, inputs: tuple, attrs: Mapping[str, object]) -> sc.Case | sc.Unchecked:
    """The core's Case of ``inputs`` and ``attrs`` where it accepts them, else their Unchecked record as given."""
    try:
        return sc.case(spec, *inputs, **attrs)
    except sc.ScatterError:
        return sc.Unchecked(spec, *inputs, MappingProxyType(dict(attrs)))


@dataclass(frozen=True, eq=False)
class Erratum:
    """Something a spec page gets wrong, with evidence.

    ``kind`` is "example-output" (a printed output the page's own rules do not
    give), "prose", "formula" or "code". For an output erratum ``printed`` and
    ``spec_rules_give`` are arrays in the example's dtype and ``says`` /
    ``should_say`` render them as text.
    """

    id: str
    kind: str
    op: str | tuple[str, ...]  # one versioned name, or several
    page_url: str
    where: str  # where on the page
    says: str  # what the page says (for output errata: the printed output)
    should_say: str  # what it should say (for output errata: what the page's rules give)
    runtimes: str  # what real runtimes do, with names and versions, where known
    explanation: str  # one line
    example_id: str | None = None  # the example an output erratum is about
    concerns: tuple[str, ...] = ()  # further examples the erratum affects
    evidence: str = ""  # extra evidence (an earlier draft of the page, a schema fix ...)
    printed: np.ndarray | None = None
    spec_rules_give: np.ndarray | None = None
    runtime_outputs: Mapping[str, np.ndarray] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def ops(self) -> tuple[str, ...]:
        return (self.op,) if isinstance(self.op, str) else tuple(self.op)

    @property
    def example_ids(self) -> tuple[str, ...]:
        return ((self.example_id,) if self.example_id else ()) + self.concerns
