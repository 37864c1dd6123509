"""Texts shared by the browser and the terminal: the players' rules pages
(:mod:`.rulepages`, Markdown under ``rules/<lang>/``) and their Markdown reading
(:mod:`.markdown`: markdown-it-py with one plugin of ours).
"""
