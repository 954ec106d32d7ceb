"""Rulesets: each game's rules as code over the numbers of its data file (the games themselves
are listed by :mod:`vigile.registry`)."""
