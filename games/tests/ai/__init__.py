"""The computer players: one shared suite for every level, then per-level and inference tests."""
