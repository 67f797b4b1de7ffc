"""scatter_core/attrs.py: attribute values checked by their record's kind alone."""

import numpy as np
import pytest

from scatter_core import OPERATORS, ScatterError
from scatter_core.attrs import KINDS, MAX_LIST, resolve
from scatter_core.spec import AttrSpec

SPEC = OPERATORS["TensorScatter-24"]  # any record: only its name appears in the messages
MODE = AttrSpec("mode", "str", default="linear", choices=("linear", "circular"))
LIST = AttrSpec("start", "ints", required=True)
OPTIONAL_LIST = AttrSpec("axes", "ints", default=None)
COUNT = AttrSpec("count", "int", default=3)
FLAG = AttrSpec("flag", "bool", default=True)


def test_every_kind_a_record_uses_has_a_checker():
    kinds = {a.kind for spec in OPERATORS.values() for a in spec.attributes}
    assert kinds <= set(KINDS)


@pytest.mark.parametrize("attr,given,want", [
    (MODE, {}, "linear"), (MODE, {"mode": "circular"}, "circular"),
    (LIST, {"start": [0, -2]}, (0, -2)), (LIST, {"start": (1,)}, (1,)), (LIST, {"start": np.array([4], np.int8)}, (4,)),
    (LIST, {"start": []}, ()), (OPTIONAL_LIST, {}, None),
    (COUNT, {}, 3), (COUNT, {"count": np.int16(-1)}, -1), (COUNT, {"count": np.array([5])}, 5),
    (FLAG, {"flag": 0}, False), (FLAG, {"flag": np.bool_(True)}, True),
])
def test_values_resolve_to_plain_python(attr, given, want):
    got = resolve(SPEC, attr, given)
    assert got == want and type(got) is type(want)


@pytest.mark.parametrize("attr,value,rule,words", [
    (MODE, "CIRCULAR", "choice", "allowed: 'linear', 'circular' (spellings are lower case: did you mean 'circular'?)"),
    (MODE, 1, "choice", "mode = 1 is not allowed"),
    (LIST, None, "required", "start is a required attribute"),
    (LIST, 3, "ints", "a list of integers"),
    (LIST, [1, True], "ints", "start[1] = True must be an integer"),
    (LIST, np.zeros((1, 1), np.int64), "ints", "1-D integer tensor"),
    (LIST, np.array([1.0]), "ints", "1-D integer tensor"),
    (LIST, list(range(MAX_LIST + 1)), "ints", f"takes at most {MAX_LIST}"),
    (LIST, [-(2 ** 63) - 1], "ints", "does not fit in int64"),
    (COUNT, 1.5, "int", "one integer"), (COUNT, True, "int", "one integer"),
    (FLAG, 2, "bool", "true or false"),
])
def test_bad_values_name_the_attribute_and_the_rule(attr, value, rule, words):
    with pytest.raises(ScatterError) as info:
        resolve(SPEC, attr, {attr.name: value})
    assert info.value.argument == attr.name and info.value.rule == rule
    assert words in str(info.value)
