"""A model's inputs from what an engineer already has, every read bounded before it allocates.

Read: an ``.npz`` (one array per input name), an ``.npy`` (one input), the ONNX model zoo's
``test_data_set_N/input_K.pb`` TensorProtos (a zip of the folder, the ``.pb`` files themselves, or, in the API,
the folder's path) and typed values (:func:`typed_input`). Before any array is made, the sizes its header
declares are checked: an array over the capture budget (:func:`scatter_models.max_capture_bytes`), a header
declaring more data than the file holds, a zip member that unpacks past the budget or at a ratio deflate cannot
reach (a zip bomb), a member whose path leaves the zip (``../``, absolute), an object dtype or pickled objects (never
unpickled), a ``.pb`` that is not a tensor, a tensor stored as external data (never followed) and an input that
names no model input are each refused with a :class:`ModelError` naming the file, the input and the rule.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path, PurePosixPath

import numpy as np

from .errors import ModelError
from .limits import max_capture_bytes

MAX_INPUT_FILE = 256 * 2**20  # bytes of one uploaded inputs file
MAX_MEMBERS = 4096  # members of one zip
MAX_RATIO = 1100  # unpacked / packed: deflate cannot pass about 1032; more is a lying header or a bomb
RATIO_FLOOR = 2**20  # members unpacking to less than this are never called bombs
HEADER_BYTES = 2**16  # an .npy header is read from at most this many leading bytes (numpy allows 10,000)
CHUNK = 2**20
READ_KINDS = "biufc"  # bool, integers, floats, complex
PB_NAME = re.compile(r"^input_(\d+)\.pb$")
SET_NAME = re.compile(r"^test_data_set_\d+$")


def _refuse(where: str, text: str, rule: str, argument: str = "inputs") -> ModelError:
    return ModelError(f"{where}: {text}", argument=argument, rule=rule)


def _budget_text(budget: int) -> str:
    return f"the capture budget of {budget:,} bytes (SCATTER_MODELS_MAX_CAPTURE_BYTES)"


def _check_dtype(where: str, dtype: np.dtype) -> None:
    if dtype.hasobject:
        raise _refuse(where, f"holds Python objects (dtype {dtype}); pickled objects are never unpickled: save "
                             "plain bool, integer or float arrays (np.savez, allow_pickle=False)", "object-dtype")
    if dtype.kind not in READ_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise _refuse(where, f"has dtype {dtype}; inputs are bool, integer, float or complex arrays", "dtype")


def _declared_bytes(where: str, shape, itemsize: int, budget: int) -> tuple[int, int]:
    count = 1
    for d in shape:
        count *= int(d)
    nbytes = count * itemsize
    if nbytes > budget:
        shown = "×".join(str(int(d)) for d in shape) or "scalar"
        raise _refuse(where, f"declares shape {shown} ({count:,} elements, {nbytes:,} bytes), over "
                             f"{_budget_text(budget)}; it is not read", "array-bytes")
    return count, nbytes


def _fill(prefix: bytes, stream, nbytes: int) -> bytearray:
    """``nbytes``: ``prefix``'s, then the rest from ``stream``, in one buffer allocated once (``nbytes`` is checked
    against the budget first); shorter when the stream ends early."""
    buf = bytearray(nbytes)
    got = min(len(prefix), nbytes)
    buf[:got] = prefix[:got]
    with memoryview(buf) as view:
        while got < nbytes:
            chunk = stream.read(min(CHUNK, nbytes - got))
            if not chunk:
                break
            view[got:got + len(chunk)] = chunk
            got += len(chunk)
    return buf if got == nbytes else buf[:got]


def read_npy(where: str, stream, size: int, budget: int | None = None) -> np.ndarray:
    """The array of an ``.npy`` of ``size`` bytes in ``stream``: its header is read and checked (dtype, declared
    bytes against ``budget`` and against the bytes the file holds) before the data is."""
    from numpy.lib import format as npformat

    budget = max_capture_bytes() if budget is None else budget
    head = io.BytesIO(stream.read(min(size, HEADER_BYTES)))
    try:
        version = npformat.read_magic(head)
        if version == (1, 0):
            shape, fortran, dtype = npformat.read_array_header_1_0(head)
        elif version == (2, 0):
            shape, fortran, dtype = npformat.read_array_header_2_0(head)
        else:
            raise ValueError(f"format version {version[0]}.{version[1]} is not read (1.0 and 2.0 are)")
    except Exception as exc:  # noqa: BLE001 - a bad magic, header or dtype: one message
        raise _refuse(where, f"is not a NumPy .npy array ({type(exc).__name__}: {str(exc)[:200]})",
                      "not-npy") from None
    dtype = np.dtype(dtype)
    _check_dtype(where, dtype)
    count, nbytes = _declared_bytes(where, shape, dtype.itemsize, budget)
    held = size - head.tell()
    if held < nbytes:
        raise _refuse(where, f"declares {count:,} elements of {dtype} ({nbytes:,} bytes) but holds {max(held, 0):,} "
                             "bytes of data (truncated, or a header that lies)", "truncated")
    body = _fill(head.read(), stream, nbytes)
    if len(body) < nbytes:
        raise _refuse(where, f"ends after {len(body):,} of its {nbytes:,} bytes of data", "truncated")
    arr = np.frombuffer(body, dtype=dtype, count=count)
    return arr.reshape(shape, order="F" if fortran else "C")


# -- ONNX TensorProto (.pb) ------------------------------------------------------------------------------------

_TYPED_FIELD = {  # TensorProto data_type -> the typed field holding its values when raw_data is not used
    1: "float_data", 2: "int32_data", 3: "int32_data", 4: "int32_data", 5: "int32_data", 6: "int32_data",
    7: "int64_data", 9: "int32_data", 10: "int32_data", 11: "double_data", 12: "uint64_data", 13: "uint64_data",
    14: "float_data", 15: "double_data",
}


def read_tensor_pb(where: str, data: bytes, budget: int | None = None) -> tuple[str, np.ndarray]:
    """(the tensor's name, its array) from the bytes of a serialized ``TensorProto``: refused when it is not a
    tensor, is stored as external data (never followed), or declares more elements than the budget or its data."""
    import onnx

    budget = max_capture_bytes() if budget is None else budget
    tensor = onnx.TensorProto()
    try:
        tensor.ParseFromString(bytes(data))
    except Exception as exc:  # noqa: BLE001 - DecodeError and friends
        raise _refuse(where, f"is not an ONNX TensorProto: the protobuf does not parse ({type(exc).__name__})",
                      "not-tensor") from None
    if not data:
        raise _refuse(where, "is empty (0 bytes): not an ONNX TensorProto", "not-tensor")
    if _has_unknown_fields(tensor) or not tensor.HasField("data_type") or tensor.data_type not in _TYPED_FIELD:
        kind = onnx.TensorProto.DataType.Name(tensor.data_type) if tensor.data_type in \
            onnx.TensorProto.DataType.values() else str(tensor.data_type)
        why = ("fields a tensor does not have" if _has_unknown_fields(tensor) else "no element type"
               if not tensor.HasField("data_type") else f"element type {kind}, which is not read (bool, integer "
                                                         "and float tensors are)")
        raise _refuse(where, f"is not an ONNX tensor input_K.pb can hold ({why})", "not-tensor")
    if tensor.data_location == onnx.TensorProto.EXTERNAL or len(tensor.external_data):
        place = next((e.value for e in tensor.external_data if e.key == "location"), "?")
        raise _refuse(where, f"stores its values as external data ({place!r}); paths named inside a file are never "
                             "followed: save the tensor with its values inside", "external-data")
    if tensor.HasField("segment"):
        raise _refuse(where, "is a segment of a tensor; segmented tensors are not read", "not-tensor")
    dtype = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type))
    _check_dtype(where, dtype)
    if any(d < 0 for d in tensor.dims):
        raise _refuse(where, f"declares negative dims {list(tensor.dims)}", "not-tensor")
    count, nbytes = _declared_bytes(where, tensor.dims, dtype.itemsize, budget)
    if tensor.HasField("raw_data"):
        held = len(tensor.raw_data)
        if held != nbytes:
            raise _refuse(where, f"declares {count:,} elements of {dtype} ({nbytes:,} bytes) but its raw data holds "
                                 f"{held:,} bytes", "truncated")
    else:
        held = len(getattr(tensor, _TYPED_FIELD[tensor.data_type]))
        if tensor.data_type in (14, 15):  # complex: two numbers an element
            held //= 2
        if held != count:
            raise _refuse(where, f"declares {count:,} elements of {dtype} but holds {held:,} values", "truncated")
    from onnx import numpy_helper

    return tensor.name, np.asarray(numpy_helper.to_array(tensor))


def _has_unknown_fields(message) -> bool:
    """True when a parsed protobuf kept fields its type does not define (bytes of another message parse too)."""
    from google.protobuf import unknown_fields

    return len(unknown_fields.UnknownFieldSet(message)) > 0


# -- zips: the members' declared sizes and paths are checked before any is unpacked -----------------------------

def _outside(name: str) -> bool:
    """True when a member's path leaves the zip: absolute, a drive, or a ``..`` step."""
    flat = name.replace("\\", "/")
    return flat.startswith("/") or bool(re.match(r"^[A-Za-z]:", flat)) or ".." in PurePosixPath(flat).parts


def _skipped(name: str) -> bool:
    """macOS's resource forks (``__MACOSX/``, ``._x``) and folders: never inputs."""
    base = name.rsplit("/", 1)[-1]
    return name.endswith("/") or name.startswith("__MACOSX/") or base.startswith("._")


def _zip_members(where: str, data: bytes, budget: int) -> tuple[zipfile.ZipFile, list]:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
        raise _refuse(where, f"is not a readable zip ({type(exc).__name__}: {str(exc)[:200]})", "not-zip") from None
    if len(infos) > MAX_MEMBERS:
        raise _refuse(where, f"holds {len(infos):,} members, over the {MAX_MEMBERS:,} read", "zip-members")
    for info in infos:
        if _outside(info.filename):
            raise _refuse(where, f"member {info.filename!r} has a path outside the zip (absolute, or with ..); "
                                 "nothing in the zip is read", "zip-path")
    total, kept = 0, []
    for info in infos:
        if _skipped(info.filename):
            continue
        member = f"{where}, member {info.filename!r}"
        if info.flag_bits & 0x1:
            raise _refuse(member, "is encrypted; inputs are read from plain zips", "zip-encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise _refuse(member, f"uses compression method {info.compress_type}; only stored and deflated members "
                                  "are read (what np.savez and np.savez_compressed write)", "zip-compression")
        packed = max(info.compress_size, 1)
        if info.file_size > RATIO_FLOOR and info.file_size / packed > MAX_RATIO:
            ratio = info.file_size / packed
            raise _refuse(member, f"unpacks {packed:,} bytes to {info.file_size:,} (ratio {ratio:,.0f}, over the "
                                  f"{MAX_RATIO:,} deflate can reach): a zip bomb; nothing is unpacked",
                          "zip-bomb")
        if info.file_size > budget + HEADER_BYTES:
            raise _refuse(member, f"unpacks to {info.file_size:,} bytes, over {_budget_text(budget)}; nothing is "
                                  "unpacked", "unpacked-size")
        total += info.file_size
        if total > budget + HEADER_BYTES:
            raise _refuse(where, f"unpacks to more than {total:,} bytes in all, over {_budget_text(budget)}; "
                                 "nothing is unpacked", "unpacked-size")
        kept.append(info)
    return zf, kept


def _member_bytes(zf, info, where: str) -> bytes:
    try:
        with zf.open(info) as f:
            out = f.read(info.file_size + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, RuntimeError) as exc:
        raise _refuse(where, f"cannot be unpacked ({type(exc).__name__}: {str(exc)[:200]})", "not-zip") from None
    if len(out) > info.file_size:
        raise _refuse(where, "unpacks past its declared size", "zip-bomb")
    return out


def _member_npy(zf, info, where: str, budget: int) -> np.ndarray:
    try:
        with zf.open(info) as f:
            return read_npy(where, f, info.file_size, budget)
    except ModelError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, RuntimeError) as exc:  # a bad CRC, a cut stream
        raise _refuse(where, f"cannot be unpacked ({type(exc).__name__}: {str(exc)[:200]})", "not-zip") from None


# -- naming: which model input each array is ----------------------------------------------------------------------

class _Named:
    """Arrays by model input, with the file each came from (for messages) and the bytes left in the budget."""

    def __init__(self, model, budget: int):
        self.model = model
        self.names = [i.name for i in model.inputs]
        self.left = budget
        self.arrays: dict[str, np.ndarray] = {}
        self.sources: dict[str, str] = {}

    def add(self, name: str, arr: np.ndarray, where: str) -> None:
        if name not in self.names:
            raise ModelError(f"{where} gives input {name!r}, which {self.model.where} does not have (its inputs: "
                             f"{', '.join(self.names) or 'none'})", argument=name, rule="unknown-input")
        if name in self.arrays:
            raise ModelError(f"input {name!r} is given twice: by {self.sources[name]} and by {where}",
                             argument=name, rule="given-twice")
        self.arrays[name] = arr
        self.sources[name] = where
        self.left -= arr.nbytes

    def pb(self, where: str, base: str, data: bytes) -> None:
        tensor_name, arr = read_tensor_pb(where, data, self.left)
        if tensor_name:
            name = tensor_name
        else:  # unnamed: input_K.pb is the model's K-th input
            k = int(PB_NAME.match(base).group(1)) if PB_NAME.match(base) else None
            if k is None or k >= len(self.names):
                raise ModelError(f"{where} holds an unnamed tensor and {self.model.where} has "
                                 f"{len(self.names)} input(s): an unnamed tensor is named by its file, input_K.pb "
                                 f"for the model's K-th input (from 0)", argument="inputs", rule="unknown-input")
            name = self.names[k]
        self.add(name, arr, where)


def _data_set_of(name: str) -> str | None:
    parts = name.replace("\\", "/").split("/")
    return next((p for p in parts[:-1] if SET_NAME.match(p)), None)


def _read_zip(named: _Named, where: str, data: bytes) -> None:
    zf, infos = _zip_members(where, data, named.left)
    with zf:
        sets = sorted({s for s in (_data_set_of(i.filename) for i in infos) if s})
        if len(sets) > 1:
            raise _refuse(where, f"holds {len(sets)} test data sets ({', '.join(sets)}); zip one "
                                 "test_data_set_N folder", "data-sets")
        used = 0
        for info in infos:
            base = info.filename.replace("\\", "/").rsplit("/", 1)[-1]
            member = f"{where}, member {info.filename!r}"
            if base.endswith(".npy"):
                named.add(info.filename[:-4], _member_npy(zf, info, member, named.left), member)
            elif PB_NAME.match(base) or (base.endswith(".pb") and not base.startswith("output_")):
                named.pb(member, base, _member_bytes(zf, info, member))
            else:
                continue  # output_K.pb (the expected outputs), a README ...: not inputs
            used += 1
        if not used:
            raise _refuse(where, "holds no input: a zip of inputs holds .npy arrays (an .npz) or a test_data_set_N "
                                 "folder's input_K.pb tensors", "no-inputs")


# -- the entry points -------------------------------------------------------------------------------------------

def _size_ok(where: str, size: int) -> None:
    if size > MAX_INPUT_FILE:
        raise _refuse(where, f"is {size:,} bytes, over {MAX_INPUT_FILE:,}", "size-limit")


def _read_one(named: _Named, file_name: str, data: bytes, n_files: int) -> None:
    where = f"input file {file_name!r}"
    _size_ok(where, len(data))
    base = file_name.replace("\\", "/").rsplit("/", 1)[-1]
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        _read_zip(named, where, data)
    elif data[:6] == b"\x93NUMPY":
        arr = read_npy(where, io.BytesIO(data), len(data), named.left)
        stem = base.rsplit(".", 1)[0]
        name = stem if stem in named.names else (named.names[0] if len(named.names) == 1 and n_files == 1 else None)
        if name is None:
            raise ModelError(f"{where} holds one array; name the file after an input "
                             f"({', '.join(named.names)}) or upload an .npz", argument="inputs", rule="unknown-input")
        named.add(name, arr, where)
    elif base.lower().endswith(".pb"):
        named.pb(where, base, data)
    else:
        raise _refuse(where, "is not an .npz, an .npy, a zip of a test_data_set_N folder or an input_K.pb tensor "
                             "(its first bytes say none of them)", "not-npy")


def read_inputs(files, model, budget: int | None = None) -> dict:
    """Input name -> array from ``files``, a list of (file name, bytes): ``.npz``, ``.npy``, ``input_K.pb``, or a zip
    of a ``test_data_set_N`` folder; all of them together bounded by the capture budget."""
    named = _Named(model, max_capture_bytes() if budget is None else budget)
    for file_name, data in files:
        _read_one(named, str(file_name), bytes(data), len(files))
    return named.arrays


def inputs_from_file(file_name: str, data: bytes, model) -> dict:
    """The input arrays in one uploaded file (see :func:`read_inputs`); a ModelError saying why not."""
    return read_inputs([(file_name, data)], model)


def inputs_from_path(path, model) -> dict:
    """The inputs in ``path``: a ``test_data_set_N`` folder of ``input_K.pb`` files (the ONNX model zoo's
    convention; its ``output_K.pb`` are not read), or an ``.npz``, ``.npy``, ``.pb`` or zip file."""
    path = Path(os.fspath(path))
    where = f"inputs path {str(path)!r}"
    if path.is_dir():
        sets = sorted(p.name for p in path.iterdir() if p.is_dir() and SET_NAME.match(p.name))
        files = sorted((p for p in path.iterdir() if p.is_file() and PB_NAME.match(p.name)),
                       key=lambda p: int(PB_NAME.match(p.name).group(1)))
        if not files:
            hint = f" (it holds {', '.join(sets)}: give one of them)" if sets else ""
            raise _refuse(where, f"is a folder with no input_K.pb file{hint}", "no-inputs")
        named = _Named(model, max_capture_bytes())
        for p in files:
            size = p.stat().st_size
            _size_ok(f"input file {p.name!r}", size)
            named.pb(f"{where}, file {p.name!r}", p.name, p.read_bytes())
        return named.arrays
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise _refuse(where, f"cannot be read: {exc.strerror or exc}", "unreadable") from None
    _size_ok(where, size)
    return read_inputs([(path.name, path.read_bytes())], model)


# -- dims: given inputs fix every symbolic dim they determine -----------------------------------------------------

def dims_from_inputs(model, inputs) -> dict[str, tuple[int, str, tuple]]:
    """Symbolic dim -> (its size, the input that fixes it, that input's shape), from the given inputs' shapes; a
    ModelError when two inputs give one dim two sizes."""
    out: dict[str, tuple[int, str, tuple]] = {}
    if not isinstance(inputs, dict):
        return out
    for inp in model.inputs:
        if inp.name not in inputs or inp.shape is None:
            continue
        shape = tuple(int(s) for s in np.shape(inputs[inp.name]))
        if len(shape) != len(inp.shape):
            continue  # the rank is checked, and named, with the input itself
        for d, s in zip(inp.shape, shape):
            if not isinstance(d, str):
                continue
            if d in out and out[d][0] != s:
                first, other = out[d], _shape_text(shape)
                raise ModelError(f"symbolic dim {d!r} is {first[0]} in input {first[1]!r} (shape "
                                 f"{_shape_text(first[2])}) but {s} in input {inp.name!r} (shape {other})",
                                 argument=inp.name, rule="dims")
            out.setdefault(d, (s, inp.name, shape))
    return out


def _shape_text(shape) -> str:
    return "×".join(str(d) for d in shape) if len(shape) else "scalar"


def given_dims(model, dims, inputs) -> dict:
    """The dims a capture runs with, before defaults: those the given inputs fix, and the ``dims`` set by hand;
    a ModelError naming both when a dim set by hand contradicts a given input."""
    fixed = dims_from_inputs(model, inputs)
    out = {d: v for d, (v, _, _) in fixed.items()}
    for d, v in dict(dims or {}).items():
        if d in fixed and not isinstance(v, bool) and isinstance(v, (int, np.integer)) and int(v) != fixed[d][0]:
            size, name, shape = fixed[d]
            raise ModelError(f"symbolic dim {d!r} is set to {int(v)}, but input {name!r} has shape "
                             f"{_shape_text(shape)}, which makes it {size}: clear the dim or give another input",
                             argument="dims", rule="dims-contradict")
        out[d] = v
    return out
