"""One module per page; app_pages/ and the family pages (navigation.py) call their ``render``."""
