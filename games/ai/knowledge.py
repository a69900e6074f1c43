"""What one seat knows, read from its view alone, and deals consistent with it.

``read_view`` turns a ``PlayerView`` into bit masks: own hand, the table, the
unseen tiles, the counts, and for every other seat a list of *tiers*: groups
of hidden tiles that were acquired at the same time and so share the same
forbidden tiles.

The inference, event by event over the current round's public history:

- a pass or a draw by a seat on ends (a, b) shows that its whole hand held no
  a and no b at that moment: every tier it holds now forbids those numbers;
- in the draw game a drawn tile that is kept (the seat draws again or passes
  afterwards) did not fit the ends either: it opens a new tier that forbids
  only those numbers, so numbers learnt earlier do not apply to it; the last
  draw of a run is the tile then played, so it adds nothing;
- a played tile leaves the oldest tier that may have held it (tiers are
  nested, so this keeps every deal that is really possible);
- in the first round the opening is forced: nobody was dealt a higher double
  (or, without doubles, any double or a heavier tile), which constrains the
  tiles each seat was dealt.

``Dealer`` then deals the unseen tiles to the other hands, the boneyard and
the tiles set aside: a first deal by bipartite matching (always found when one
exists), then a Markov chain of swaps that keep every constraint, so the deals
are spread uniformly over the consistent ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import Any

from .sim import ALL_TILES, DOUBLES, INDEX, IS_DOUBLE, N_TILES, NO_END, NUM, PIPS, TILES, Table, bits

BONE = -1
UNDEALT = -2


def tile_index(tile: Any) -> int:
    """Index 0..27 of an engine ``Tile`` (or any pair of numbers)."""
    for low, high in (("low", "high"), ("a", "b")):
        if hasattr(tile, low):
            return int(INDEX[getattr(tile, low)][getattr(tile, high)])
    a, b = tile
    return int(INDEX[a][b])


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _opening_key(i: int) -> tuple[int, int, int]:
    """Order of the forced first-round opening: any double beats any other tile."""
    _a, b = TILES[i]
    return (1, b, 0) if IS_DOUBLE[i] else (0, PIPS[i], b)


def opening_forbidden(opening: int) -> int:
    """Tiles nobody was dealt when ``opening`` was the forced opening tile."""
    key = _opening_key(opening)
    return sum(1 << i for i in range(N_TILES) if _opening_key(i) > key)


@dataclass
class Tier:
    forbid: int  # tiles this group cannot contain (number voids)
    count: int
    dealt: bool  # the group dealt at the start of the round
    since: int = -1  # history index of the draw that brought it (-1: dealt)


@dataclass(frozen=True, slots=True)
class Choice:
    """A play another seat chose at history index ``index``: the hand it held
    then is its tiers older than ``index`` (``tiers`` of them) plus the tiles it
    has laid since (``later``); ``fit`` is what could be laid then."""

    seat: int
    index: int
    tile: int
    fit: int
    later: int
    tiers: int
    left: int = NO_END  # the ends before the play
    right: int = NO_END
    board: int = 0  # the tiles on the table before the play
    voids: tuple[int, ...] = ()  # per seat: the tiles it was known not to hold then (public_voids)


@dataclass
class Knowledge:
    me: int
    table: Table
    target: int
    side_scores: list[int]
    hand: int
    board: int
    left: int
    right: int
    unseen: int
    counts: list[int]
    boneyard: int
    undealt: int
    open_forbid: int  # tiles no dealt tier can hold (first-round opening)
    tiers: list[list[Tier]] = field(default_factory=list)
    history: list[tuple[int, str, int, int, int]] = field(default_factory=list)  # seat, action, tile, l, r
    choices: list[Choice] = field(default_factory=list)

    def forbidden(self, seat: int, tier: Tier) -> int:
        return tier.forbid | (self.open_forbid if tier.dealt else 0)

    def possible(self, seat: int) -> int:
        """Unseen tiles that ``seat`` may hold now."""
        if seat == self.me:
            return self.hand
        allowed = 0
        for tier in self.tiers[seat]:
            if tier.count > 0:
                allowed |= ALL_TILES & ~self.forbidden(seat, tier)
        return self.unseen & allowed

    def lacks(self, seat: int, number: int) -> bool:
        """True when ``seat`` surely holds no tile showing ``number``."""
        return not self.possible(seat) & NUM[number]


def _ends(value: Any) -> tuple[int, int]:
    if value is None:
        return NO_END, NO_END
    left, right = value
    return int(left), int(right)


def read_view(view: Any) -> Knowledge:
    """Everything the computer player uses, from the view of its seat."""
    rules = _get(view, "rules")
    me = int(_get(view, "seat"))
    players = int(_get(rules, "players"))
    teams = bool(_get(rules, "teams", False))
    draw = bool(_get(rules, "draw", True))
    history_raw = list(_get(view, "history", ()) or ())
    history: list[tuple[int, str, int, int, int]] = []
    for entry in history_raw:
        action = str(_get(entry, "action"))
        tile = _get(entry, "tile")
        left, right = _ends(_get(entry, "ends"))
        history.append((int(_get(entry, "seat")), action, -1 if tile is None else tile_index(tile), left, right))
    opener = _get(view, "opener")
    if opener is None:
        opener = history[0][0] if history else me
    table = Table(
        players=players,
        draw=draw,
        closed_board=bool(_get(rules, "closed_board", True)),
        blocked_tie=str(_get(rules, "blocked_tie", "opener")),
        teams=teams,
        team_scoring=str(_get(rules, "team_scoring", "all_others")),
        opener=int(opener),
    )
    hand = 0
    for tile in _get(view, "hand", ()):
        hand |= 1 << tile_index(tile)
    board = 0
    for pair in _get(view, "line", ()):
        board |= 1 << tile_index(pair[1] if _is_line_entry(pair) else pair)
    left, right = _ends(_get(view, "ends"))
    counts = [int(c) for c in _get(view, "hand_counts")]
    counts[me] = hand.bit_count()
    boneyard = int(_get(view, "boneyard_count", 0) or 0)
    unseen = ALL_TILES & ~hand & ~board
    hidden_in_hands = sum(counts[s] for s in range(players) if s != me)
    undealt = max(0, unseen.bit_count() - hidden_in_hands - boneyard)
    scores = [int(x) for x in (_get(view, "scores") or [0] * (2 if teams else players))]
    side_scores = scores if len(scores) == table.sides else [0] * table.sides
    if teams and len(scores) == players:
        side_scores = [scores[0] + scores[2], scores[1] + scores[3]]
    round_no = _get(view, "round", 1)
    open_forbid = 0
    if history and round_no == 1 and history[0][1] == "play":
        open_forbid = opening_forbidden(history[0][2])
    know = Knowledge(
        me=me,
        table=table,
        target=int(_get(rules, "target", 0) or 0),
        side_scores=side_scores,
        hand=hand,
        board=board,
        left=left,
        right=right,
        unseen=unseen,
        counts=counts,
        boneyard=boneyard,
        undealt=undealt,
        open_forbid=open_forbid,
        history=history,
    )
    know.tiers = [_tiers_for(seat, know) if seat != me else [] for seat in range(players)]
    know.choices = _choices(know, forced_opening=bool(open_forbid))
    return know


def _choices(know: Knowledge, forced_opening: bool) -> list[Choice]:
    """The plays of the other seats that were a choice among the tiles they held."""
    history = know.history
    out: list[Choice] = []
    board = 0
    voids = _opening_voids(know)
    for k, (seat, action, tile, left, right) in enumerate(history):
        board_before = board
        if action == "play" and tile >= 0:
            board |= 1 << tile
        elif left != NO_END and action in ("pass", "draw"):
            # A pass adds to what the seat lacks; a draw brings tiles that may hold older numbers.
            ends = NUM[left] | NUM[right]
            voids[seat] = voids[seat] | ends if action == "pass" else ends
        if seat == know.me or action != "play" or tile < 0 or (k == 0 and forced_opening):
            continue
        if k > 0 and history[k - 1][0] == seat and history[k - 1][1] == "draw":
            continue  # the tile just drawn: the only one that fitted
        later = 0
        for j in range(k + 1, len(history)):
            s, a, t, *_ = history[j]
            if s == seat and a == "play" and t >= 0 and not (history[j - 1][0] == seat and history[j - 1][1] == "draw"):
                later |= 1 << t
        fit = ALL_TILES if left == NO_END else NUM[left] | NUM[right]
        tiers = sum(1 for tier in know.tiers[seat] if tier.since < k)
        out.append(Choice(seat, k, tile, fit, later | 1 << tile, tiers, left, right, board_before, tuple(voids)))
    return out


def _opening_voids(know: Knowledge) -> list[int]:
    """Per seat, the tiles everybody knows it was not dealt (the forced first-round opening);
    in the draw game a seat may have drawn them since, so nothing is known there."""
    start = 0 if know.table.draw else know.open_forbid
    return [start] * know.table.players


def public_voids(know: Knowledge) -> tuple[int, ...]:
    """Per seat, the tiles everybody knows it cannot hold: the numbers of its passes (since
    its last draw, the ends of that draw) and the tiles the first-round opening rules out.
    What the other seats know of its hand."""
    voids = _opening_voids(know)
    for seat, action, _tile, left, right in know.history:
        if left != NO_END and action in ("pass", "draw"):
            ends = NUM[left] | NUM[right]
            voids[seat] = voids[seat] | ends if action == "pass" else ends
    return tuple(voids)


def _is_line_entry(pair: Any) -> bool:
    """A line entry is (Tile, oriented pair) or an oriented pair of numbers."""
    return isinstance(pair, tuple | list) and len(pair) == 2 and not isinstance(pair[0], int)


def _tiers_for(seat: int, know: Knowledge) -> list[Tier]:
    history = know.history
    plays = sum(1 for s, a, *_ in history if s == seat and a == "play")
    draws = sum(1 for s, a, *_ in history if s == seat and a == "draw")
    tiers = [Tier(0, max(0, know.counts[seat] - draws + plays), True)]
    skip_play = -1
    for k, (s, action, tile, left, right) in enumerate(history):
        if s != seat:
            continue
        if action == "play":
            if k == skip_play or tile < 0:
                continue
            _remove(tiers, tile, k == 0, know.open_forbid)
            continue
        if left == NO_END:
            continue
        void = NUM[left] | NUM[right]
        for tier in tiers:
            tier.forbid |= void
        if action == "draw":
            nxt = history[k + 1] if k + 1 < len(history) else None
            if nxt is None:
                tiers.append(Tier(0, 1, False, k))  # still drawing: this tile may fit
            elif nxt[0] == seat and nxt[1] == "play":
                skip_play = k + 1  # the drawn tile fitted and was played at once
            else:
                tiers.append(Tier(void, 1, False, k))
    total = sum(t.count for t in tiers)
    if total != know.counts[seat]:  # inconsistent view: trust the count, keep the facts
        tiers[0].count = max(0, tiers[0].count + know.counts[seat] - total)
        excess = sum(t.count for t in tiers) - know.counts[seat]
        for tier in tiers:
            cut = min(excess, tier.count)
            tier.count -= cut
            excess -= cut
    return [t for t in tiers if t.count > 0]


def _remove(tiers: list[Tier], tile: int, opening: bool, open_forbid: int) -> None:
    """A played tile leaves the oldest tier that could have held it."""
    for tier in tiers:
        forbid = tier.forbid | (open_forbid if tier.dealt and not opening else 0)
        if tier.count > 0 and not forbid >> tile & 1:
            tier.count -= 1
            return
    for tier in reversed(tiers):
        if tier.count > 0:
            tier.count -= 1
            return


class Dealer:
    """Deals the unseen tiles consistently with a ``Knowledge``, reproducibly from ``rng``."""

    def __init__(self, know: Knowledge, rng: Random):
        self.know = know
        self.rng = rng
        self.place: list[int] = []
        self.forbid: list[int] = []
        self.tier_of: list[int] = []  # position of the slot's tier in its seat's list
        for seat in range(know.table.players):
            if seat == know.me:
                continue
            for pos, tier in enumerate(know.tiers[seat]):
                f = know.forbidden(seat, tier)
                self.place += [seat] * tier.count
                self.forbid += [f] * tier.count
                self.tier_of += [pos] * tier.count
        self.place += [BONE] * know.boneyard + [UNDEALT] * know.undealt
        self.forbid += [0] * (know.boneyard + know.undealt)
        tiles = bits(know.unseen)
        # Counts that do not add up (a view we do not understand): fill the gap loosely.
        while len(self.place) < len(tiles):
            self.place.append(UNDEALT)
            self.forbid.append(0)
        del self.place[len(tiles) :], self.forbid[len(tiles) :]
        self.constrained = any(self.forbid)
        self.tile = self._first_deal(tiles)
        self.swaps = 2 * len(tiles)
        if self.constrained:
            self._mix(10 * len(tiles))

    def _first_deal(self, tiles: list[int]) -> list[int]:
        rng = self.rng
        n = len(tiles)
        if not self.constrained:
            order = tiles[:]
            rng.shuffle(order)
            return order
        for attempt in range(2):
            forbid = self.forbid if attempt == 0 else [0] * n
            match = _match(tiles, forbid, rng)
            if match is not None:
                if attempt:
                    self.forbid = forbid
                    self.constrained = False
                return match
        raise AssertionError("unreachable: an unconstrained deal always exists")

    def _mix(self, steps: int) -> None:
        rng = self.rng
        tile, forbid, place = self.tile, self.forbid, self.place
        n = len(tile)
        if n < 2:
            return
        rand = rng.random
        for _ in range(steps):
            i = int(rand() * n)
            j = int(rand() * n)
            if place[i] == place[j]:
                continue
            ti, tj = tile[i], tile[j]
            if forbid[i] >> tj & 1 or forbid[j] >> ti & 1:
                continue
            tile[i], tile[j] = tj, ti

    def held_before(self) -> list[list[int]]:
        """For the last deal, per seat: ``[k]`` = the tiles of its ``k`` oldest tiers."""
        know = self.know
        masks = [[0] * (len(know.tiers[s]) + 1) for s in range(know.table.players)]
        for t, p, pos in zip(self.tile, self.place, self.tier_of, strict=False):
            masks[p][pos + 1] |= 1 << t
        for row in masks:
            for k in range(1, len(row)):
                row[k] |= row[k - 1]
        return masks

    def deal(self) -> tuple[list[int], list[int]]:
        """A fresh consistent deal: (hands by seat as masks, boneyard in drawing order)."""
        know = self.know
        if self.constrained:
            self._mix(self.swaps)
        else:
            shuffle(self.tile, self.rng)
        hands = [0] * know.table.players
        hands[know.me] = know.hand
        bone: list[int] = []
        for t, p in zip(self.tile, self.place, strict=True):
            if p >= 0:
                hands[p] |= 1 << t
            elif p == BONE:
                bone.append(t)
        if self.constrained and len(bone) > 1:
            shuffle(bone, self.rng)
        return hands, bone


def shuffle(items: list[int], rng: Random) -> None:
    """Shuffle ``items`` in place exactly as Python 3.11's ``rng.shuffle`` does (same order
    from the same state), without a method call per element: the dealing loop runs it for
    every deal, and this keeps decisions the same on any later Python."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _match(tiles: list[int], forbid: list[int], rng: Random) -> list[int] | None:
    """Assign one tile per slot with no slot getting a forbidden tile (Kuhn's
    augmenting paths, in random order); None when impossible."""
    n = len(tiles)
    owner = [-1] * n  # tile position -> slot
    order = list(range(n))
    rng.shuffle(order)
    tile_order = list(range(n))

    def augment(slot: int, seen: list[bool]) -> bool:
        rng.shuffle(tile_order)
        for k in tile_order[:]:
            if seen[k] or forbid[slot] >> tiles[k] & 1:
                continue
            seen[k] = True
            if owner[k] < 0 or augment(owner[k], seen):
                owner[k] = slot
                return True
        return False

    for slot in sorted(order, key=lambda s: -forbid[s].bit_count()):
        if not augment(slot, [False] * n):
            return None
    result = [0] * n
    for k, slot in enumerate(owner):
        result[slot] = tiles[k]
    return result


__all__ = ["BONE", "DOUBLES", "UNDEALT", "Dealer", "Knowledge", "Tier", "read_view", "tile_index"]
