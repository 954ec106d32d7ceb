"""The built-in games, one plug-in object each (see :mod:`vigile.registry`).

This is the one place that names the three games of the rule texts: each module holds a
``PLUGIN`` that says where the game's rules, data, messages, turn, commands and compiled
simulation kernel are.
"""
