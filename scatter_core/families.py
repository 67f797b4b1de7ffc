"""Family records: everything that differs between loop shapes, as data; nothing outside this module branches
on a family's name. The full guide, every field and hook: docs/architecture.md, scatter_core/families.py.

How to add a family:

1. a planner module ``scatter_core/<family>.py``, opening with the loop it is equivalent to, with
   ``plan(spec, data, indices, updates, attrs) -> Plan`` (check shapes and index values, raise ScatterError;
   per iteration the output cells written and the updates cells read) and ``updates_shape(...)``;
2. one ``Family`` record in ``FAMILIES``: the planner, ``updates_shape``, ``reading``, ``export_loop``,
   ``title``, ``slug`` (its pages' URL paths), ``indices``, ``spec_flags``, and the optional hooks
   ``sample``, ``shrink``, ``writes_once``, ``practice_from`` and ``lesson``;
3. one ``OpSpec`` record per version in ``registry.py`` (``family=<name>``, ``AttrSpec`` attributes, ``inputs``);
4. one example file in ``spec_examples/data/``.

Nothing else: ``scatter``, ``trace``, ``check_expected``, ``Case``, the exports and the pages read the records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

from . import elements, nd, slice_scatter, tensor_scatter, update
from .errors import ScatterError
from .plan import Plan

INDICES_RULES = ("required", "optional", "unused")


@dataclass(frozen=True)
class Family:
    """One loop shape: its planner and what the shared code needs to know about it."""

    name: str  # the key OpSpec.family holds
    title: str  # shown on the pages, e.g. "ScatterND / ScatterNDUpdate"
    slug: str  # the explorer page's URL path
    plan: Callable[..., Plan]  # (spec, data, indices, updates, attrs: Resolved) -> Plan
    updates_shape: Callable[..., tuple | None]  # (data_shape, indices_shape, attrs: Mapping) -> updates shape
    reading: str  # how the family reads its indices, one phrase
    export_loop: Callable[[object], tuple[str, ...]]  # (case) -> loop lines calling apply(out, contributions, cell, value)
    indices: str = "required"  # "required" | "optional" | "unused": may indices be None?
    spec_flags: tuple[str, ...] = ()  # OpSpec shape flags that apply to this family
    index_tuples: bool = False  # each row of the last indices axis is one coordinate tuple (k coordinates)
    # one index (or k-tuple) selects a whole slice of data: every axis it does not fix, at data's full extent
    # (ScatterND with k < rank, ScatterUpdate); not a run whose length the updates set (TensorScatter)
    index_writes_slice: bool = False
    # (trace, step) -> what the step read from its indices, for a family whose steps do not read
    # "indices[pos] = v (normalised to w)"; None: the trace's generic label
    index_label: Callable[[object, int], str] | None = None
    # (rng, spec, limits: Limits) -> Drawn: a random valid draw of the family's shapes, indices and own attributes
    # (``sampling.sample_case`` adds values and builds the Case); None: no random cases (the tests' strategies,
    # the framework differential and Practice's mixed pool then leave the family out)
    sample: Callable[..., object] | None = None
    # (shapes: role -> shape, attrs) -> (stand-in data shape, stand-in updates shape, one write's shape), for an
    # example above the element limit; None: the large view shows only the shapes and the reason
    shrink: Callable[..., tuple[tuple, tuple, tuple] | None] | None = None
    writes_once: bool = False  # no two iterations can write one cell (no duplicate writes to meet)
    # The framework call forms (from_code.translate's Form records: "elements", "nd", "axis", "slice",
    # "flat") whose calls this family's operators write, each with its preference among the families writing that
    # form (0 first): x[:, idx] = v is ScatterUpdate before ScatterElementsUpdate in OpenVINO.
    call_forms: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # Practice (scatter_practice): the first level at which an exercise with no version chosen may be of this
    # family (1: the simplest loop, the first one a student meets), and the family's own curriculum,
    # (rng, level) -> Lesson: what each level practises here (None: the level's recipe, as for the others)
    practice_from: int = 2
    lesson: Callable[..., object] | None = None
    # the app's two pages of the family (app.py builds both from this record): the explorer page's title in the
    # navigation ("": ``title``), the spec page's title ("": "<title> spec") and the explorer page's icon (a
    # Material Symbols name)
    page_title: str = ""
    spec_title: str = ""
    icon: str = "animation"

    @property
    def explorer_title(self) -> str:
        """The explorer page's title in the app's navigation."""
        return self.page_title or self.title

    @property
    def spec_page_title(self) -> str:
        """The spec page's title in the app's navigation."""
        return self.spec_title or f"{self.title} spec"

    def __post_init__(self):
        if self.indices not in INDICES_RULES:
            raise ValueError(f"Family {self.name}: indices must be one of {INDICES_RULES}, not {self.indices!r}")


# -- export loop templates: Python source lines (inside ``scatter_reference``), from numbers only ----------
def _elements_loop(case) -> tuple[str, ...]:
    axis = case.resolved.axis
    return (
        "for pos in np.ndindex(*indices.shape):",
        "    v = int(indices[pos])",
        "    if v < 0:  # negative indices count from the end",
        f"        v += data.shape[{axis}]",
        f"    apply(out, contributions, pos[:{axis}] + (v,) + pos[{axis + 1}:], updates[pos])",
    )


def _nd_loop(case) -> tuple[str, ...]:
    return (
        "k = indices.shape[-1]",
        "for pos in np.ndindex(*indices.shape[:-1]):",
        "    head = tuple(int(v) + (data.shape[j] if int(v) < 0 else 0) for j, v in enumerate(indices[pos]))",
        "    for rest in np.ndindex(*data.shape[k:]):",
        "        apply(out, contributions, head + rest, updates[pos + rest])",
    )


def _update_loop(case) -> tuple[str, ...]:
    axis = case.resolved.axis
    return (
        "for j in np.ndindex(*indices.shape):",
        "    v = int(indices[j])",
        "    if v < 0:",
        f"        v += data.shape[{axis}]",
        f"    for outer in np.ndindex(*data.shape[:{axis}]):",
        f"        for inner in np.ndindex(*data.shape[{axis + 1}:]):",
        "            apply(out, contributions, outer + (v,) + inner, updates[outer + j + inner])",
    )


FAMILIES: Mapping[str, Family] = MappingProxyType({f.name: f for f in (
    Family(
        name="nd", title="ScatterND / ScatterNDUpdate", slug="nd",
        plan=nd.plan, updates_shape=nd.updates_shape,
        reading="each row of the last indices axis as a coordinate tuple addressing an element or a slice",
        export_loop=_nd_loop, spec_flags=("one_element_for_scalar_updates",), index_tuples=True,
        index_writes_slice=True, sample=nd.sample, call_forms=MappingProxyType({"nd": 0, "flat": 0}),
        page_title="ScatterND family", spec_title="ScatterND specs", icon="view_in_ar"),
    Family(
        name="elements", title="Scatter / ScatterElements / ScatterElementsUpdate", slug="elements",
        plan=elements.plan, updates_shape=elements.updates_shape,
        reading="one index per update, giving the coordinate along axis (the update's own position gives the rest)",
        export_loop=_elements_loop, spec_flags=("axis_dim_may_exceed",), sample=elements.sample,
        call_forms=MappingProxyType({"elements": 0, "axis": 1}),
        page_title="Elements family", spec_title="Elements specs", icon="grid_on", practice_from=1),
    Family(
        name="update", title="ScatterUpdate", slug="update",
        plan=update.plan, updates_shape=update.updates_shape,
        reading="each index as a whole slice along axis",
        export_loop=_update_loop, index_writes_slice=True, sample=update.sample, shrink=update.shrink,
        call_forms=MappingProxyType({"axis": 0}), icon="view_week"),
    # issue 16: the newest scatter operators
    Family(
        name="cache", title="TensorScatter (KV cache)", slug="tensor_scatter",
        plan=tensor_scatter.plan, updates_shape=tensor_scatter.updates_shape,
        reading="write_indices as one start position per batch entry along the sequence axis",
        export_loop=tensor_scatter.export_loop, indices="optional", index_label=tensor_scatter.index_label,
        sample=tensor_scatter.sample, writes_once=True, practice_from=5, lesson=tensor_scatter.lesson),
    Family(
        name="slice", title="SliceScatter", slug="slice_scatter",
        plan=slice_scatter.plan, updates_shape=slice_scatter.updates_shape,
        reading="no indices: start, stop and step choose one strided slice, one update per element",
        export_loop=slice_scatter.export_loop, indices="unused", index_label=slice_scatter.index_label,
        sample=slice_scatter.sample, writes_once=True, call_forms=MappingProxyType({"slice": 0}), practice_from=5,
        lesson=slice_scatter.lesson),
)})


def family_of(spec_or_name) -> Family:
    """The family record of an OpSpec (or of a family name)."""
    name = getattr(spec_or_name, "family", spec_or_name)
    try:
        return FAMILIES[name]
    except (KeyError, TypeError):
        raise ScatterError(f"family {name!r} is not known; known: {', '.join(FAMILIES)}",
                           argument="family", rule="unknown-family") from None


def family_by_slug(slug: str) -> Family:
    """The family whose explorer page lives at URL path ``slug``."""
    for family in FAMILIES.values():
        if family.slug == slug:
            return family
    raise ScatterError(f"no family has the URL path {slug!r}; known: {', '.join(f.slug for f in FAMILIES.values())}",
                       argument="slug", rule="unknown-family")
