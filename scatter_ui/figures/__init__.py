"""Pure drawing and view code: the step figures, the windows onto large tensors, cell histories, the spec
diffs and the Markdown escaper. Never imports Streamlit (tests/project/test_imports.py checks it)."""
