"""What the turn clock does when it runs out (its rules and reads:
``games.live.clock``): playing for a player out of time, computers standing in
for people who left, abandonment and claims, who is away."""
