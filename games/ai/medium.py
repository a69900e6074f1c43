"""Medium: a one-move heuristic built on the tips of seed 003.

Each legal play gets a score, the best one is played:

- weight: heavy tiles and doubles go first (a double fits one number only);
- follow: expose numbers it still holds, and most of all the number it holds
  most of, so that it can follow its own ends;
- spread: keep many different numbers in hand;
- voids: a seat that passed or drew on some numbers holds none of them (see
  ``games.ai.knowledge``): leave such numbers open in front of the next
  opponents, never in front of its partner;
- feed: avoid ends that the opponents can probably follow (many unseen tiles
  of that number that they may hold); favour ends its partner can follow;
- block: in the block game, close the line only when its hand is light.
"""
from __future__ import annotations

from random import Random

from games.engine import Action, PlayerView

from .base import Candidate, candidates
from .knowledge import Knowledge, read_view
from .sim import IS_DOUBLE, NUM, PIPS, distinct_numbers, mask_pips

# Weights tuned by duplicate tournaments against random play (bench/ai.py).
W_PIPS = 1.5
W_DOUBLE = 4.0
W_FOLLOW = 4.0
W_EXPOSED = 1.2
W_SPREAD = 0.4
W_VOID = 7.0
W_FEED = 2.0
W_PARTNER_BLOCK = 6.0
W_BLOCK = 60.0


def score_play(know: Knowledge, cand: Candidate) -> float:
    """Heuristic value of a play for the seat of ``know`` (higher is better)."""
    t = cand.tile
    rest = know.hand & ~(1 << t)
    if not rest:
        return 1e6  # domino
    left, right = cand.left, cand.right
    open_mask = NUM[left] | NUM[right]
    exposed = left if cand.on_left else right
    score = W_PIPS * PIPS[t] + (W_DOUBLE if IS_DOUBLE[t] else 0.0)
    score += W_FOLLOW * (rest & open_mask).bit_count()
    score += W_EXPOSED * (rest & NUM[exposed]).bit_count()
    score += W_SPREAD * distinct_numbers(rest)
    table = know.table
    n = table.players
    me_side = table.side(know.me)
    anyone_can_follow = bool(rest & open_mask)
    for k in range(1, n):
        seat = (know.me + k) % n
        weight = 1.0 if k == 1 else 0.5
        follow = know.possible(seat) & open_mask
        if follow:
            anyone_can_follow = True
        if table.side(seat) != me_side:
            if not follow:
                score += W_VOID * weight
            else:
                score -= W_FEED * weight * follow.bit_count()
        elif not follow:
            score -= W_PARTNER_BLOCK
        else:
            score += W_FEED * follow.bit_count()
    if not anyone_can_follow and not know.boneyard:
        score += W_BLOCK if _wins_blocked(know, rest) else -W_BLOCK
    return score


def _wins_blocked(know: Knowledge, rest: int) -> bool:
    """Guess whether a blocked round now would be won by this seat's side."""
    mine = mask_pips(rest)
    unseen = know.unseen
    if not unseen:
        return True
    average = mask_pips(unseen) / unseen.bit_count()
    table = know.table
    me_side = table.side(know.me)
    return all(
        know.counts[seat] * average > mine for seat in range(table.players) if table.side(seat) != me_side
    )


class MediumPlayer:
    """Plays the legal action with the best heuristic score."""

    name = "medium"

    def choose(self, view: PlayerView, rng: Random) -> Action:
        """Best-scoring play of ``view.legal`` (a draw or a pass when that is all there is)."""
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        know = read_view(view)
        cands = candidates(legal, know)
        if not cands:
            return legal[0]
        return best_candidate(know, cands).action


def best_candidate(know: Knowledge, cands: list[Candidate]) -> Candidate:
    best = cands[0]
    best_score = score_play(know, best)
    for cand in cands[1:]:
        s = score_play(know, cand)
        if s > best_score:
            best, best_score = cand, s
    return best
