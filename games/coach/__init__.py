"""Coaching: hints at the table and the post-game review, both from the analysis
of one decision from the player's own view."""
