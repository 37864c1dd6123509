"""Texts shared by the browser and the terminal: the message catalog (:mod:`.catalog`, one
JSON file per language under ``catalogs/``), the players' rules pages (:mod:`.rulepages`,
Markdown under ``rules/<lang>/``) and their Markdown reading (:mod:`.markdown`:
markdown-it-py with one plugin of ours).
"""
