"""Chat at the table, blocks and reports between members, the moderators'
actions (docs/moderation.md). Above accounts (it reads members), below the
lobby (which reads blocks); the table socket reaches it through
games.signals."""
