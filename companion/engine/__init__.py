"""The shared rules engine: pure Python, no Flask, no database.

``cards`` (notation), ``gandengyan`` and ``dagong`` (Rules, PRESETS, classify, check, settle).
"""
