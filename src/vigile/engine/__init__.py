"""The turn engine: plays a scenario turn by turn through the rule functions, and logs it.

It holds no rule of its own: every check is a call to a ruleset's rule function; the engine
only decides who checks what, when, and keeps positions, doors, alert and awareness.
"""
