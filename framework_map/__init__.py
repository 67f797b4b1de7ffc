"""framework_map: how each ONNX / OpenVINO scatter configuration is written in PyTorch, TensorFlow, JAX and WebNN.

Pure data plus small functions (no streamlit); uses scatter_core's public API only.

* ``ENTRIES``: one :class:`Entry` per framework operation (records.py), each naming its
  divergences from the ONNX / OpenVINO texts on every topic of ``TOPICS``.
* ``configurations(op)``, ``by_framework(config)``: which records answer a configuration.
* ``run(entry, config, data, indices, updates, axis, attrs)``: execute a record where its framework
  is installed (the differential tests and scripts/verify_frameworks.py); ``takes_indices(config)``:
  whether the version has an indices input (SliceScatter has none).
* ``source_of(entry)``: the record's code, verbatim, for the exports.
* ``divergences(entry, config)``: the record's divergences in the chosen version's own terms.
* ``VERIFIED``: what scripts/verify_frameworks.py last recorded (verified.py).

The other way round, a framework call read as an operator, is the package above this one: :mod:`from_code`.
"""

from .maps import (Config, by_framework, call_kwargs, configurations, divergences, entries_for, faithful_for, run,
                   source_of, takes_indices)
from .records import BY_ID, CONVERT, ENTRIES, FRAMEWORK_RECORDS, FRAMEWORKS, KINDS, MODULES, TOPICS, Entry, Framework

__all__ = ["BY_ID", "CONVERT", "Config", "ENTRIES", "Entry", "FRAMEWORK_RECORDS", "FRAMEWORKS", "Framework", "KINDS",
           "MODULES", "TOPICS",
           "by_framework", "call_kwargs", "configurations", "divergences", "entries_for", "faithful_for",
           "run", "source_of", "takes_indices"]
