"""The performance layer, apart from the readable path.

A reader follows registry → family → plan → trace (``scatter_core/registry.py``,
``families.py``, one planner module per family, ``tracing.py``) without these. They make a
planned :class:`~scatter_core.Case` run fast, and change no result:

* ``kernel``: writes a planned case's result into an output array (``Case.run``, ``trace()``);
* ``segmented``: groups a plan's writes by target cell (sorts, counts, running reductions);
* ``copying``: the copy of data into the output, shared among the cores;
* ``buffers``: a small pool that lets a new large result reuse the memory of a freed one.

Only ``scatter_core`` imports them; the public API offers ``scatter_core.release_buffers()``.
"""
