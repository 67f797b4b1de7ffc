"""Scatter Explorer: the Streamlit entry point (run with `streamlit run app.py`)."""

import streamlit as st

import scatter_core

st.set_page_config(page_title="Scatter Explorer", layout="wide")
st.title("Scatter Explorer")
st.write(f"{len(scatter_core.OPERATORS)} operator versions registered. The explorer pages are on their way.")
