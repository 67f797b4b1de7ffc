"""Widgets and sections that pages share: controls, attribute inputs, panels, the cross-check and export
panels, the class parts, the option grids and the URL state (session.py)."""
