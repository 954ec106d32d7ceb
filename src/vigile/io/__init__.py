"""Renderers (text, rich terminal, JSON) and translations (fr, en) over the verdict tree."""
