"""Scatter Explorer: the Streamlit entry point (run with `streamlit run app.py`).

Routes with st.navigation over an explicit page list; each page file in
pages/ is a thin call into scatter_ui.
"""

import streamlit as st

st.set_page_config(page_title="Scatter Explorer", page_icon="🧮", layout="wide")

PAGES = {
    "Scatter Explorer": [
        st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    ],
    "Explore step by step": [
        st.Page("pages/nd_family.py", title="ScatterND family", icon=":material/view_in_ar:", url_path="nd"),
        st.Page("pages/elements_family.py", title="Elements family", icon=":material/grid_on:",
                url_path="elements"),
        st.Page("pages/update_family.py", title="ScatterUpdate", icon=":material/view_week:", url_path="update"),
    ],
    "Tools": [
        st.Page("pages/check_expected.py", title="Check expected output", icon=":material/fact_check:",
                url_path="check"),
        st.Page("pages/practice_page.py", title="Practice", icon=":material/school:", url_path="practice"),
    ],
    "Specs": [
        st.Page("pages/spec_nd.py", title="ScatterND specs", icon=":material/history_edu:", url_path="spec-nd"),
        st.Page("pages/spec_elements.py", title="Elements specs", icon=":material/history_edu:",
                url_path="spec-elements"),
        st.Page("pages/spec_update.py", title="ScatterUpdate spec", icon=":material/history_edu:",
                url_path="spec-update"),
    ],
}

st.navigation(PAGES).run()
