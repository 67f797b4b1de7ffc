"""scatter_ui.figures.history: the cell values the figures show equal the trace's state_at."""

import numpy as np
from hypothesis import given, settings

import scatter_core as sc
from scatter_core import trace
from scatter_ui.figures.history import CellHistory
from tests.support.strategies import cases
from tests.support.profiles import examples


@settings(max_examples=examples(150), deadline=None)
@given(cases())
def test_cell_history_matches_state_at(case):
    op, data, indices, updates, attrs = case
    t = trace(sc.case(op, data, indices, updates, **attrs))
    h = CellHistory(t)
    cells = np.arange(t.data.size)
    for k in range(len(t) + 1):
        values, counts = h.at(cells, k)
        assert values.tobytes() == t.state_at(k).reshape(-1).tobytes()
        written = np.zeros(t.data.size, dtype=np.int64)
        np.add.at(written, t.plan.targets[:k].reshape(-1), 1)
        assert counts.tolist() == written.tolist()


def test_gap_cells_are_ignored():
    t = trace(sc.case("ScatterND-18", [1, 2, 3], [[1]], [9]))
    values, counts = CellHistory(t).at(np.array([[-1, 1]]), 1)
    assert values.tolist() == [[1, 9]] and counts.tolist() == [[0, 1]]
