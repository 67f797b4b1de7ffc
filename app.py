"""Scatter Explorer: the Streamlit entry point (run with `streamlit run app.py`).

Routes with st.navigation over an explicit page list; the sidebar's page links are drawn from the same
list (scatter_ui.pages.navigation). Each family record gives its explorer and spec page (callable st.Pages made by
scatter_ui.pages.navigation.family_pages, so a new family needs no page file); every other page is a file in
app_pages/, a thin call into scatter_ui. The tests open a callable page by its URL path, as a browser does
(devtools.apptest.switch_to).

The page files must not live in a directory named ``pages/`` beside this file: with one, a fresh server's
first visitor to a deep link got "Page not found" (streamlit/streamlit#8860; why: docs/architecture.md, app.py;
tests/browser/test_first_visit.py checks it).
"""

import streamlit as st

from scatter_ui.pages.navigation import family_pages, kebab_aliases, sidebar_links
from scatter_ui.player.component import warm_up

st.set_page_config(page_title="Scatter Explorer", page_icon="🧮", layout="wide")
warm_up()  # the app's first element: starts loading the player's frontend code (scatter_ui.player.component.warm_up)

explorers, specs = family_pages()  # one explorer and one spec page per family record (scatter_core.FAMILIES)
PAGES = {
    "Scatter Explorer": [
        st.Page("app_pages/home.py", title="Home", icon=":material/home:", default=True),
    ],
    "Explore step by step": explorers,
    "Tools": [
        st.Page("app_pages/check_expected.py", title="Check expected output", icon=":material/fact_check:",
                url_path="check"),
        st.Page("app_pages/practice.py", title="Practice", icon=":material/school:", url_path="practice"),
        st.Page("app_pages/class_view.py", title="Class (teacher)", icon=":material/groups:", url_path="class"),
        st.Page("app_pages/model.py", title="Your model", icon=":material/account_tree:", url_path="model"),
        st.Page("app_pages/from_code.py", title="From your code", icon=":material/code:", url_path="from-code"),
    ],
    "Specs": specs,
}

# the sidebar's page list is the app's own (axe: list); /slice-scatter reaches /slice_scatter (hidden aliases)
navigation = st.navigation({**PAGES, "Aliases": kebab_aliases(PAGES)}, position="hidden")
sidebar_links(PAGES, navigation)  # the same st.Page objects: a page added above gets its link
navigation.run()
