"""Paper-to-paper links: the citations graph, where a stored paper ``cito:cites`` each stored paper one of its
references names (by work key), and the figures of how the store's papers are linked to each other."""
