"""The step player: its Python side (component.py, a Streamlit components-v2 element), the contract between
Python and the browser (contract.py) and the browser's assets (assets/)."""
