"""Developer tools shared by tests/, bench/ and scripts/: running the app, Chromium and the class server.

Not part of the app. Nothing here imports pytest, so bench/ and scripts/ never import tests/.
"""
