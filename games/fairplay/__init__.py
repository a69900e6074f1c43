"""Fair play anyone can check (docs/fair-play.md): the commitment to the deal,
the chained move log, the published replay file and the key that signs it."""
