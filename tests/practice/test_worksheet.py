"""scatter_practice.worksheet: the student sheet and the answer key (HTML and PDF), the public address, the QR code."""

from __future__ import annotations

import re
import zlib
from html.parser import HTMLParser

import numpy as np
import pytest

import scatter_core as sc
import scatter_practice as sp
from scatter_practice import worksheet as ws

SET = sp.exercise_set(3, 2, 5)
MIXED = sp.exercise_set(4, 5, 3)  # rank 3 among them
LINK = "https://scatter.example.edu/practice?set=3&level=2&n=5"


class Text(HTMLParser):
    """Visible text (no style) and the classes met."""

    def __init__(self):
        super().__init__()
        self.text, self.classes, self._skip = [], set(), False

    def handle_starttag(self, tag, attrs):
        self.classes.update((dict(attrs).get("class") or "").split())
        self._skip = tag == "style"

    def handle_endtag(self, tag):
        self._skip = False

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parse(doc: str) -> Text:
    p = Text()
    p.feed(doc)
    return p


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


def pdf_text(data: bytes) -> str:
    """The strings the PDF's content streams show (fpdf2 compresses them with zlib)."""
    out = []
    for raw in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            raw = zlib.decompress(raw)
        except zlib.error:
            pass
        out += [m.decode("latin-1") for m in re.findall(rb"\(((?:[^()\\]|\\.)*)\)\s*Tj", raw)]
    return "\n".join(s.replace("\\(", "(").replace("\\)", ")").replace("\\\\", "\\") for s in out)


def closed_paths(data: bytes) -> int:
    return sum(len(re.findall(rb"\bh\b", zlib.decompress(raw)))
               for raw in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S))


# -- HTML ------------------------------------------------------------------------------------------------------------
def test_the_student_sheet_has_a_name_and_date_line_and_no_answers():
    sheet = sp.student_html(SET, "Set 3", LINK)
    p = parse(sheet)
    assert "who" in p.classes
    words = " ".join(p.text)
    assert "Name:" in words and "Date:" in words
    assert words.index("Name:") < words.index("Exercise 1")
    assert "Answer" not in words
    for ex in SET:
        assert ex.trace.describe(0).replace("'", "&#x27;") not in sheet  # the steps are the key's


def test_the_answer_key_is_a_document_of_its_own():
    key = sp.answer_key_html(SET, "Set 3", LINK)
    assert key.startswith("<!DOCTYPE html>") and key.count("<html") == 1
    words = " ".join(parse(key).text)
    assert words.split()[:4] == ["Answer", "key:", "Set", "3"]  # the <title>, then the heading
    assert "Name:" not in words and "your output" not in words
    for i, ex in enumerate(SET, 1):
        assert f"Answer {i}" in words and ex.trace.describe(ex.steps - 1) in words


def test_with_a_link_the_sheet_carries_it_and_its_qr_code():
    sheet = sp.student_html(SET, "Set 3", LINK)
    assert f'href="{LINK.replace("&", "&amp;")}"' in sheet
    svg = sheet[sheet.index("<svg"):sheet.index("</svg>")]
    assert 'role="img"' in svg and "QR code of https://scatter.example.edu/practice" in svg
    assert len(re.findall(r"[MH]\d", svg)) > 100  # the modules of a real code, not an empty picture
    assert "127.0.0.1" not in sheet and "localhost" not in sheet


def test_without_a_link_the_sheet_has_none_and_says_where_to_set_one():
    sheet = sp.student_html(SET, "Set 3")
    assert "<svg" not in sheet and "Online:" not in sheet and "http" not in sheet.split("<body>")[1]
    p = parse(sheet)
    assert {"setlink", "noprint"} <= p.classes  # the note shows on screen, not on the printed sheet
    words = " ".join(p.text)
    for where in (".streamlit/config.toml", sp.PUBLIC_URL_ENV, "Public address of this app"):
        assert where in words
    key = " ".join(parse(sp.answer_key_html(SET, "Set 3")).text)
    assert sp.PUBLIC_URL_ENV in key  # the teacher's copy says it too


def test_a_qr_code_is_made_by_the_qrcode_package():
    import qrcode

    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(LINK)
    qr.make(fit=True)
    size = len(qr.get_matrix())
    svg = ws.qr_svg(LINK)
    assert f'viewBox="0 0 {size} {size}"' in svg  # the package's own matrix, border included


# -- the public address ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, want", [
    ("https://scatter.example.edu", "https://scatter.example.edu"),
    ("  https://Scatter.Example.edu/  ", "https://scatter.example.edu"),
    ("http://192.168.1.20:8501", "http://192.168.1.20:8501"),
    ("https://school.example/apps/scatter/practice", "https://school.example/apps/scatter"),
    ("https://[2001:db8::1]:8443/x", "https://[2001:db8::1]:8443/x"),
    ("", ""),
    (None, ""),
])
def test_public_address_accepts_http_and_https(text, want):
    assert sp.public_address(text) == want


@pytest.mark.parametrize("text, rule", [
    ("ftp://scatter.example.edu", "scheme"),
    ("javascript:alert(1)", "scheme"),
    ("scatter.example.edu", "scheme"),
    ("http://127.0.0.1:8501", "loopback"),
    ("http://localhost:8501", "loopback"),
    ("http://[::1]:8501", "loopback"),
    ("http://0.0.0.0:8501", "loopback"),
    ("https://user:pw@scatter.example.edu", "credentials"),
    ("https://scatter.example.edu/?set=1", "query"),
    ("https://scatter.example.edu/#x", "query"),
    ("https://scatter example.edu", "characters"),
    ("https://scatter.example.edu:99999", "url"),
    ("https://", "host"),
    ("https://x.example/" + "a" * ws.MAX_URL, "length"),
])
def test_public_address_refuses_what_students_cannot_open(text, rule):
    with pytest.raises(sc.ScatterError) as err:
        sp.public_address(text)
    assert err.value.rule == rule and err.value.argument == "public address"


def test_the_sets_link_is_built_on_the_public_address():
    assert sp.set_link("https://scatter.example.edu/", 3, 2, 5) == LINK
    assert sp.set_link("https://scatter.example.edu/practice", 3, 2, 5) == LINK
    assert sp.set_link("", 3, 2, 5) == ""


# -- PDF -------------------------------------------------------------------------------------------------------------
def test_the_student_pdf_holds_every_exercise_and_its_qr_code():
    data = sp.student_pdf(SET + MIXED, "Scatter practice · set 3 · level 2", LINK)
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert pdf_pages(data) >= 2
    text = pdf_text(data)
    assert "Scatter practice - set 3 - level 2" in text  # core fonts: ASCII, "·" spelt "-"
    assert "Name:" in text and "Date:" in text and f"Online: {LINK}" in text
    for i, ex in enumerate(SET + MIXED, 1):
        assert f"Exercise {i}" in text
        assert ws.ascii_text(ex.prompt) in text.replace("\n", " ") or ws.ascii_text(ex.prompt)[:40] in text
    assert "Answer" not in text and "your output - int" in text
    without = sp.student_pdf(SET + MIXED, "Scatter practice · set 3 · level 2")
    assert closed_paths(data) - closed_paths(without) > 100  # the QR code's modules, drawn as vector paths


def test_the_answer_key_pdf_holds_every_answer():
    data = sp.answer_key_pdf(SET, "Set 3", "")
    assert data.startswith(b"%PDF-")
    text = pdf_text(data)
    assert "Answer key: Set 3" in text and "Name:" not in text
    assert sp.PUBLIC_URL_ENV in text  # where to set a link
    for i, ex in enumerate(SET, 1):
        assert f"Answer {i}" in text
        assert ws.ascii_text(ex.trace.describe(0))[:40] in text


def test_a_pdf_without_a_link_has_no_link():
    text = pdf_text(sp.student_pdf(SET[:2], "Set 3"))
    assert "Online:" not in text and "http" not in text


def test_pdf_text_is_ascii_for_the_core_fonts():
    assert ws.ascii_text("2×3 → −1 · …") == "2x3 -> -1 - ..."
    assert ws.ascii_text("naïve ☃") == "na?ve ?"
    data = sp.student_pdf(MIXED, "a × b → c")
    assert "a x b -> c" in pdf_text(data)


# -- issue 33: two pages, only the attributes that apply, a key with the inputs -----------------------------------------
def pdf_page_count(data: bytes) -> int:
    """The page count the PDF itself declares: /Count of its root /Pages node (fpdf2 keeps it uncompressed)."""
    (count,) = re.findall(rb"/Type\s*/Pages\b.*?/Count\s+(\d+)", data, re.S)[:1] or \
        re.findall(rb"/Count\s+(\d+).*?/Type\s*/Pages\b", data, re.S)[:1]
    return int(count)


@pytest.mark.slow
@pytest.mark.parametrize("level", (1, 2, 3, 4, 5))
def test_five_small_exercises_fit_on_two_a4_pages(level):
    """Every level, rank 3 too: every set of five over 60 seeds, each with its name and date line, link and QR
    code, on two A4 pages (the output grid beside the inputs where a line has room; a tighter layout only when
    the roomy one takes a third page)."""
    for seed in range(60):
        data = sp.student_pdf(sp.exercise_set(seed, level, 5), f"Set {seed} · level {level}", LINK)
        assert pdf_page_count(data) == pdf_pages(data)
        assert pdf_page_count(data) <= 2, (level, seed)


def font_sizes(data: bytes) -> set[float]:
    """The font sizes (pt) the PDF's content streams set."""
    streams = b"".join(zlib.decompress(raw) for raw in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S)
                       if raw[:1] == b"x")
    return {float(v) for v in re.findall(rb"/F\d+ ([\d.]+) Tf", streams)}


def test_a_tighter_layout_is_taken_only_to_save_a_page():
    """Level 5's set 37 takes three pages laid out roomy: its sheet is the next layout's, on two pages, digits of
    10 pt (over 12 px) and every exercise whole; a set that fits roomy keeps the roomy layout (11 pt digits, no
    10 pt). No layout prints digits under 9 pt (12 px)."""
    tight = sp.exercise_set(37, 5, 5)
    assert [ws.student_sheet(tight, "t", LINK, st).pages_count for st in ws.STYLES[:2]] == [3, 2]
    data = sp.student_pdf(tight, "t", LINK)
    assert pdf_page_count(data) == 2 and "continued" not in pdf_text(data)
    assert 10 in font_sizes(data) and all(f"Exercise {i}" in pdf_text(data) for i in range(1, 6))
    assert ws.student_sheet(SET, "t", LINK, ws.ROOMY).pages_count <= 2
    assert 10 not in font_sizes(sp.student_pdf(SET, "t", LINK)) and 11 in font_sizes(sp.student_pdf(SET, "t", LINK))
    assert min(st.value_pt for st in ws.STYLES) >= 9


def test_the_last_resort_runs_an_exercise_over_a_page_between_rows():
    """Level 5's set 194 needs the tightest layout: an exercise continues on the next page under its heading."""
    data = sp.student_pdf(sp.exercise_set(194, 5, 5), "t", LINK)
    assert pdf_page_count(data) == 2 and "(continued)" in pdf_text(data)


def test_close_slices_stay_on_one_row_and_are_named():
    """In the tight layout a rank-3 tensor's slices are labelled by position under one name line and never split
    from it by the output's grids."""
    ex = sp.exercise_set(37, 5, 5)[2]  # data, indices, updates of shape (3, 3, 2), (3, 2, 1), (3, 2, 1)
    pdf = ws.new_pdf("t")
    pdf.add_page()
    st = ws.STYLES[1]
    boxes = ws.packed_boxes(ws.input_boxes(pdf, ex, st), ws.tensor_boxes(pdf, "your output", ex.answer, True, st), st)
    for row in ws.box_rows(boxes):
        for box in row:
            assert box.label.split("\n")[1].startswith("[")
        names = [b.name for b in row]
        for name in set(names):  # each tensor's slices are together, and all of them on this row
            first = names.index(name)
            assert names[first:first + names.count(name)] == [name] * names.count(name)
            assert names.count(name) == np.asarray(dict([*ex.inputs, ("your output", ex.answer)])[name]).shape[0]


def test_an_attribute_that_does_not_apply_is_not_printed():
    """use_init_val plays no part under reduction none: neither sheet, in HTML or PDF, prints it."""
    ex = next(e for e in (sp.make_exercise(s, 1) for s in range(60))
              if "use_init_val" in e.attrs and e.trace.reduction.ufunc is None)
    for doc in (sp.student_html([ex], "t"), sp.answer_key_html([ex], "t")):
        assert "use_init_val" not in doc
    for data in (sp.student_pdf([ex], "t"), sp.answer_key_pdf([ex], "t")):
        assert "use_init_val" not in pdf_text(data) and "reduction='none'" in pdf_text(data)
    combining = next(e for e in (sp.make_exercise(s, 4, "ScatterElementsUpdate-12") for s in range(60))
                     if e.trace.reduction.ufunc is not None)
    assert "use_init_val=" in pdf_text(sp.student_pdf([combining], "t"))  # where it applies it is printed


def test_the_answer_key_carries_the_inputs():
    """A key read on its own shows what each answer was computed from: every input with its values."""
    words = " ".join(parse(sp.answer_key_html(SET, "Set 3")).text)
    text = pdf_text(sp.answer_key_pdf(SET, "Set 3"))
    for ex in SET:
        for name, arr in ex.inputs:
            label = f"{name} · {arr.dtype} {tuple(arr.shape)}"
            assert label in words
            assert ws.ascii_text(label) in text
    assert text.count("data - int") == len(SET)


def test_the_sets_link_carries_the_mode():
    link = sp.set_link("https://scatter.example.edu", 3, 2, 5, mode="Whole output")
    assert link == LINK + "&mode=Whole+output"


@pytest.mark.parametrize("link, local", [
    ("http://localhost:8501/practice?set=1", True), ("http://127.0.0.1:8501/practice", True),
    ("http://127.4.5.6/practice", True), ("http://[::1]:8501/practice", True), ("http://0.0.0.0:8501/", True),
    ("http://192.168.1.20:8501/practice", False), ("https://scatter.example.edu/practice", False),
    ("/practice?set=1", False),
])
def test_a_link_only_this_machine_can_open_is_told_apart(link, local):
    assert sp.this_machine_only(link) is local
