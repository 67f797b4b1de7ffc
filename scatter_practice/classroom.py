"""A class: one Practice set worked by many students, every answer graded here and stored in a database.

``open_store(url=None)``: SQLite in a data directory by default (``$SCATTER_EXPLORER_DATA``, else the platform's
user data directory; WAL, shared by the replicas of ``scripts/serve-class.sh``), or the URL given or in
``$SCATTER_EXPLORER_DB`` (``postgresql://…``: psycopg 3). Alembic (``migrations/``) makes and upgrades the schema
on open, under a lock. A teacher ``start``s a class and gets a short code and a secret key (stored as its SHA-256,
compared with ``hmac.compare_digest``). Students ``join`` with a display name; ``answer`` and ``answer_step``
grade with scatter_practice's own grader and commit before returning. A question's first two tries are scored,
later ones stored unscored. ``summary`` is the teacher's counts, ``answers`` every answer (the CSV). Wrong codes
and keys are counted per client in the database (every replica sees them): after ``GUESS_LIMIT`` in
``GUESS_WINDOW_S`` the client is refused outright until the window passes. A class's data is deleted
``retention_days`` after it ends (or after its last activity, when never ended), or at once by ``delete``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import math
import os
import secrets
import sys
import threading
import time
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import numpy as np
import sqlalchemy as sa

import scatter_core as sc

from .exercises import MAX_SEED, MAX_SET, Exercise, make_exercise, set_seeds
from .grading import TRIES, Feedback, grade_output, grade_step

DB_ENV, DATA_ENV, RETENTION_ENV = "SCATTER_EXPLORER_DB", "SCATTER_EXPLORER_DATA", "SCATTER_EXPLORER_CLASS_DAYS"
RETENTION_DAYS = 30
DB_FILE = "classes.sqlite3"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a projector
CODE_LENGTH = 6  # 32**6 = 1.07e9 codes
MAX_NAME = 40
MAX_ANSWER_BYTES = 16_384  # an answer's text (a whole output of at most MAX_CELLS cells needs a few hundred)
SCORED_TRIES = TRIES  # a question's tries before Practice shows the answer are scored; the last replaces the first
GUESS_LIMIT, GUESS_WINDOW_S = 10, 600.0
MODES = MappingProxyType({"Step by step": ("step", "steps", "step by step"),
                          "Whole output": ("output", "whole", "whole output"),
                          "Multiple choice": ("choice", "mc", "multiple choice")})
RESULTS = ("right", "allowed", "wrong")
MIGRATIONS = Path(__file__).with_name("migrations")
_MIGRATED: set[str] = set()
_PURGED: dict[str, float] = {}  # URL -> when this process last deleted the classes whose time was up
PURGE_EVERY_S = 3600.0
_MIGRATE_LOCK = threading.Lock()


def forget_migrations() -> None:
    """Forget which databases this process brought to the schema's head: the next open checks again."""
    _MIGRATED.clear()


@dataclass(frozen=True)
class ClassInfo:
    code: str
    teacher_key: str
    level: int
    n: int
    seed: int
    mode: str

    @property
    def student_path(self) -> str:
        return f"/practice?class={self.code}"

    @property
    def teacher_path(self) -> str:
        return f"/class?code={self.code}&key={self.teacher_key}"


@dataclass(frozen=True)
class PublicClass:
    """What a student's page may know of a class (no key)."""

    code: str
    level: int
    n: int
    seed: int
    mode: str
    ended: float | None


@dataclass(frozen=True)
class ExerciseSummary:
    index: int  # 0-based
    right: int = 0
    wrong: int = 0
    allowed: int = 0
    in_progress: int = 0
    misconceptions: Mapping[str, int] = field(default_factory=dict)  # kind -> students whose answers named it

    @property
    def answered(self) -> int:
        return self.right + self.wrong + self.allowed


@dataclass(frozen=True)
class ClassSummary:
    code: str
    level: int
    n: int
    seed: int
    mode: str
    created: float
    ended: float | None
    students: tuple[str, ...]  # names, in joining order
    student_ids: tuple[str, ...]
    exercises: tuple[ExerciseSummary, ...]
    cells: Mapping[tuple[str, int], str]  # (student id, exercise) -> right, allowed, wrong, in progress
    last_answer: Mapping[str, float]  # student id -> time of the latest answer (or of joining)
    delete_at: float | None


@dataclass(frozen=True)
class StoredAnswer:
    at: float
    student: str  # the name
    exercise: int  # 0-based
    step: int | None
    try_no: int
    scored: bool
    answer: str
    result: str
    kinds: tuple[str, ...]


# -- where --------------------------------------------------------------------------------------------------------
def data_dir() -> Path:
    """``$SCATTER_EXPLORER_DATA``, else the platform's per-user data directory for scatter-explorer."""
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV]).expanduser()
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "scatter-explorer"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / "scatter-explorer"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "scatter-explorer"


def store_url(url: str | None = None) -> str:
    """The SQLAlchemy URL of the store: ``url``, else ``$SCATTER_EXPLORER_DB``, else the SQLite file in
    :func:`data_dir` (made if missing). ``postgresql://`` means psycopg 3. Other databases are refused."""
    url = url or os.environ.get(DB_ENV) or ""
    if not url:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / DB_FILE}"
    scheme = url.split(":", 1)[0].lower()
    if scheme in ("postgresql", "postgres"):
        return "postgresql+psycopg:" + url.split(":", 1)[1]
    if scheme in ("postgresql+psycopg", "sqlite", "sqlite+pysqlite"):
        return url
    raise sc.ScatterError(f"{DB_ENV} / url = {scheme}://…: the class store takes sqlite:///PATH or "
                          f"postgresql://USER@HOST/DB", argument="url", rule="database")


def engine_options(url: str) -> dict:
    """create_engine's keywords for ``url`` (also given to st.connection): SQLite waits up to 30 s for the
    other replicas' writes and lets the store issue BEGIN IMMEDIATE itself."""
    if url.startswith("sqlite"):
        return {"connect_args": {"timeout": 30, "isolation_level": None, "check_same_thread": False}}
    return {"pool_pre_ping": True}


def open_store(url: str | None = None, *, retention_days: float | None = None) -> "ClassStore":
    """The class store at ``url`` (None: ``$SCATTER_EXPLORER_DB`` or the embedded SQLite file), migrated."""
    url = store_url(url)
    return ClassStore(sa.create_engine(url, **engine_options(url)), retention_days=retention_days)


def retention() -> float:
    """Days a class's data is kept after it ends: ``$SCATTER_EXPLORER_CLASS_DAYS``, else 30."""
    text = os.environ.get(RETENTION_ENV, "").strip()
    if not text:
        return RETENTION_DAYS
    try:
        days = float(text)
    except ValueError:
        days = -1.0
    if not (math.isfinite(days) and days >= 0):
        raise sc.ScatterError(f"{RETENTION_ENV} = {text!r} must be a number of days >= 0",
                              argument=RETENTION_ENV, rule="retention")
    return days


# -- the tables (made by migrations/, described here for the queries) -------------------------------------------
META = sa.MetaData()
CLASSES = sa.Table("classes", META, sa.Column("code", sa.String), sa.Column("key_hash", sa.String),
                   sa.Column("level", sa.Integer), sa.Column("n", sa.Integer), sa.Column("seed", sa.BigInteger),
                   sa.Column("mode", sa.String), sa.Column("created", sa.Float), sa.Column("active", sa.Float),
                   sa.Column("ended", sa.Float))
STUDENTS = sa.Table("students", META, sa.Column("id", sa.String), sa.Column("code", sa.String),
                    sa.Column("name", sa.String), sa.Column("name_key", sa.String), sa.Column("joined", sa.Float))
ANSWERS = sa.Table("answers", META, sa.Column("id", sa.Integer), sa.Column("code", sa.String),
                   sa.Column("student", sa.String), sa.Column("exercise", sa.Integer), sa.Column("step", sa.Integer),
                   sa.Column("try_no", sa.Integer), sa.Column("scored", sa.Boolean), sa.Column("answer", sa.Text),
                   sa.Column("result", sa.String), sa.Column("kinds", sa.Text), sa.Column("at", sa.Float))
REFUSALS = sa.Table("refusals", META, sa.Column("id", sa.Integer), sa.Column("client", sa.String),
                    sa.Column("at", sa.Float))


def _on_begin(conn) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")  # SQLite: take the write lock first (no upgrade deadlock)


def migrate(engine: sa.Engine) -> None:
    """Bring the schema to Alembic's head, once per process and URL, under a lock shared by every replica
    (SQLite's write lock; a PostgreSQL advisory lock), so two replicas starting together migrate once."""
    from alembic import command
    from alembic.config import Config

    key = str(engine.url)
    with _MIGRATE_LOCK:
        if key in _MIGRATED:
            return
        if engine.dialect.name == "sqlite":
            raw = engine.raw_connection()  # WAL is a property of the file: set once, kept (outside a transaction)
            try:
                raw.driver_connection.execute("PRAGMA journal_mode=WAL")
            finally:
                raw.close()
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7223311)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        _MIGRATED.add(key)


def _fail(message: str, argument: str, rule: str):
    raise sc.ScatterError(message, argument=argument, rule=rule)


def canonical_mode(mode: str) -> str:
    """One of ``MODES``' names for ``mode`` (its name or a short spelling, any case)."""
    text = str(mode).strip().lower()
    for name, spellings in MODES.items():
        if text == name.lower() or text in spellings:
            return name
    _fail(f"mode = {str(mode)[:40]!r} is not a Practice mode ({', '.join(MODES)})", "mode", "mode")


def clean_name(name) -> str:
    """A display name: NFC, trimmed, 1..MAX_NAME characters, no control characters (kept as typed otherwise:
    pages show it as text)."""
    text = unicodedata.normalize("NFC", str(name)).strip()
    if not text:
        _fail("name is empty: type the name the teacher should see", "name", "name")
    if len(text) > MAX_NAME:
        _fail(f"name has {len(text)} characters; the limit is {MAX_NAME}", "name", "name")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text):
        _fail("name holds a control character; type letters, digits, spaces or punctuation", "name", "name")
    return text


def _hash(key: str) -> str:
    return hashlib.sha256(str(key).encode("utf-8", "replace")).hexdigest()


def _output_array(output) -> np.ndarray:
    """The student's output as an array, size-checked before anything is parsed (a 1 MB answer is refused)."""
    if isinstance(output, (str, bytes)):
        text = output.decode("utf-8", "replace") if isinstance(output, bytes) else output
        if len(text.encode("utf-8", "replace")) > MAX_ANSWER_BYTES:
            _fail(f"output: {len(text):,} characters; the limit is {MAX_ANSWER_BYTES:,} bytes", "output", "size")
        return sc.parse_tensor(text, name="output", max_elements=1024)
    try:
        arr = np.asarray(output)
    except (ValueError, TypeError) as exc:
        _fail(f"output could not be read as an array: {exc}", "output", "array")
    if arr.nbytes > MAX_ANSWER_BYTES or arr.size > 1024:
        _fail(f"output has {arr.size:,} cells ({arr.nbytes:,} bytes); the limit is {MAX_ANSWER_BYTES:,} bytes",
              "output", "size")
    return arr


def _result(fb: Feedback) -> str:
    return "right" if fb.correct else "allowed" if fb.conforms else "wrong"


# -- the store ------------------------------------------------------------------------------------------------------
class ClassStore:
    """Classes, students and their answers in one database (see the module docstring)."""

    def __init__(self, engine: sa.Engine, *, retention_days: float | None = None):
        self.engine = engine
        self.retention_days = retention() if retention_days is None else float(retention_days)
        if engine.dialect.name == "sqlite" and not sa.event.contains(engine, "begin", _on_begin):
            sa.event.listen(engine, "begin", _on_begin)
        migrate(engine)
        now = time.time()
        if now - _PURGED.get(str(engine.url), 0.0) > PURGE_EVERY_S:  # at most hourly, on any open
            _PURGED[str(engine.url)] = now
            self.purge(now)

    # the teacher
    def start(self, level: int, n: int, seed: int, mode: str) -> ClassInfo:
        """A new class on the set (``seed``, ``level``, ``n``) in ``mode``; the set is checked by making it."""
        mode = canonical_mode(mode)
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or not 1 <= int(level) <= 5:
            _fail(f"level = {level!r} must be one of 1, 2, 3, 4, 5", "level", "level")
        try:
            set_seeds(seed, n)
        except ValueError as exc:
            _fail(str(exc), "n" if str(exc).startswith("n ") else "seed", "set")
        key = secrets.token_urlsafe(24)
        now = time.time()
        self.purge(now)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.engine.begin() as c:
                    c.execute(CLASSES.insert().values(code=code, key_hash=_hash(key), level=int(level), n=int(n),
                                                      seed=int(seed), mode=mode, created=now, active=now))
                return ClassInfo(code, key, int(level), int(n), int(seed), mode)
            except sa.exc.IntegrityError:  # a code in use: draw again
                continue
        raise RuntimeError("no free class code in 20 draws")  # pragma: no cover

    def summary(self, code: str, teacher_key: str, *, client: str = "") -> ClassSummary:
        """Everything the teacher's view shows, read in one transaction."""
        with self._tx(client) as c:
            row = self._teacher(c, code, teacher_key, client)
            students = c.execute(sa.select(STUDENTS.c.id, STUDENTS.c.name, STUDENTS.c.joined)
                                 .where(STUDENTS.c.code == row.code).order_by(STUDENTS.c.joined, STUDENTS.c.id)).all()
            answers = c.execute(sa.select(ANSWERS.c.student, ANSWERS.c.exercise, ANSWERS.c.step, ANSWERS.c.try_no,
                                          ANSWERS.c.result, ANSWERS.c.kinds, ANSWERS.c.at)
                                .where(ANSWERS.c.code == row.code, ANSWERS.c.scored.is_(True))
                                .order_by(ANSWERS.c.id)).all()
        return _summarise(row, students, answers, self._delete_at(row))

    def answers(self, code: str, teacher_key: str, *, client: str = "") -> list[StoredAnswer]:
        """Every answer of the class, oldest first (the CSV export)."""
        with self._tx(client) as c:
            row = self._teacher(c, code, teacher_key, client)
            rows = c.execute(sa.select(ANSWERS, STUDENTS.c.name).join(STUDENTS, STUDENTS.c.id == ANSWERS.c.student)
                             .where(ANSWERS.c.code == row.code).order_by(ANSWERS.c.id)).all()
        return [StoredAnswer(r.at, r.name, r.exercise, None if r.step < 0 else r.step, r.try_no, bool(r.scored),
                             r.answer, r.result, tuple(json.loads(r.kinds))) for r in rows]

    def end(self, code: str, teacher_key: str, *, client: str = "") -> None:
        """End the class: students can no longer join or answer; its data goes ``retention_days`` later."""
        with self._tx(client) as c:
            row = self._teacher(c, code, teacher_key, client)
            if row.ended is None:
                c.execute(CLASSES.update().where(CLASSES.c.code == row.code).values(ended=time.time()))

    def delete(self, code: str, teacher_key: str, *, client: str = "") -> None:
        """Delete the class and every student and answer of it now."""
        with self._tx(client) as c:
            row = self._teacher(c, code, teacher_key, client)
            _delete(c, [row.code])

    def purge(self, now: float | None = None) -> int:
        """Delete the classes whose time is up; returns how many."""
        now = time.time() if now is None else now
        cutoff = now - self.retention_days * 86400.0
        with self.engine.begin() as c:
            codes = [r.code for r in c.execute(sa.select(CLASSES.c.code).where(
                sa.func.coalesce(CLASSES.c.ended, CLASSES.c.active) <= cutoff))]
            _delete(c, codes)
            c.execute(REFUSALS.delete().where(REFUSALS.c.at < now - GUESS_WINDOW_S))
        return len(codes)

    # the students
    def lookup(self, code: str, *, client: str = "") -> PublicClass:
        """The class's set and mode (for the student's page); an unknown code is refused and counted."""
        with self._tx(client) as c:
            row = self._class(c, code, client)
        return PublicClass(row.code, row.level, row.n, row.seed, row.mode, row.ended)

    def exercise(self, code: str, k: int) -> Exercise:
        """The set's ``k``-th exercise (0-based), made by scatter_practice as every student's page makes it."""
        with self._tx() as c:
            row = self._open_class(c, code, "")
        return _exercise(set_seeds(row.seed, row.n)[self._index(row, k)], row.level)

    def join(self, code: str, name: str, *, client: str = "") -> str:
        """A new student of the class under ``name`` (one of each name a class, letter case aside): their id."""
        name = clean_name(name)
        sid = secrets.token_urlsafe(16)
        now = time.time()
        try:
            with self._tx(client) as c:
                row = self._open_class(c, code, client)
                c.execute(STUDENTS.insert().values(id=sid, code=row.code, name=name, name_key=name.casefold(),
                                                   joined=now))
                c.execute(CLASSES.update().where(CLASSES.c.code == row.code).values(active=now))
        except sa.exc.IntegrityError:
            _fail(f"name {name!r} is taken in class {code}: add an initial or a number", "name", "name-taken")
        return sid

    def student_name(self, code: str, student: str) -> str:
        with self._tx() as c:
            return self._student(c, self._class(c, code, "").code, student).name

    def answer(self, code: str, student: str, exercise: int, output, *, revealed: bool = False) -> Feedback:
        """Grade a whole output of exercise ``exercise`` (0-based) and store it (committed before returning).
        ``revealed``: the page had shown the answer before this one (stored, never scored)."""
        arr = _output_array(output)
        row, k, ex = self._answering(code, student, exercise)
        try:
            fb = grade_output(ex, arr, after_reveal=revealed)
        except ValueError as exc:
            _fail(str(exc), "output", "shape")
        self._store(row.code, student, k, -1, json.dumps(arr.tolist()), fb, revealed)
        return fb

    def answer_step(self, code: str, student: str, exercise: int, step: int, cell, value, *,
                    revealed: bool = False) -> Feedback:
        """Grade a predicted step (0-based ``step``: its ``cell`` and ``value``) and store it (``revealed``: as
        :meth:`answer`)."""
        row, k, ex = self._answering(code, student, exercise)
        try:
            cell = tuple(int(v) for v in cell)[:16]
            fb = grade_step(ex, step, cell, value, after_reveal=revealed)
        except (TypeError, ValueError) as exc:
            _fail(str(exc)[:300], "step", "step")
        self._store(row.code, student, k, int(step), json.dumps({"cell": list(cell), "value": float(value)}), fb,
                    revealed)
        return fb

    def _answering(self, code: str, student: str, exercise: int):
        """(the class's row, the exercise's index, the Exercise) for an answer: an open class, its student, an
        exercise in range."""
        with self._tx() as c:
            row = self._open_class(c, code, "")
            self._student(c, row.code, student)
            k = self._index(row, exercise)
        return row, k, _exercise(set_seeds(row.seed, row.n)[k], row.level)

    def progress(self, code: str, student: str) -> dict[tuple[int, int], str]:
        """The student's latest scored result per (exercise, step) (step -1: the whole output)."""
        return self._progress(code, student)[1]

    def results(self, code: str, student: str) -> dict[int, str]:
        """The student's exercises as the teacher sees them (right, allowed, wrong, in progress; absent: not
        started), by the same rule as :meth:`summary`."""
        row, latest = self._progress(code, student)
        steps = exercise_steps(row.level, row.seed, row.n) if row.mode == "Step by step" else (1,) * row.n
        by_exercise: dict[int, dict[int, str]] = {}
        for (k, step), result in latest.items():
            by_exercise.setdefault(k, {})[step] = result
        return {k: _state(row.mode, steps[k], r) for k, r in sorted(by_exercise.items())}

    def _progress(self, code: str, student: str):
        with self._tx() as c:
            row = self._class(c, code, "")
            self._student(c, row.code, student)
            rows = c.execute(sa.select(ANSWERS.c.exercise, ANSWERS.c.step, ANSWERS.c.result)
                             .where(ANSWERS.c.student == student, ANSWERS.c.scored.is_(True))
                             .order_by(ANSWERS.c.id)).all()
        return row, {(r.exercise, r.step): r.result for r in rows}

    # inside
    def _store(self, code: str, student: str, k: int, step: int, text: str, fb: Feedback, revealed: bool) -> None:
        now = time.time()
        for _ in range(5):
            try:
                with self.engine.begin() as c:
                    tries = c.execute(sa.select(sa.func.count()).select_from(ANSWERS).where(
                        ANSWERS.c.student == student, ANSWERS.c.exercise == k, ANSWERS.c.step == step)).scalar_one()
                    scored = tries < SCORED_TRIES and not revealed
                    c.execute(ANSWERS.insert().values(code=code, student=student, exercise=k, step=step,
                                                      try_no=tries + 1, scored=scored, answer=text, result=_result(fb),
                                                      kinds=json.dumps(list(fb.kinds)), at=now))
                    c.execute(CLASSES.update().where(CLASSES.c.code == code).values(active=now))
                return
            except sa.exc.IntegrityError:  # the same student's other tab took this try number: count again
                continue
        raise RuntimeError("answer not stored: five conflicting tries")  # pragma: no cover

    def _guard(self, c, client: str) -> None:
        since = time.time() - GUESS_WINDOW_S
        n = c.execute(sa.select(sa.func.count()).select_from(REFUSALS).where(
            REFUSALS.c.client == client[:64], REFUSALS.c.at >= since)).scalar_one()
        if n >= GUESS_LIMIT:
            _fail(f"too many wrong class codes or teacher keys from this client ({n} in the last "
                  f"{int(GUESS_WINDOW_S // 60)} minutes); wait a few minutes and try again", "client", "rate-limit")

    @contextmanager
    def _tx(self, client: str = ""):
        """One transaction; a refused code or key (``_Refused``) is counted against ``client`` after it rolled
        back (SQLite has one writer: the count waits for nothing)."""
        try:
            with self.engine.begin() as c:
                yield c
        except _Refused as exc:
            with self.engine.begin() as c:
                c.execute(REFUSALS.insert().values(client=client[:64], at=time.time()))
            raise sc.ScatterError(str(exc), argument=exc.argument, rule=exc.rule) from None

    def _class(self, c, code: str, client: str):
        self._guard(c, client)
        text = str(code).strip().upper()
        row = None
        if len(text) == CODE_LENGTH:
            row = c.execute(sa.select(CLASSES).where(CLASSES.c.code == text)).first()
        if row is None:
            raise _Refused(f"class code {str(code)[:20]!r} is not a class here (it may have been deleted)",
                           argument="code", rule="unknown-class")
        return row

    def _open_class(self, c, code: str, client: str):
        row = self._class(c, code, client)
        if row.ended is not None:
            _fail(f"class {row.code} has ended: it takes no more students or answers", "code", "ended")
        return row

    def _teacher(self, c, code: str, key: str, client: str):
        row = self._class(c, code, client)
        if not hmac.compare_digest(_hash(key), row.key_hash):
            raise _Refused(f"teacher key for class {row.code} is wrong", argument="teacher_key", rule="wrong-key")
        return row

    @staticmethod
    def _student(c, code: str, student: str):
        row = c.execute(sa.select(STUDENTS).where(STUDENTS.c.id == str(student)[:64],
                                                  STUDENTS.c.code == code)).first()
        if row is None:
            _fail(f"student {str(student)[:24]!r} is not in class {code}; join it again", "student", "unknown-student")
        return row

    @staticmethod
    def _index(row, k) -> int:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= int(k) < row.n:
            _fail(f"exercise = {k!r} is not an exercise of class {row.code} (0..{row.n - 1})", "exercise",
                  "exercise-range")
        return int(k)

    def _delete_at(self, row) -> float:
        return (row.ended if row.ended is not None else row.active) + self.retention_days * 86400.0


class _Refused(sc.ScatterError):
    """A wrong class code or teacher key: counted for the rate limit once its transaction rolled back."""


@functools.lru_cache(maxsize=512)
def _exercise(seed: int, level: int) -> Exercise:
    return make_exercise(seed, level)


def _delete(c, codes: list[str]) -> None:
    if codes:
        for table in (ANSWERS, STUDENTS, CLASSES):
            c.execute(table.delete().where(table.c.code.in_(codes)))


def exercise_steps(level: int, seed: int, n: int) -> tuple[int, ...]:
    """The loop steps of each exercise of a set (a step-mode exercise is done when every step is answered)."""
    return tuple(_exercise(s, level).steps for s in set_seeds(seed, n))


def _state(mode: str, steps: int, results: Mapping[int, str]) -> str:
    """One student's exercise from its questions' latest scored results (step -> result; -1 the whole output)."""
    if mode == "Step by step" and len([s for s in results if s >= 0]) < steps:
        return "in progress"
    got = set(results.values())
    return "right" if got == {"right"} else "wrong" if "wrong" in got else "allowed"


def _summarise(row, students, answers, delete_at: float) -> ClassSummary:
    """The counts: per (student, exercise) the latest scored answer of each question decides; a step-mode
    exercise is in progress until every step has one, then right if every step is right, allowed if every step
    conforms, else wrong. A misconception counts the students whose scored answers named it."""
    steps = exercise_steps(row.level, row.seed, row.n) if row.mode == "Step by step" else (1,) * row.n
    latest: dict[tuple[str, int], dict[int, str]] = {}
    kinds: dict[int, dict[str, set[str]]] = {}
    last = {s.id: s.joined for s in students}
    for a in answers:
        latest.setdefault((a.student, a.exercise), {})[a.step] = a.result
        for kind in json.loads(a.kinds):
            kinds.setdefault(a.exercise, {}).setdefault(kind, set()).add(a.student)
        last[a.student] = max(last.get(a.student, 0.0), a.at)
    cells = {(sid, k): _state(row.mode, steps[k], results) for (sid, k), results in latest.items()}
    exercises = []
    for k in range(row.n):
        counts = {r: sum(1 for (_, j), v in cells.items() if j == k and v == r)
                  for r in (*RESULTS, "in progress")}
        named = {kind: len(who) for kind, who in sorted(kinds.get(k, {}).items(), key=lambda kv: -len(kv[1]))}
        exercises.append(ExerciseSummary(k, counts["right"], counts["wrong"], counts["allowed"],
                                         counts["in progress"], MappingProxyType(named)))
    return ClassSummary(row.code, row.level, row.n, row.seed, row.mode, row.created, row.ended,
                        tuple(s.name for s in students), tuple(s.id for s in students), tuple(exercises),
                        MappingProxyType(cells), MappingProxyType(last), delete_at)


__all__ = ["ClassInfo", "ClassStore", "ClassSummary", "ExerciseSummary", "PublicClass", "StoredAnswer", "MODES",
           "MAX_NAME", "MAX_SEED", "MAX_SET", "RETENTION_DAYS", "data_dir", "engine_options", "open_store",
           "store_url"]
