"""The step player's contract: what Python sends the player, what the player sends back, and its colours.

* ``Payload`` (Python → browser): the options of :func:`scatter_ui.player.component.player`, the figure of
  :meth:`scatter_ui.figures.heatmaps.StepFigure.figure` (three heatmaps, each cell's value text and the output's
  write counts, the frames of a window of steps, one caption per step, panel sizes) and ``palette``, the colours.
* ``StepReport`` (browser → Python, the component state ``step``) and ``CellClick`` (the trigger ``cell``).
* ``PALETTE``: the colours, defined once in :mod:`scatter_ui.figures.palette`; the player holds none of its own.

The descriptions are ``TypedDict`` classes; :func:`schema` turns them into a JSON Schema (draft 2020-12), shipped as
``assets/player-contract.json`` (``python -m scatter_ui.player.contract`` writes it; a test checks it is current).
The player validates payloads and its reports against it when a payload asks (``check``), with the same rules as
:func:`errors` here (``contractErrors`` in js/contract.mjs; a test runs both on the same values). Plotly's own keys
pass through: a trace, layout, shape or annotation may carry keys not listed; what the player reads is typed.
"""

import json
import math
import sys
import types
import typing
from pathlib import Path
from typing import Annotated, Literal, Union

from typing_extensions import NotRequired, TypedDict, get_args, get_origin, get_type_hints, is_typeddict

SCHEMA_FILE = Path(__file__).resolve().parent / "assets" / "player-contract.json"
SCHEMA_ID = "https://scatter-explorer.invalid/player-contract.json"


class ContractError(ValueError):
    """A value off the player's contract; the message names where, the rule and the value."""


# the colours: one source, scatter_ui.figures.palette; PALETTE goes to the player in every payload
from scatter_ui.figures.palette import (  # noqa: F401 - part of the contract
    APART, APART_BAND, DARK_APART, DARK_CELL_TEXT, DARK_VALUE_SCALE, DARK_WRITTEN, DESTINATION, HIGHLIGHT, PALETTE,
    VALUE_SCALE, WRITTEN, banded)

# -- the vocabulary: JSON Schema keywords attached to types (typing.Annotated) --------------------------------


class Min:
    def __init__(self, value: float):
        self.value = value


class Len:
    """An array of exactly ``value`` items (``at_least``: of at least that many)."""

    def __init__(self, value: int, at_least: bool = False):
        self.value, self.at_least = value, at_least


Count = Annotated[int, Min(0)]
Colour = Annotated[str, "a CSS colour"]
ScaleStop = tuple[float, str]
Scale = Annotated[list[ScaleStop], Len(2, at_least=True), "a plotly colour scale: [position 0..1, CSS colour] pairs"]
Cells = Annotated[list[list[str]], "each cell's value as plain text (no markup), row by row over the panel's canvas "
                  "('' where nothing is drawn)"]
Counts = Annotated[list[list[Count]], "the output panel: how many times each cell has been written so far, row by row "
                   "(0 where nothing is drawn); the player shows ×n under the value of a cell written n > 1 times"]
Control = Literal["first", "prev", "play", "next", "last", "slider", "count", "goto", "speed", "export", "keys"]

# TypedDicts that may carry keys not listed (plotly's own): the rest are closed
OPEN: set[str] = set()


def _open(cls):
    OPEN.add(cls.__name__)
    return cls


class ThemeColours(TypedDict):
    value: Scale  # the colour scale of values, low to high
    cell_text: Annotated[Union[Colour, None], "cell text on the value scale (null: the best contrast per cell)"]
    written: Annotated[Colour, "the thin frame of written cells"]


class Palette(TypedDict):
    highlight: Annotated[Colour, "this step's read and write (thick frames; the write's with a filled corner)"]
    written: Annotated[Colour, "the thin frame's colour as the figure carries it (the player swaps in the theme's)"]
    destination: Annotated[Colour, "the dotted frame of every cell the run will write"]
    light: ThemeColours
    dark: ThemeColours


@_open
class Line(TypedDict):
    color: Colour
    width: Annotated[float, Min(0)]
    dash: NotRequired[Literal["solid", "dot", "dash", "dashdot"]]


@_open
class Shape(TypedDict):
    type: Literal["rect", "path"]
    xref: str
    yref: str
    line: Line
    x0: NotRequired[float]
    x1: NotRequired[float]
    y0: NotRequired[float]
    y1: NotRequired[float]
    path: NotRequired[Annotated[str, "rectangles (M x,y H x V y H x Z) or triangles (M x,y L x,y L x,y Z), repeated"]]


@_open
class Annotation(TypedDict):
    x: float
    y: float
    xref: str
    yref: str
    text: str
    showarrow: bool
    name: NotRequired[Annotated[str, "a small multiple's short label, shown when the full one does not fit"]]


@_open
class AxisTitle(TypedDict):
    text: str


@_open
class Axis(TypedDict):
    tickvals: list[float]
    ticktext: list[str]
    title: NotRequired[AxisTitle]


@_open
class ColourAxis(TypedDict):
    colorscale: Scale
    cmin: float
    cmax: float
    colorbar: dict[str, typing.Any]


@_open
class Trace(TypedDict):
    type: Literal["heatmap"]
    z: Annotated[list[list[Union[float, None]]], "values (null: no cell there)"]
    text: Cells
    counts: NotRequired[Counts]
    customdata: Annotated[list[list[str]], "each cell's hover text"]
    xaxis: str
    yaxis: str
    textfont: dict[str, typing.Any]


class FrameLayout(TypedDict):
    shapes: list[Shape]
    annotations: list[Annotation]
    xaxis: Axis
    yaxis: Axis
    xaxis2: Axis
    yaxis2: Axis
    xaxis3: Axis
    yaxis3: Axis


@_open
class Layout(FrameLayout):
    coloraxis: ColourAxis


class Figure(TypedDict):
    data: Annotated[list[Trace], Len(3), "the indices, updates and output panels"]
    layout: Layout


class FrameTrace(TypedDict):
    z: list[list[Union[float, None]]]
    text: Cells
    counts: NotRequired[Counts]
    customdata: NotRequired[list[list[str]]]


class Frame(TypedDict):
    name: Annotated[str, "the step, in digits"]
    traces: Annotated[list[Literal[0, 1, 2]], "the panels this frame changes"]
    data: Annotated[list[FrameTrace], "one per entry of traces"]
    layout: FrameLayout


class Apart(TypedDict):
    note: Annotated[str, "the legend's words for the grey cells"]
    light: Annotated[Scale, "the value scale with the grey band at its low end (light theme)"]
    dark: Annotated[Scale, "the same for the dark theme"]


class Payload(TypedDict):
    """What Python sends the player (scatter_ui.player.component.payload: a header line, then this as JSON)."""
    view: Annotated[str, "an id of the case on screen: a new one makes the browser jump to step"]
    step: Annotated[int, Min(0), "the step a new view starts at"]
    name: Annotated[str, "the file names of exports"]
    report: Annotated[bool, "whether the browser reports its step (StepReport)"]
    url_param: Annotated[Union[str, None], "the query parameter mirroring the step (null: none)"]
    plotly_url: Annotated[str, "where plotly.js is loaded from"]
    contract_url: Annotated[str, "where this contract is (player-contract.json)"]
    check: Annotated[bool, "whether the browser validates this payload against this contract"]
    controls: Annotated[Union[list[Control], None], "the controls to show (null: all)"]
    room_below: Annotated[Union[int, None], "px the page draws under the player that a window at most 820 px tall "
                          "(700 wide or more) keeps on screen with it: the cells are fitted to the height (null: "
                          "sized by the width)"]
    palette: Palette
    figure: Figure
    frames: Annotated[list[Frame], Len(1, at_least=True), "steps k0..k1, in order"]
    captions: Annotated[dict[str, str], "each step of the frames in one sentence, by step"]
    k0: Annotated[int, Min(0), "the first step of the frames"]
    k1: Annotated[int, Min(0), "the last step of the frames"]
    n: Annotated[int, Min(0), "the number of steps"]
    steps: NotRequired[Annotated[Union[int, None], "the steps the count names when the page sends only the first n (Practice "
                     "stops at the step to predict); null or left out: n"]]
    active: Annotated[int, Min(0), "the step the figure's data shows"]
    units: Annotated[list[Count], Len(3), "each panel's width in cells"]
    rows: Annotated[list[Count], Len(3), "each panel's height in cells"]
    panel_cols: Annotated[list[Count], Len(3), "columns of one small multiple of each panel"]
    multiples: Annotated[list[tuple[int, int, int]], Len(3), "each panel's [count, columns, rows] of small multiples"]
    gap: Annotated[int, Min(0), "columns between small multiples"]
    hidden: Annotated[list[bool], Len(3), "the panels left out"]
    apart: Annotated[Union[Apart, None], "values kept off the colour scale (±inf, a dtype's extremes written as a "
                     "fill), their cells grey (null: none)"]
    tall: NotRequired[Annotated[Union[bool, None], "whether an input's long row axis was windowed for a window taller "
                      "than 820 px (more rows; false: a projector's few); the browser reports its height "
                      "(StepReport.height) when its window is the other kind (null or left out: no such axis)"]]


class StepReport(TypedDict):
    """What the browser sends back as the component state ``step`` (also the state's default from Python)."""
    step: Annotated[int, Min(0), "the step the browser shows"]
    view: Annotated[str, "the view it shows it for (Payload.view)"]
    n: NotRequired[Annotated[int, Min(1), "a count of reports, so a repeated step is a new value"]]
    height: NotRequired[Annotated[int, Min(0), "the window's height in px (Payload.tall)"]]


CellClick = Annotated[list[Annotated[int, Min(0)]], "the clicked output cell's coordinates (the trigger 'cell')"]

MESSAGES = {"state": {"step": "StepReport"}, "triggers": {"cell": "CellClick"}}


# -- TypedDicts to JSON Schema -------------------------------------------------------------------------------
def _type_schema(tp, defs: dict) -> dict:
    notes: list = []
    origin = get_origin(tp)
    if origin is Annotated:
        tp, *notes = get_args(tp)
        origin = get_origin(tp)
    if origin is NotRequired:
        return _type_schema(get_args(tp)[0], defs)
    if isinstance(tp, type) and is_typeddict(tp):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}  # (a placeholder while its fields are described)
            defs[tp.__name__] = _object_schema(tp, defs)
        out = {"$ref": f"#/$defs/{tp.__name__}"}
    elif tp is typing.Any:
        out = {}
    elif tp is type(None):
        out = {"type": "null"}
    elif tp is bool:
        out = {"type": "boolean"}
    elif tp is int:
        out = {"type": "integer"}
    elif tp is float:
        out = {"type": "number"}
    elif tp is str:
        out = {"type": "string"}
    elif origin is Literal:
        out = {"enum": list(get_args(tp))}
    elif origin in (Union, types.UnionType):
        out = {"anyOf": [_type_schema(a, defs) for a in get_args(tp)]}
    elif origin is list:
        out = {"type": "array", "items": _type_schema(get_args(tp)[0], defs)}
    elif origin is tuple:
        items = [_type_schema(a, defs) for a in get_args(tp)]
        out = {"type": "array", "prefixItems": items, "items": False, "minItems": len(items), "maxItems": len(items)}
    elif origin is dict:
        out = {"type": "object", "additionalProperties": _type_schema(get_args(tp)[1], defs)}
    else:  # pragma: no cover - a type this vocabulary does not describe
        raise TypeError(f"the player contract cannot describe {tp!r}")
    for note in notes:
        if isinstance(note, Min):
            out["minimum"] = note.value
        elif isinstance(note, Len):
            out["minItems"] = note.value
            if not note.at_least:
                out["maxItems"] = note.value
        elif isinstance(note, str):
            out["description"] = note
    return out


def _object_schema(cls, defs: dict) -> dict:
    hints = get_type_hints(cls, include_extras=True)
    out: dict = {"type": "object"}
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        out["description"] = " ".join(cls.__doc__.split())
    out["properties"] = {name: _type_schema(tp, defs) for name, tp in hints.items()}
    out["required"] = [name for name in hints if name in cls.__required_keys__]
    out["additionalProperties"] = cls.__name__ in OPEN
    return out


def schema() -> dict:
    """The contract as a JSON Schema (draft 2020-12): the payload at its root, every part under ``$defs``
    (``StepReport`` and ``CellClick`` among them), the messages' names under ``x-messages``."""
    defs: dict = {}
    root = _type_schema(Payload, defs)
    _type_schema(StepReport, defs)  # (described under its own name)
    defs["CellClick"] = _type_schema(CellClick, defs)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "The step player's contract (scatter_ui/player/contract.py)",
            "description": "What Python sends the step player (the root: a Payload) and what it sends back "
                           "(x-messages: the component state and triggers, by name, and their definitions).",
            **root, "x-messages": MESSAGES, "$defs": dict(sorted(defs.items()))}


def schema_text() -> str:
    return json.dumps(schema(), indent=1, ensure_ascii=False) + "\n"


_SCHEMA: dict | None = None


def shipped() -> dict:
    """The schema as shipped in assets/ (what the browser reads)."""
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return _SCHEMA


# -- the validator (the same rules as js/contract.mjs's contractErrors) ----------------------------------------
_TYPES = {"null": lambda v: v is None, "boolean": lambda v: isinstance(v, bool),
          "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
          or (isinstance(v, float) and math.isfinite(v) and v.is_integer()),
          "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
          "string": lambda v: isinstance(v, str), "array": lambda v: isinstance(v, list),
          "object": lambda v: isinstance(v, dict)}
MAX_ERRORS = 8


def errors(value, ref: str = "Payload", schema_doc: dict | None = None, limit: int = MAX_ERRORS) -> list[str]:
    """Where ``value`` is off the contract's definition ``ref`` ("Payload", "StepReport", "CellClick"):
    at most ``limit`` sentences, each naming the place (``$.figure.data[2].z``), the rule and the value;
    [] when it conforms. Reads the shipped schema unless ``schema_doc`` is given."""
    doc = schema_doc or shipped()
    out: list[str] = []
    _check(value, {"$ref": f"#/$defs/{ref}"}, "$", doc, out, limit)
    return out[:limit]  # (an object's keys may add a few past the limit before it is looked at again)


def _show(value) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr) if not isinstance(value, float) \
        else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check(value, node: dict, where: str, doc: dict, out: list, limit: int) -> None:
    if len(out) >= limit:
        return
    if "$ref" in node:
        node = doc["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in node:
        if not any(not _collect(value, option, where, doc) for option in node["anyOf"]):
            out.append(f"{where}: {_show(value)} is none of the allowed kinds")
        return
    if "enum" in node:
        if not any(value == e and type(value) is type(e) for e in node["enum"]):
            out.append(f"{where}: {_show(value)} is not one of {', '.join(map(_show, node['enum']))}")
        return
    kind = node.get("type")
    if kind is not None and not _TYPES[kind](value):
        out.append(f"{where}: {_show(value)} is not of type {kind}")
        return
    if "minimum" in node and value < node["minimum"]:
        out.append(f"{where}: {_show(value)} is below the minimum {node['minimum']}")
    if kind == "array":
        if "minItems" in node and len(value) < node["minItems"]:
            out.append(f"{where}: {len(value)} item(s), fewer than {node['minItems']}")
        if "maxItems" in node and len(value) > node["maxItems"]:
            out.append(f"{where}: {len(value)} item(s), more than {node['maxItems']}")
        prefix = node.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else node.get("items", True)
            if sub is False:
                break
            if sub is not True:
                _check(item, sub, f"{where}[{i}]", doc, out, limit)
    elif kind == "object":
        for name in node.get("required", ()):
            if name not in value:
                out.append(f"{where}: the required key {name!r} is missing")
        props = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        for name, item in value.items():
            sub = props.get(name, extra)
            if sub is False:
                out.append(f"{where}: the key {name!r} is not in the contract")
            elif sub is not True:
                _check(item, sub, f"{where}.{name}", doc, out, limit)


def _collect(value, node, where, doc) -> list:
    found: list = []
    _check(value, node, where, doc, found, 1)
    return found


def check_payload(data: dict) -> None:
    """Raise :class:`ContractError` unless ``data`` (a payload read back) conforms: the schema, then the
    rules JSON Schema cannot say (the frames are steps k0..k1 in order, with a caption each, around the
    active step; each frame's data matches its traces)."""
    found = errors(data, "Payload")
    if not found:
        names = [f["name"] for f in data["frames"]]
        if not data["k0"] <= data["active"] <= data["k1"] <= data["n"]:
            found.append(f"$: k0 ≤ active ≤ k1 ≤ n does not hold for {data['k0']}, {data['active']}, "
                         f"{data['k1']}, {data['n']}")
        if names != [str(k) for k in range(data["k0"], data["k1"] + 1)]:
            found.append(f"$.frames: named {_show(names)}, not the steps {data['k0']}..{data['k1']} in order")
        if set(data["captions"]) != set(names):
            found.append(f"$.captions: the steps {_show(sorted(data['captions']))} are not the frames' {_show(names)}")
        for i, f in enumerate(data["frames"]):
            if len(f["traces"]) != len(f["data"]):
                found.append(f"$.frames[{i}]: {len(f['traces'])} traces named but {len(f['data'])} sent")
    if found:
        raise ContractError("the player's payload is off its contract (scatter_ui/player/contract.py): "
                            + "; ".join(found))


def read_step_report(value) -> StepReport:
    """The component state ``step`` as the browser sent it; :class:`ContractError` (naming the place, the
    rule and the value) when it is off the contract."""
    found = errors(value, "StepReport")
    if found:
        raise ContractError("the player's step report is off its contract (StepReport): " + "; ".join(found))
    return typing.cast(StepReport, {**value, "step": int(value["step"])})


def read_cell(value) -> list[int]:
    """The trigger ``cell`` (a clicked output cell's coordinates); :class:`ContractError` when off the contract."""
    found = errors(value, "CellClick")
    if found:
        raise ContractError("the player's cell click is off its contract (CellClick): " + "; ".join(found))
    return [int(v) for v in value]




if __name__ == "__main__":  # python -m scatter_ui.player.contract [--check]: write (or check) the shipped schema
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if SCHEMA_FILE.read_text(encoding="utf-8") == schema_text() else "player-contract.json is stale")
    SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_FILE}")
