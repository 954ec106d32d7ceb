"""Exact chances (as Fractions) and seeded rolls for every kind of die vigile uses."""
