"""The call of a :class:`~from_code.translate.Translation` on concrete tensors.

* ``case_for(tr, tensors)``: the scatter_core case of the translation's operator (the explorer, the check
  page and the exported test use it), with how its output maps back to the call's (``CallCase``);
* ``framework_code(tr)``: the call in its framework with fixed variable names (generated, never the user's
  text); ``framework_script`` wraps it for a child process (from_call_run.py runs it guarded);
* ``agrees(call_case, output, canonical)``: the framework's output against the translation's;
* ``example_tensors(tr, rng)``: valid tensors for the call's slots, drawn to repeat indices (and to make them
  negative where the framework takes that), for random differential cases and the page's "fill" button.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

import numpy as np

import scatter_core as sc

from .translate import AXIS, MASK_AXIS, ND, Slot, Translation, _err, fallback_operator, from_call
from framework_map.records import FRAMEWORK_RECORDS

# ----------------------------------------------------------------------------- with tensors: the case and the run
@dataclass(frozen=True)
class CallCase:
    """The call on concrete tensors: the scatter_core case of its target operator, and how its output maps back."""

    case: sc.Case
    shape: tuple[int, ...]  # the framework's output shape (np.put: the case runs on data flattened)
    note: str = ""  # what the case is, where it is the core of a composition
    # the call's values in the case's updates shape BEFORE the composition's own arithmetic (x[idx] += v: v, not
    # x[idx] + v; index_add's alpha: source unscaled); None where the case's updates are the call's values
    values: np.ndarray | None = None

    def output(self) -> np.ndarray:
        return self.case.run().reshape(self.shape)


def tensor_slots(tr: Translation) -> list[Slot]:
    """The slots that take a tensor (a number written in the call needs none)."""
    return [s for s in tr.slots if s.scalar is None]


def _named(slot) -> str:
    """A tensor of the call as the user wrote it, with the framework's name for that argument where they differ
    ("v (values)")."""
    text = slot.text[:60]
    return text if text == slot.param else f"{text} ({slot.param})"


def _get(tensors: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    if name not in tensors:
        raise _err(f"no tensor given for {name}", argument=name, rule="tensor")
    return np.asarray(tensors[name])


def _updates(tr: Translation, tensors, shape, dtype, broadcast=True) -> np.ndarray:
    slot = next(s for s in tr.slots if s.role == "updates")
    with np.errstate(all="ignore"):
        if slot.scalar is not None:
            return np.full(shape, slot.scalar).astype(dtype)
        value = _get(tensors, slot.name)
        if not broadcast:
            return value.astype(dtype)
        try:
            return np.broadcast_to(value, shape).astype(dtype)
        except ValueError:
            raise _err(f"{_named(slot)} has shape {value.shape}, which does not broadcast to the written cells' "
                       f"shape {tuple(shape)}", argument=slot.param, rule="shape") from None


def _combine(canonical: str, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """The read cells combined once with the values (x[idx] += v), as the framework's elementwise operator does.
    A combination NumPy refuses for the dtype (bool subtraction: PyTorch refuses it too) is a ScatterError."""
    ufunc = {"sum": np.add, "sub": np.subtract, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[canonical]
    with np.errstate(all="ignore"):
        try:
            return ufunc(old, new).astype(old.dtype)
        except TypeError:
            raise _err(f"the augmented assignment combines the read cells with the values by {ufunc.__name__}, "
                       f"which is not defined for {old.dtype} and {new.dtype} values (PyTorch and NumPy raise "
                       "for it too); use a numeric dtype", argument="data", rule="dtype") from None


def _nd_parts(tr: Translation, tensors, data) -> np.ndarray:
    r = tr.reading
    if r.parts[0][0] == "tuple":
        return _get(tensors, r.parts[0][1]).astype(np.int64)
    arrays = [_get(tensors, p[1]).astype(np.int64) if p[0] == "slot" else np.int64(p[1]) for p in r.parts]
    try:
        arrays = np.broadcast_arrays(*arrays)
    except ValueError:
        raise _err("the index arrays do not broadcast together: " + ", ".join(str(np.shape(a)) for a in arrays),
                   argument="indices", rule="shape") from None
    return np.stack(arrays, axis=-1)


def _slice_shape(tr: Translation, data) -> tuple[list, tuple]:
    """(per sliced axis (axis, start, stop, step, squeeze), the updates' shape with squeezed axes kept as 1)."""
    r = tr.reading
    spans = [(r.axis, *r.slices[0])] if r.axis is not None else [(a, *s) for a, s in enumerate(r.slices)
                                                                 if s is not None]
    if any(not -data.ndim <= a < data.ndim for a, *_ in spans) or len(r.slices) > data.ndim:
        raise _err(f"the slice names more axes than data has ({data.ndim})", argument="index", rule="shape")
    shape = list(data.shape)
    for a, lo, hi, st, _ in spans:
        shape[a] = len(range(*slice(lo, hi, st).indices(data.shape[a])))
    return spans, tuple(shape)


def resolve(tr: Translation, tensors: Mapping[str, np.ndarray]) -> Translation:
    """The translation read again with the tensors given for its slots (by slot name): a bool tensor typed for
    an open name makes it a mask, an integer one indices, and values typed for a mask decide whether Where alone
    writes them. Raises ScatterError where the tensors still leave the reading open."""
    if not tr.text:
        return tr
    given = {s.text: np.asarray(tensors[s.name]) for s in tensor_slots(tr) if s.name in tensors}
    data = next((given[s.text] for s in tr.slots if s.role == "data" and s.text in given), None)
    out = from_call(tr.text, None if data is None else data.dtype, given)
    if out.readings:
        names = ", ".join(out.undecided)
        raise _err(f"give {names}'s values: the text does not say whether {names} is a boolean mask or integer "
                   "indices, and each reading is a different operator", argument=out.undecided[0][:40],
                   rule="ambiguous")
    return out


def case_for(tr: Translation, tensors: Mapping[str, np.ndarray]) -> CallCase:
    """The call on these tensors (named by ``tensor_slots``) as a case of its target operator (raises ScatterError).
    An ambiguous translation (``readings``) is first resolved by the tensors' dtypes (:func:`resolve`)."""
    if tr.readings:
        tr = resolve(tr, tensors)
    r = tr.reading
    op = tr.target
    ops = tr.onnx or tr.openvino or [fallback_operator(r)]
    attrs = dict(ops[0][1])
    data_slot = next((s for s in tr.slots if s.role == "data"), None)
    if tr.slots and tr.slots[0].role == "shape":
        upd = _get(tensors, "updates")
        shape = tuple(int(v) for v in _get(tensors, "shape").reshape(-1))
        data = np.zeros(shape, upd.dtype)
    elif data_slot.scalar is not None:  # torch.where(m, x, 0): a number where the mask is False
        data = np.asarray(data_slot.scalar)
    else:
        data = _get(tensors, data_slot.name)
    for s in tensor_slots(tr):  # True/False typed into an index box would silently become indices 1 and 0
        if s.role == "indices" and _get(tensors, s.name).dtype == np.bool_:
            raise _err(f"{s.text[:60]} is a bool tensor (True/False), but this call reads it as integer indices "
                       "(True would be index 1, False index 0), not as a mask. To write through a mask, use "
                       "x[mask] = v, masked_fill, masked_scatter or where; else give integer indices",
                       argument=s.param, rule="dtype")
    try:
        return CASES[r.form.case](tr, tensors, data, op, attrs)  # the form record names its builder
    except sc.ScatterError as exc:
        if exc.rule not in ("index-range", "range"):
            raise
        found = _user_index_error(tr, tensors, data)
        if found is None:
            raise
        message, argument = found
        raise _err(f"{message}. In {sc.get_spec(op).name}: {exc}", argument=argument, rule=exc.rule) from None


def _index_tensors(tr: Translation, tensors, data: np.ndarray) -> list[tuple]:
    """The call's own index tensors with the data axis each value addresses: (slot, array, axes), ``axes`` an
    int array broadcasting against the array (-1: data flattened, np.put)."""
    r, form = tr.reading, tr.reading.form.case
    slots = {s.name: s for s in tr.slots}
    rank = data.ndim
    if form == "_nd_case":
        if r.parts[0][0] == "tuple":
            arr = _get(tensors, r.parts[0][1])
            return [(slots[r.parts[0][1]], arr, np.arange(arr.shape[-1]) if arr.ndim else np.int64(0))]
        return [(slots[p[1]], _get(tensors, p[1]), np.int64(j)) for j, p in enumerate(r.parts) if p[0] == "slot"]
    if form in ("_elements_case", "_axis_case") and r.axis is not None and -rank <= r.axis < rank:
        slot = next(s for s in tr.slots if s.role == "indices") if form == "_elements_case" else slots[r.parts[0][1]]
        return [(slot, _get(tensors, slot.name), np.int64(r.axis % rank))]
    if form == "_flat_case" and r.wrap not in ("wrap", "clip"):
        return [(slots["ind"], _get(tensors, "ind").reshape(-1), np.int64(-1))]
    return []


def _user_index_error(tr: Translation, tensors, data: np.ndarray) -> tuple[str, str] | None:
    """(the first out-of-range value in the user's own index tensors, named as the user wrote the call, the
    argument), or None where every value fits (the translated case's message stands then)."""
    data_slot = next((s for s in tr.slots if s.role == "data"), None)
    data_name = data_slot.text[:60] if data_slot is not None else "the output"
    found, more = None, 0
    for slot, arr, axes in _index_tensors(tr, tensors, data):
        arr = np.asarray(arr).astype(np.int64)
        if axes.ndim and (arr.ndim == 0 or arr.shape[-1] > data.ndim):
            continue  # more coordinates than data has axes: the case's own message says so
        sizes = np.where(axes < 0, data.size, np.asarray(data.shape + (1,), dtype=np.int64)[axes])
        bad = (arr < -sizes) | (arr >= sizes)
        if not bad.any():
            continue
        more += int(bad.sum())
        if found is None:
            pos = tuple(int(v) for v in np.argwhere(bad)[0]) if arr.ndim else ()
            axis = int(np.broadcast_to(axes, arr.shape)[pos]) if arr.ndim else int(axes)
            n = int(data.size if axis < 0 else data.shape[axis])
            where = f"{slot.text[:60]}[{', '.join(map(str, pos))}]" if pos else slot.text[:60]
            target = f"{data_name} flattened to size {n}" if axis < 0 else f"{data_name}'s axis {axis} of size {n}"
            allowed = f"allowed {-n}..{n - 1}" if n else "no index fits an empty axis"
            found = (f"{where} = {sc.fmt_value(arr[pos])} is out of range for {target} ({allowed})", slot.param)
    if found is None:
        return None
    if more > 1:
        return f"{found[0]}; {more - 1} more of your index value(s) are out of range too", found[1]
    return found


def _elements_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """one index per element along an axis (scatter, scatter_reduce, put_along_axis)"""
    r, dtype = tr.reading, data.dtype
    index = _get(tensors, next(s.name for s in tr.slots if s.role == "indices")).astype(np.int64)
    fw = FRAMEWORK_RECORDS[tr.framework]
    if fw.src_front_read and next(s for s in tr.slots if s.role == "updates").scalar is None:
        slot = next(s for s in tr.slots if s.role == "updates")
        src = _get(tensors, slot.name)
        if src.ndim != index.ndim or any(a < b for a, b in zip(src.shape, index.shape)):
            index_slot = next(s for s in tr.slots if s.role == "indices")
            raise _err(f"{_named(slot)} has shape {src.shape}; PyTorch needs it at least as large as "
                       f"{_named(index_slot)} {index.shape} in every dimension", argument=slot.param, rule="shape")
        updates = src[tuple(slice(0, n) for n in index.shape)].astype(dtype)  # PyTorch reads only that part
    else:
        if fw.elements_indices_broadcast:  # put_along_axis broadcasts indices against arr on the other axes
            a = r.axis % max(data.ndim, 1)
            want = tuple(index.shape[d] if d == a else n for d, n in enumerate(data.shape))
            try:
                index = np.ascontiguousarray(np.broadcast_to(index, want)) if index.ndim == data.ndim else index
            except ValueError:
                raise _err(f"indices {index.shape} do not broadcast against arr {data.shape} on the axes other "
                           f"than {a}", argument="indices", rule="shape") from None
        updates = _updates(tr, tensors, index.shape, dtype)
    return CallCase(sc.case(op, data, index, updates, **attrs), data.shape)


def _slice_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """a strided slice (x[1:3] = v, slice_scatter, select_scatter): SliceScatter"""
    r, dtype = tr.reading, data.dtype
    spans, shape = _slice_shape(tr, data)
    squeezed = tuple(s for s in shape) if not any(sp[4] for sp in spans) else tuple(
        n for a, n in enumerate(shape) if not any(sp[4] and sp[0] % data.ndim == a for sp in spans))
    broadcast = not FRAMEWORK_RECORDS[tr.framework].sources_exact or r.axis is None
    updates = _updates(tr, tensors, squeezed, dtype, broadcast=broadcast).reshape(shape)
    attrs = {"start": [sp[1] for sp in spans], "stop": [sp[2] for sp in spans], "step": [sp[3] for sp in spans],
             "axes": [sp[0] for sp in spans]}
    note, values = "", None
    if r.gather_first:  # read the slice, combine, write it back
        where = [slice(None)] * data.ndim
        for a, lo, hi, st, _ in spans:
            where[a] = slice(lo, hi, st)
        values, updates = updates, _combine(r.canonical, data[tuple(where)], updates)
        note = "the SliceScatter writing back the slice combined with the values"
    return CallCase(sc.case(op, data, None, updates, **attrs), data.shape, note=note, values=values)


def _bool(tensors, slot) -> np.ndarray:
    mask = _get(tensors, slot.name)
    if mask.dtype != np.bool_:
        raise _err(f"{_named(slot)} must be a bool tensor, not {mask.dtype}", argument=slot.param, rule="dtype")
    return mask


def _mask_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """a boolean mask: the scatter at the core of the composition, each mask replaced by its NonZero rows (the
    integer reading's case on them: NumPy and PyTorch define a mask index so); masked_scatter: ScatterND of the
    first count(mask) values of source"""
    r, dtype = tr.reading, data.dtype
    slot = next(s for s in tr.slots if s.role == "updates")
    named = {s.name: s for s in tr.slots}
    if r.broadcast_mask:  # masked_scatter: the mask broadcasts to data from the right
        mslot = next(s for s in tr.slots if s.role == "mask")
        mask = _bool(tensors, mslot)
        try:
            mask = np.broadcast_to(mask, data.shape)
        except ValueError:
            raise _err(f"{_named(mslot)} {mask.shape} does not broadcast to data {data.shape}",
                       argument=mslot.param, rule="shape") from None
        where = np.argwhere(mask).astype(np.int64)
        n = len(where)
        source = _get(tensors, slot.name).reshape(-1)
        if source.size < n:
            raise _err(f"{_named(slot)} has {source.size} elements but the mask selects {n}", argument=slot.param,
                       rule="shape")
        return CallCase(sc.case(op, data, where, source[:n].astype(dtype), reduction=_spelling(op, "none")),
                        data.shape, note="the ScatterND at the core of the composition (indices = NonZero(mask), "
                        "transposed)")
    if any(kind in ("colon", "ellipsis") for kind, _ in r.parts):
        return _mixed_case(tr, tensors, data, op, attrs)
    parts, given, slots, at = [], dict(tensors), [s for s in tr.slots if s.role not in ("mask", "indices")], 0
    for kind, name in r.parts:
        if kind != "mask":
            parts.append((kind, name))
            slots += [named[name]] if kind == "slot" else []
            at += 1
            continue
        mslot = named[name]
        mask = _bool(tensors, mslot)
        if r.form is MASK_AXIS:
            if not -data.ndim <= r.axis < data.ndim:
                raise _err(f"axis {r.axis} is outside data's {data.ndim} axes", argument="index", rule="range")
            at = r.axis % data.ndim
        want = data.shape[at:at + mask.ndim]
        if mask.ndim == 0 or mask.shape != want or (r.form is MASK_AXIS and mask.ndim != 1):
            rule = "a 1-D mask of that axis's size" if r.form is MASK_AXIS else "the sizes of the axes it covers"
            raise _err(f"{_named(mslot)} has shape {mask.shape}; as a mask over data {data.shape} from axis {at} it "
                       f"must have {rule}, {want if r.form is not MASK_AXIS else data.shape[at:at + 1]}",
                       argument=mslot.param, rule="shape")
        for d, rows in enumerate(np.nonzero(mask)):
            row = f"{name}_nonzero_{d}"
            given[row] = rows.astype(np.int64)
            slots.append(Slot(row, mslot.param, f"NonZero({mslot.text})[{d}]", "indices"))
            parts.append(("slot", row))
        at += mask.ndim
    form = AXIS if r.form is MASK_AXIS else ND
    plain = replace(tr, reading=replace(r, form=form, parts=tuple(parts), where=False), slots=tuple(slots))
    cc = CASES[form.case](plain, given, data, op, attrs)
    how = (f"Where(mask, {'the combined values' if r.canonical != 'none' else 'value'}, x) computes it without a "
           "scatter; this is the scatter writing the same cells" if r.where else "the scatter at the core of the "
           "composition")
    return replace(cc, note=f"{how} (indices: NonZero of the mask)" + (f"; {cc.note}" if cc.note else ""))


def index_elements(tr: Translation, tensors, data: np.ndarray) -> list[tuple[str, object]]:
    """A mask reading's index expression as (kind, name) per element, ``...`` spread into ("colon", ":") per axis
    it stands for (x[:, m] and x[..., m] too), each kind one of colon, const, slot, mask."""
    r = tr.reading
    if r.form is MASK_AXIS:
        return [("colon", ":")] * (r.axis % max(data.ndim, 1)) + [r.parts[0]]
    used = sum(_bool(tensors, tr_slot(tr, name)).ndim if kind == "mask" else kind != "ellipsis"
               for kind, name in r.parts)
    if used > data.ndim:
        raise _err(f"the index names {used} axes but data has {data.ndim}", argument="index", rule="shape")
    out = []
    for kind, name in r.parts:
        out += [("colon", ":")] * (data.ndim - used) if kind == "ellipsis" else [(kind, name)]
    return out


def tr_slot(tr: Translation, name: str) -> Slot:
    return next(s for s in tr.slots if s.name == name)


def advanced_kinds(tr: Translation) -> tuple[str, ...]:
    """The index elements that broadcast together as advanced indices: PyTorch applies an integer first (a select,
    x[0, :, m] is x[0][:, m]); NumPy and JAX count it among the advanced indices (x[0, :, m] puts m's axis first)."""
    return ("slot", "mask") if FRAMEWORK_RECORDS[tr.framework].integers_select_first else ("slot", "mask", "const")


def ellipsis_separates(tr: Translation) -> bool:
    """Whether an ellipsis stands between two advanced indices in a framework that counts it as a separator even
    where it stands for no axis (NumPy, JAX: x[:, i, ..., m] on 3 axes puts the index axes first, where PyTorch
    reads x[:, i, m] and keeps them in place)."""
    if FRAMEWORK_RECORDS[tr.framework].ellipsis_spread_first:
        return False
    kinds = [kind for kind, _ in tr.reading.parts]
    advanced = [j for j, kind in enumerate(kinds) if kind in advanced_kinds(tr)]
    return bool(advanced) and "ellipsis" in kinds[advanced[0]:advanced[-1] + 1]


def _mixed_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """a mask beside whole slices (x[i, :, m], x[m, :]): ScatterND on the coordinates NumPy's advanced indexing
    names, one row per written cell (the broadcast index axes first where a slice separates the indices), the
    axes after the last index left whole"""
    elements, index, at = index_elements(tr, tensors, data), [], 0
    for kind, name in elements:
        if kind == "mask":
            mask = _bool(tensors, tr_slot(tr, name))
            want = data.shape[at:at + mask.ndim]
            if mask.ndim == 0 or mask.shape != want:
                raise _err(f"{_named(tr_slot(tr, name))} has shape {mask.shape}; as a mask over data {data.shape} "
                           f"from axis {at} it must have the sizes of the axes it covers, {want}",
                           argument=tr_slot(tr, name).param, rule="shape")
            index.append(mask)
            at += mask.ndim
            continue
        index.append(slice(None) if kind == "colon" else np.int64(name) if kind == "const" else
                     _get(tensors, name).astype(np.int64))
        at += 1
    last = max(j for j, (kind, _) in enumerate(elements) if kind != "colon")
    index, elements = index[:last + 1], elements[:last + 1]
    k = sum(i.ndim if isinstance(i, np.ndarray) and i.dtype == np.bool_ else 1 for i in index)
    advanced = [j for j, (kind, _) in enumerate(elements) if kind in advanced_kinds(tr)]
    shapes = [(int(index[j].sum()),) if index[j].dtype == np.bool_ else index[j].shape for j in advanced]
    try:
        b = len(np.broadcast_shapes(*shapes))
    except ValueError:
        raise _err("the index arrays do not broadcast together (each mask as its count of True cells): "
                   + ", ".join(map(str, shapes)), argument="indices", rule="shape") from None
    grid = np.indices(data.shape[:k], dtype=np.int64)
    try:
        if "const" not in advanced_kinds(tr):  # PyTorch: the integers select first, then the advanced indices
            first = [i if kind == "const" else slice(None) for i, (kind, _) in zip(index, elements)
                     for _ in range(i.ndim if kind == "mask" else 1)]
            grid = grid[(slice(None), *first)]
            index = [i for i, (kind, _) in zip(index, elements) if kind != "const"]
            advanced = [j for j, (kind, _) in enumerate(e for e in elements if e[0] != "const") if kind != "colon"]
        picked = grid[(slice(None), *index)]
    except IndexError as exc:
        raise _err(f"an index is out of range for data {data.shape}: {exc}", argument="indices",
                   rule="range") from None
    adjacent = advanced == list(range(advanced[0], advanced[-1] + 1))
    coords = np.moveaxis(picked, 0 if adjacent else b, -1)
    if adjacent and ellipsis_separates(tr):  # an empty ellipsis between them: the index axes first all the same
        at_b = sum(1 for kind, _ in elements[:advanced[0]] if kind == "colon")
        coords = np.moveaxis(coords, list(range(at_b, at_b + b)), list(range(b)))
        adjacent = False
    coords = np.ascontiguousarray(coords)
    name = "mask_coordinates"
    slots = [s for s in tr.slots if s.role not in ("mask", "indices")]
    slots.append(Slot(name, "indices", "NonZero rows and whole axes' ranges, by NumPy's rules", "indices"))
    plain = replace(tr, reading=replace(tr.reading, form=ND, parts=(("tuple", name),), where=False),
                    slots=tuple(slots))
    cc = CASES[ND.case](plain, {**tensors, name: coords}, data, op, attrs)
    return replace(cc, note="the ScatterND at the core of the composition (indices: the NonZero rows and the "
                   "whole axes' coordinates, " + ("in place" if adjacent else "the index axes first") + ")"
                   + (f"; {cc.note}" if cc.note else ""))


def _where_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """Where(mask, values, data) (masked_fill, torch.where, tf.where, jnp.where, np.where, np.putmask) as the
    ScatterND writing the values into the True cells of data broadcast to the output's shape"""
    r = tr.reading
    mslot, uslot, dslot = (next(s for s in tr.slots if s.role == role) for role in ("mask", "updates", "data"))
    mask = _bool(tensors, mslot)
    values = np.asarray(uslot.scalar) if uslot.scalar is not None else _get(tensors, uslot.name)
    dtype = values.dtype if dslot.scalar is not None else data.dtype if uslot.scalar is not None else \
        np.result_type(values.dtype, data.dtype)
    if tr.reading.cyclic:  # np.putmask: a.flat[n] = values[n % values.size] where mask.flat[n]
        if mask.shape != data.shape:
            raise _err(f"{_named(mslot)} has shape {mask.shape}; np.putmask needs the shape of {_named(dslot)}, "
                       f"{data.shape}", argument=mslot.param, rule="shape")
        if values.size == 0:
            raise _err(f"{_named(uslot)} is empty; np.putmask needs at least one value", argument=uslot.param,
                       rule="shape")
        values, shape = np.resize(values.reshape(-1), data.size).reshape(data.shape), data.shape
    else:
        if uslot.param == "value" and values.ndim:
            raise _err(f"{_named(uslot)} has shape {values.shape}; masked_fill takes a number or a 0-d tensor "
                       "(PyTorch refuses more)", argument=uslot.param, rule="shape")
        try:
            shape = np.broadcast_shapes(mask.shape, values.shape, data.shape)
        except ValueError:
            raise _err(f"{_named(mslot)} {mask.shape}, {_named(uslot)} {values.shape} and {_named(dslot)} "
                       f"{data.shape} do not broadcast together", argument=mslot.param, rule="shape") from None
    full = np.broadcast_to(mask, shape)
    with np.errstate(all="ignore"):
        base = np.ascontiguousarray(np.broadcast_to(data, shape).astype(dtype))
        written = np.broadcast_to(values, shape)[full].astype(dtype)
    return CallCase(sc.case(op, base, np.argwhere(full).astype(np.int64), written, reduction=_spelling(op, "none")),
                    shape, note="Where(mask, values, x) computes it without a scatter; this is the ScatterND writing "
                    "the same cells (indices: NonZero of the mask)")


def _flat_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """np.put: data flattened to 1-D"""
    r, dtype = tr.reading, data.dtype
    flat = data.reshape(-1)
    ind = _get(tensors, "ind").astype(np.int64).reshape(-1)
    if r.wrap == "wrap" and flat.size:
        ind = ind % flat.size
    elif r.wrap == "clip" and flat.size:
        ind = np.clip(ind, 0, flat.size - 1)
    slot = next(s for s in tr.slots if s.role == "updates")
    values = np.full(1, slot.scalar) if slot.scalar is not None else _get(tensors, slot.name).reshape(-1)
    updates = np.resize(values, ind.shape).astype(dtype)
    return CallCase(sc.case(op, flat, ind[:, None], updates, **attrs), data.shape,
                    note="data flattened to 1-D (np.put writes the flattened array)")


def _nd_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """one index tensor per leading axis, or a tensor of k-tuples"""
    r, dtype = tr.reading, data.dtype
    indices = _nd_parts(tr, tensors, data)
    k = indices.shape[-1]
    updates = _updates(tr, tensors, indices.shape[:-1] + data.shape[k:], dtype)
    if r.gather_first:
        inside = all(-n <= v < n for j, n in enumerate(data.shape[:k]) for v in indices[..., j].reshape(-1))
        if not inside:
            raise _err("an index is out of range for data", argument="indices", rule="range")
        old = data[tuple(indices[..., j] for j in range(k))]
        return CallCase(sc.case(op, data, indices, _combine(r.canonical, old, updates),
                                reduction=_spelling(op, "none")), data.shape,
                        note="the ScatterND (reduction none) writing back x[idx] combined with v", values=updates)
    return CallCase(sc.case(op, data, indices, updates, **attrs), data.shape)


def _axis_case(tr: Translation, tensors, data: np.ndarray, op: str, attrs: dict) -> CallCase:
    """one index array along an axis (index_add / index_copy / x[:, idx] = v ...)"""
    r, dtype = tr.reading, data.dtype
    a = r.axis if r.axis is None or r.axis >= 0 else r.axis + data.ndim
    if not 0 <= a < max(data.ndim, 1):
        raise _err(f"axis {r.axis} is outside data's {data.ndim} axes", argument="dim", rule="range")
    index = _get(tensors, r.parts[0][1]).astype(np.int64)
    full = data.shape[:a] + index.shape + data.shape[a + 1:]
    slot = next(s for s in tr.slots if s.role == "updates")
    exact = FRAMEWORK_RECORDS[tr.framework].sources_exact and slot.param == "source"  # index_add's source
    updates = _updates(tr, tensors, full, dtype, broadcast=not exact)
    if updates.shape != full:
        raise _err(f"{_named(slot)} has shape {updates.shape}; it must be {full}", argument=slot.param, rule="shape")
    raw = updates
    if r.alpha is not None:
        with np.errstate(all="ignore"):
            updates = (updates * np.asarray(r.alpha, dtype=dtype)).astype(dtype)
    spec = sc.get_spec(op)
    try:  # a version whose indices address whole slices along the axis (ScatterUpdate) takes the index as it is
        direct = sc.family_of(spec).updates_shape(data.shape, index.shape, {**attrs, "axis": a}) == full
    except (sc.ScatterError, ValueError, TypeError):
        direct = False
    unscaled = None if r.alpha is None else raw
    if direct and not r.gather_first:
        return CallCase(sc.case(op, data, index, updates, **attrs), data.shape, values=unscaled)
    n = index.size
    flat_updates = updates.reshape(data.shape[:a] + (n,) + data.shape[a + 1:])
    if unscaled is not None:
        unscaled = unscaled.reshape(flat_updates.shape)
    expanded = np.broadcast_to(index.reshape((1,) * a + (n,) + (1,) * (data.ndim - a - 1)), flat_updates.shape)
    expanded = np.ascontiguousarray(expanded)
    if r.gather_first:
        if n and (expanded.min() < -data.shape[a] or expanded.max() >= data.shape[a]):
            raise _err("an index is out of range for data", argument="index", rule="range")
        old = np.take_along_axis(data, expanded, axis=a)
        return CallCase(sc.case(op, data, expanded, _combine(r.canonical, old, flat_updates), axis=a,
                                reduction=_spelling(op, "none")), data.shape,
                        note="the ScatterElements (reduction none) writing back x[:, idx] combined with v",
                        values=flat_updates)
    axis = sc.codec_with_role(spec, "axis")  # the version's axis attribute, if it has one, takes the call's
    if axis is not None and axis.name in attrs:
        attrs[axis.name] = a
    return CallCase(sc.case(op, data, expanded, flat_updates, **attrs), data.shape,
                    note=f"indices: the index expanded to updates' shape along axis {a}", values=unscaled)


CASES = {f.__name__: f for f in (_elements_case, _slice_case, _mask_case, _where_case, _flat_case, _nd_case,
                                  _axis_case)}


def _spelling(op: str, canonical: str) -> str:
    return sc.get_spec(op).spelling_of(canonical)


# ----------------------------------------------------------------------------- running the framework's own call
# the frameworks the call runs in, by their records (framework_map.records.FRAMEWORK_RECORDS)
MODULE_OF = {f.name: f.module for f in FRAMEWORK_RECORDS.values() if f.module}
DISTRIBUTIONS_OF = {f.name: f.distributions for f in FRAMEWORK_RECORDS.values() if f.module}


def framework_inputs(tr: Translation, tensors: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The tensors the framework's call takes, by variable name (index tensors as int64, a bool one as it is: the
    framework reads it as a mask; a shape as int64)."""
    out = {}
    for s in tensor_slots(tr):
        arr = _get(tensors, s.name)
        out[s.name] = arr.astype(np.int64) if s.role in ("indices", "shape") and arr.dtype != np.bool_ else arr
    return out


def runs_in(tr: Translation) -> tuple[str, ...]:
    """The frameworks that can run the call as written: its own, and NumPy for an index assignment (x[i] = v,
    x[idx] += v mean the same in NumPy, records.py says so)."""
    also = FRAMEWORK_RECORDS[tr.framework].assignment_also_runs_in
    return (tr.framework, *also) if tr.function.startswith(("advanced", "augmented")) else (tr.framework,)


def framework_code(tr: Translation, framework: str | None = None) -> str:
    """Python running the call in its framework on variables named after the slots; leaves the result in ``out``.

    Built from the parsed call (fixed names, literal values we read), never from the user's text. ``framework``
    "NumPy" runs an index assignment in NumPy (see :func:`runs_in`)."""
    fw = framework or tr.framework
    if fw not in runs_in(tr):
        raise _err(f"{tr.function} does not run in {fw}", argument="framework", rule="framework")
    record = FRAMEWORK_RECORDS[fw]
    convert = "\n".join(f"{s.name} = {record.tensor_code.format(s.name)}" for s in tensor_slots(tr)
                        if not (record.shape_code and s.role == "shape"))
    shape_fix = record.shape_code if any(s.role == "shape" for s in tr.slots) else ""
    call = tr.call.replace("data.clone()", "data.copy()") if fw != tr.framework else tr.call
    return "\n".join(x for x in (record.import_line, "import numpy as np", convert, shape_fix, call,
                                 "out = np.asarray(out)") if x) + "\n"


def framework_script(tr: Translation, framework: str | None = None) -> str:
    """A script running the call in a child process: it reads ``inputs.npz`` (no pickles) in its working directory,
    runs :func:`framework_code` and writes ``output.npz`` and ``result.json`` (ok, error, version)."""
    fw = framework or tr.framework
    body = "\n".join("    " + line for line in framework_code(tr, framework).strip().splitlines())
    return (
        "import json\n"
        "from importlib.metadata import PackageNotFoundError, version\n\n"
        "import numpy as np\n\n"
        "with np.load(\"inputs.npz\", allow_pickle=False) as npz:\n"
        "    globals().update({name: npz[name] for name in npz.files})\n"
        f"answer = {{\"ok\": False, \"error\": None, \"version\": None}}\n"
        f"for dist in {DISTRIBUTIONS_OF[fw]!r}:\n"
        "    try:\n"
        "        answer[\"version\"] = f\"{dist} {version(dist)}\"\n"
        "        break\n"
        "    except PackageNotFoundError:\n"
        "        continue\n"
        "try:\n"
        f"{body}\n"
        "    np.savez(\"output.npz\", output=np.asarray(out))\n"
        "    answer[\"ok\"] = True\n"
        "except Exception as exc:  # the framework's own error is the answer\n"
        "    answer[\"error\"] = f\"{type(exc).__name__}: {str(exc).strip()[:600]}\"\n"
        "with open(\"result.json\", \"w\", encoding=\"utf-8\") as f:\n"
        "    json.dump(answer, f)\n"
    )


def agrees(cc: CallCase, got: np.ndarray, canonical: str) -> str:
    """"exact", "other-winner" (replacement with duplicates: another written value won) or a failure message."""
    want = cc.output()
    got = np.asarray(got)
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if np.array_equal(got.astype(want.dtype), want, equal_nan=want.dtype.kind == "f"):
        return "exact"
    if canonical == "none":
        t = cc.case.trace()
        written: dict[int, set] = {}
        flat_updates = cc.case.updates.reshape(-1)
        for i in range(len(t)):
            for tgt, src in zip(t.plan.targets[i], t.plan.sources[i]):
                written.setdefault(int(tgt), set()).add(flat_updates[src].item())
        bad = [c for c, (g, w) in enumerate(zip(got.reshape(-1), want.reshape(-1)))
               if g != w and g.item() not in written.get(c, ())]
        if not bad:
            return "other-winner"
    return f"got {got.tolist()} want {want.tolist()}"


# ----------------------------------------------------------------------------- example tensors (shapes, random cases)
COMPARING = ("min", "max")  # reductions that leave a cell as it was where the value written loses
MAX_DRAWS = 20


def example_tensors(tr: Translation, rng: np.random.Generator, dtype="float32",
                    shape: tuple[int, ...] | None = None) -> dict[str, np.ndarray]:
    """Valid tensors for the call's slots, drawn to repeat indices often (and negative ones where the framework
    takes them); ``shape`` fixes data's shape. Values are small integers, so sums and products are exact.
    For min and max, drawn again (a bounded number of times) until some cell changes: an example whose
    output equals data shows nothing. An ambiguous translation draws for its first reading (the open names as
    integer indices): give a bool tensor to draw a mask."""
    if tr.readings:
        tr = tr.readings[0]
    tensors = _example(tr, rng, dtype, shape)
    data_slot = next((s for s in tr.slots if s.role == "data"), None)
    if tr.reading.canonical not in COMPARING or data_slot is None:
        return tensors
    for _ in range(MAX_DRAWS):
        try:
            if not np.array_equal(case_for(tr, tensors).output(), tensors[data_slot.name]):
                return tensors
        except sc.ScatterError:
            return tensors  # the caller shows the case's own message
        tensors = _example(tr, rng, dtype, shape)
    return tensors


def _example(tr: Translation, rng: np.random.Generator, dtype, shape) -> dict[str, np.ndarray]:
    r = tr.reading
    neg = tr.negatives

    def idx(n, size):
        lo = -n if neg else 0
        return rng.integers(lo, max(n, 1), size=size).astype(np.int64)

    def vals(size):
        return rng.integers(-3, 4, size=size).astype(dtype)

    need = 1
    if r.axis is not None:
        need = max(need, r.axis + 1 if r.axis >= 0 else -r.axis)
    if r.parts and r.parts[0][0] != "tuple":  # one index (or integer) per leading axis
        need = max(need, len(r.parts))
    if r.axis is None:  # a slice over leading axes
        need = max(need, len(r.slices))
    if shape is None:
        rank = int(rng.integers(need, max(need, 3) + 1))
        dims = [int(v) for v in rng.integers(1, 5, size=rank)]
        for j, part in enumerate(r.parts):  # an integer index needs room on its axis
            if part[0] == "const":
                dims[j] = max(dims[j], part[1] + 1 if part[1] >= 0 else -part[1])
        for j, s in enumerate(r.slices if r.axis is None else ()):
            if s is not None and s[3]:
                dims[j] = max(dims[j], s[0] + 1 if s[0] >= 0 else -s[0])
        if r.slices and r.axis is not None and r.slices[0][3]:  # select_scatter's index
            i = r.slices[0][0]
            dims[r.axis] = max(dims[r.axis], i + 1 if i >= 0 else -i)
        shape = tuple(dims)
    shape = tuple(int(n) for n in shape)
    data = vals(shape)
    out: dict[str, np.ndarray] = {}
    slots = {s.role: s for s in tr.slots}
    data_slot = slots.get("data")
    if data_slot is not None:
        out[data_slot.name] = data
    else:  # tf.scatter_nd: the shape
        out["shape"] = np.asarray(shape, dtype=np.int64)
    upd = slots.get("updates")

    def put_updates(target_shape):
        if upd is not None and upd.scalar is None:
            out[upd.name] = vals(target_shape)

    DRAWERS[r.form.draw](tr, rng, shape, slots, out, idx, vals, put_updates)  # the form record names its drawer
    return out


def _draw_elements(tr, rng, shape, slots, out, idx, vals, put_updates) -> None:
    r, rank = tr.reading, len(shape)
    a = r.axis % rank
    fw = FRAMEWORK_RECORDS[tr.framework]
    if fw.elements_indices_broadcast:  # put_along_axis: the other axes are data's or 1 (broadcast)
        ishape = tuple(int(rng.choice([1, n])) if d != a else int(rng.integers(1, 6)) for d, n in enumerate(shape))
    else:
        ishape = tuple(int(rng.integers(1, n + 1)) if d != a else int(rng.integers(1, 6))
                       for d, n in enumerate(shape))
    out[slots["indices"].name] = idx(shape[a], ishape)
    grow = fw.src_front_read and rng.random() < 0.3  # PyTorch reads the front of a larger src
    put_updates(tuple(n + int(grow) for n in ishape))


def _draw_nd(tr, rng, shape, slots, out, idx, vals, put_updates) -> None:
    r, rank = tr.reading, len(shape)
    batch = tuple(int(v) for v in rng.integers(1, 4, size=int(rng.integers(1, 3))))
    if r.parts[0][0] == "tuple":
        k = int(rng.integers(1, rank + 1))
        out[r.parts[0][1]] = np.stack([idx(shape[j], batch) for j in range(k)], axis=-1)
    else:
        k = len(r.parts)
        for j, part in enumerate(r.parts):
            if part[0] == "slot":
                out[part[1]] = idx(shape[j], batch)
    put_updates(batch + shape[k:])


def _draw_axis(tr, rng, shape, slots, out, idx, vals, put_updates) -> None:
    r, rank = tr.reading, len(shape)
    a = r.axis % rank
    one_d = FRAMEWORK_RECORDS[tr.framework].axis_index_1d and not tr.function.startswith(("advanced", "augmented"))
    ishape = (int(rng.integers(1, 6)),) if one_d else tuple(
        int(v) for v in rng.integers(1, 4, size=int(rng.integers(1, 3))))
    out[r.parts[0][1]] = idx(shape[a], ishape)
    put_updates(shape[:a] + ishape + shape[a + 1:])


def _draw_slice(tr, rng, shape, slots, out, idx, vals, put_updates) -> None:
    spans, full = _slice_shape(tr, np.zeros(shape))
    squeezed = tuple(n for d, n in enumerate(full) if not any(sp[4] and sp[0] % len(shape) == d for sp in spans))
    put_updates(squeezed)


def _mask_of(rng, shape) -> np.ndarray:
    """A random mask, all False or all True now and then (a write of nothing, a write of everything)."""
    pick = rng.random()
    return np.zeros(shape, bool) if pick < 0.15 else np.ones(shape, bool) if pick < 0.3 else rng.random(shape) < 0.5


def _draw_mask(tr, rng, shape, slots, out, idx, vals, put_updates) -> None:
    r, rank = tr.reading, len(shape)
    upd = slots.get("updates")
    masks = [s for s in tr.slots if s.role == "mask"]
    if r.broadcast_mask:  # masked_scatter: the mask broadcasts from the right; source as large as data
        k = int(rng.integers(1, rank + 1))
        out[masks[0].name] = _mask_of(rng, tuple(int(rng.choice([1, n])) for n in shape[rank - k:]))
        put_updates(shape)
        return
    if r.form is MASK_AXIS:
        a = r.axis % rank
        out[masks[0].name] = m = _mask_of(rng, (shape[a],))
        target, each = shape[:a] + (int(m.sum()),) + shape[a + 1:], None
    elif len(r.parts) == 1:
        d = int(rng.integers(1, rank + 1))
        out[masks[0].name] = m = _mask_of(rng, shape[:d])
        target, each = (int(m.sum()),) + shape[d:], shape[d:]
    else:  # x[i, m], x[i, :, m]: 1-D masks with one count of True cells, integer indices broadcasting against it
        axes, at = [], 0  # each part's first axis (... stands for the axes the other parts leave)
        for kind, _ in r.parts:
            axes.append(at)
            at += rank - len(r.parts) + 1 if kind == "ellipsis" else 1
        n = int(rng.integers(0, min(shape[axes[j]] for j, p in enumerate(r.parts) if p[0] == "mask") + 1))
        index = []
        for j, (kind, name) in enumerate(r.parts):
            if kind == "mask":
                m = np.zeros(shape[axes[j]], bool)
                m[rng.choice(shape[axes[j]], size=n, replace=False)] = True
                out[name] = m
            elif kind == "slot":
                out[name] = idx(shape[axes[j]], (int(rng.choice([1, n])) if n else 1,))
            index.append(out[name] if kind in ("mask", "slot") else slice(None) if kind == "colon" else
                         Ellipsis if kind == "ellipsis" else name)
        cells = np.empty(shape, bool)
        if "const" not in advanced_kinds(tr):  # PyTorch: the integers select first
            cells = cells[tuple(name if kind == "const" else ... if kind == "ellipsis" else slice(None)
                                for kind, name in r.parts)]
            index = [i for i, (kind, _) in zip(index, r.parts) if kind != "const"]
        target = cells[tuple(index)].shape  # NumPy's own rules place the written cells' axes
        whole = any(kind in ("colon", "ellipsis") for kind, _ in r.parts)
        each = target[int(rng.integers(1, len(target) + 1)):] if whole else shape[len(r.parts):]
    if upd is not None and upd.scalar is None:
        pick = rng.random()
        out[upd.name] = vals(each if each is not None and pick < 0.3 else (1,) if pick < 0.45 else target)


def _draw_where(tr, rng, shape, slots, out, idx, vals, put_updates) -> None:
    r, rank = tr.reading, len(shape)
    mask, upd, data = (next(s for s in tr.slots if s.role == role) for role in ("mask", "updates", "data"))

    def broadcastable():  # the output's shape, or a shape that broadcasts to it
        k = int(rng.integers(0, rank + 1))
        return tuple(int(rng.choice([1, n])) for n in shape[rank - k:])

    out[mask.name] = _mask_of(rng, shape if r.cyclic or data.scalar is not None else broadcastable())
    if upd.scalar is None:
        out[upd.name] = (vals((int(rng.integers(1, int(np.prod(shape)) + 3)),)) if r.cyclic else
                         vals(()) if upd.param == "value" else vals(shape) if data.scalar is not None else
                         vals(broadcastable()))


def _draw_flat(tr, rng, shape, slots, out, idx, vals, put_updates) -> None:
    size = int(np.prod(shape))
    n = int(rng.integers(1, 7))
    wide = 3 * size if tr.reading.wrap in ("wrap", "clip") else size
    out["ind"] = rng.integers(-wide, max(wide, 1), size=n).astype(np.int64)
    put_updates((int(rng.integers(1, n + 1)),))


DRAWERS = {f.__name__: f for f in (_draw_elements, _draw_nd, _draw_axis, _draw_slice, _draw_mask, _draw_where,
                                    _draw_flat)}
