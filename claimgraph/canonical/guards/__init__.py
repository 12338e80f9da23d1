"""Guards on a candidate pair of texts: the differences cosine similarity cannot see (check.py),
read with word lists (words.toml, compiled by vocabulary.py), numbers with their units
(numbers.py) and who acts on whom (roles.py)."""
