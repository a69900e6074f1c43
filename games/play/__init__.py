"""Play at a table: tables and seats, the moves, rematches, computer turns, the
reads of the move log (``selectors``), the ranked modes and variants, the
limits on new tables, and the live games a process keeps between moves."""
