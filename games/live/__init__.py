"""What a table shows as it happens: the frames of each viewer, their broadcast
after the commit, who is connected, the clock everyone sees, quick reactions,
and the cache handle the sockets share."""
