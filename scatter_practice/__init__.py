"""scatter_practice: exercises that ask a student to predict scatter writes, and feedback that names the mistake.

Pure (no streamlit, no plotly), built on scatter_core's public API and its diagnosis engine.

* ``make_exercise(seed, level, op=None)``: a deterministic :class:`Exercise` (levels in ``LEVELS``).
* ``grade_output(exercise, output)``, ``grade_step(exercise, k, target, value)``: :class:`Feedback`.
* ``MISCONCEPTIONS``: the catalogue (kind, title, explanation, the student's output, an example).
* ``exercise_set``, ``choices``, ``step_hints`` / ``output_hints``; ``TRIES`` checks before the answer is shown,
  ``retry_hint`` / ``output_retry_hint`` after a first wrong one (an answer after the reveal: ``after_reveal=True``).
* A class (``scatter_practice.classroom``, imported on its own: it needs SQLAlchemy and Alembic): ``open_store``.
* Worksheets: ``student_html`` / ``student_pdf`` and ``answer_key_html`` / ``answer_key_pdf``; ``set_link``
  builds a set's link from a public address (``public_address`` checks it).
"""

from .exercises import (
    LEVELS, MAX_CELLS, MAX_DRAWN, MAX_SET, MAX_STEPS, Exercise, drawn_cells, exercise_set, levels_for, make_exercise,
    set_seeds,
)
from .grading import TRIES, CellNote, Feedback, Named, grade_output, grade_step
from .misconceptions import BY_KIND, MISCONCEPTIONS, Misconception, student_outputs
from .tutor import Choice, choices, output_hints, output_retry_hint, retry_hint, step_hints, step_question
from .worksheet import (
    PUBLIC_URL_ENV, answer_key_html, answer_key_pdf, public_address, set_link, student_html, student_pdf, tensor_html,
    this_machine_only,
)

__all__ = [
    "BY_KIND", "CellNote", "Choice", "Exercise", "Feedback", "LEVELS", "MAX_CELLS", "MAX_DRAWN", "MAX_SET", "MAX_STEPS",
    "MISCONCEPTIONS", "drawn_cells", "Misconception", "Named", "choices", "exercise_set", "grade_output", "grade_step",
    "levels_for", "make_exercise", "output_hints", "output_retry_hint", "retry_hint", "TRIES", "set_seeds", "step_hints", "step_question", "student_outputs",
    "PUBLIC_URL_ENV", "answer_key_html", "answer_key_pdf", "public_address", "set_link", "student_html",
    "student_pdf", "tensor_html", "this_machine_only",
]
