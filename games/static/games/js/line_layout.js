// Geometry of the line of tiles on the table: a snake that grows from the
// opening tile towards both edges and turns (down on the right, up on the
// left) when it reaches them, so it always fits the width it is given. The
// whole line is centred: it bends only when its whole length needs it.
// Pure functions, no DOM: the table page draws what these return.
//
// Units: u is the short side of a tile; a tile is 2u long. Doubles are laid
// crosswise (u along the line, 2u across) except at a turn, where every tile
// stands along the new direction.

/** @typedef {readonly number[]} Pair [a, b] as laid, left to right */
/** @typedef {{seat?: number, action: string, end?: string | null, ends?: unknown}} HistoryEntry */
/** @typedef {{x: number, y: number, w: number, h: number}} Box */
/**
 * A tile placed on the felt: `a` drawn on the left (or top).
 * @typedef {Box & {a: number, b: number, double: boolean, vertical: boolean, turn: boolean}} Placed
 */
/** @typedef {Placed & {index: number}} PlacedTile a placed tile and its index in the line */
/** @typedef {{x: number, y: number, dir: number, rowDir: number, prevAcross: number}} Cursor */
/** @typedef {{min: number, max: number}} Bounds */
/** @typedef {{tiles: PlacedTile[], slots: {left: Box, right: Box}, height: number}} Layout */

/**
 * Index in `line` of the opening tile of the round, from the view's history:
 * every tile laid on the left end after the opener sits left of it.
 * @param {readonly Pair[]} line
 * @param {readonly HistoryEntry[] | null | undefined} history
 * @returns {number}
 */
export function openerIndex(line, history) {
  if (!line.length) return 0;
  const plays = (history || []).filter((entry) => entry.action === "play");
  // The opening tile may or may not be in the history (it is laid by the
  // server); without a usable history, centre the line.
  if (plays.length !== line.length && plays.length !== line.length - 1) {
    return Math.floor((line.length - 1) / 2);
  }
  const onLeft = plays.filter((entry) => entry.ends && entry.end === "left").length;
  return Math.min(onLeft, line.length - 1);
}

/**
 * @param {Pair} tile
 * @param {number} centre
 * @param {number} u
 * @returns {Placed}
 */
function placeOpener([a, b], centre, u) {
  const double = a === b;
  const len = double ? u : 2 * u;
  const across = double ? 2 * u : u;
  return {
    a, b, double, vertical: double, turn: false,
    x: centre - len / 2, y: -across / 2, w: len, h: across,
  };
}

/**
 * Walk one arm of the line from the opener outwards. `tiles` are in travel
 * order as [inner, outer] (inner touches the previous tile). `dir` is the
 * horizontal direction (+1 right, -1 left), `rowDir` where turns go (+1 down,
 * -1 up). Returns the placed tiles and the cursor for the next one.
 * @param {readonly Pair[]} tiles
 * @param {Cursor} cursor
 * @param {Bounds} bounds
 * @param {number} u
 * @param {number} gap
 * @returns {{placed: Placed[], cursor: Cursor}}
 */
function walkArm(tiles, cursor, bounds, u, gap) {
  /** @type {Placed[]} */
  const placed = [];
  let { x, y, dir, rowDir, prevAcross } = cursor;
  for (const [inner, outer] of tiles) {
    const double = inner === outer;
    const len = double ? u : 2 * u;
    const across = double ? 2 * u : u;
    const end = x + dir * len;
    if (end >= bounds.min && end <= bounds.max) {
      placed.push({
        a: dir > 0 ? inner : outer, b: dir > 0 ? outer : inner, double,
        vertical: double, turn: false,
        x: Math.min(x, end), y: y - across / 2, w: len, h: across,
      });
      x = end + dir * gap;
      prevAcross = across;
      continue;
    }
    // Turn: the tile stands under (or over) the last square of the row,
    // then the next row runs back the other way from its far square.
    const cx = x - dir * (gap + u / 2);
    const yStart = y + rowDir * (prevAcross / 2 + gap);
    const yEnd = yStart + rowDir * 2 * u;
    placed.push({
      a: rowDir > 0 ? inner : outer, b: rowDir > 0 ? outer : inner, double,
      vertical: true, turn: true,
      x: cx - u / 2, y: Math.min(yStart, yEnd), w: u, h: 2 * u,
    });
    y = yEnd - rowDir * (u / 2);
    dir = -dir;
    x = cx + dir * (u / 2 + gap);
    prevAcross = u;
  }
  return { placed, cursor: { x, y, dir, rowDir, prevAcross } };
}

/**
 * Where a plain tile would go next on an arm: the glowing drop spot.
 * @param {Cursor} cursor
 * @param {Bounds} bounds
 * @param {number} u
 * @param {number} gap
 * @param {number} number
 * @returns {Box}
 */
function nextSlot(cursor, bounds, u, gap, number) {
  const { placed } = walkArm([[number, number === 0 ? 1 : 0]], cursor, bounds, u, gap);
  const { x, y, w, h } = placed[0];
  return { x, y, w, h };
}

/**
 * Length along the row of `tiles` laid end to end (gaps included).
 * @param {readonly Pair[]} tiles
 * @param {number} u
 * @param {number} gap
 * @returns {number}
 */
function armLength(tiles, u, gap) {
  return tiles.reduce((sum, [a, b]) => sum + (a === b ? u : 2 * u) + gap, 0);
}

/**
 * Where the opener's centre goes so that the whole line is centred on the
 * felt: a line that fits one row stays straight (it bends only when its whole
 * length needs it, not when one arm reaches an edge); a longer one leaves
 * each arm room in proportion to its length.
 * @param {readonly Pair[]} line
 * @param {number} opener
 * @param {number} width
 * @param {number} u
 * @param {number} gap
 * @param {number} padding
 * @returns {number}
 */
function openerCentre(line, opener, width, u, gap, padding) {
  const [a, b] = line[opener];
  const own = a === b ? u : 2 * u;
  const left = armLength(line.slice(0, opener), u, gap);
  const right = armLength(line.slice(opener + 1), u, gap);
  const room = width - 2 * padding;
  const lo = padding + own / 2;
  const hi = width - padding - own / 2;
  const centre = left + own + right <= room
    ? padding + (room - (left + own + right)) / 2 + left + own / 2
    : padding + own / 2 + (room - own) * (left / (left + right));
  return Math.min(hi, Math.max(lo, centre));
}

/**
 * Lay out `line` (list of [a, b] left to right) in a box `width` wide.
 * Returns {tiles, slots: {left, right}, height}; tiles carry the index
 * of the tile in `line` and what to draw (a on the left / top).
 * @param {readonly Pair[]} line
 * @param {{width: number, u: number, gap?: number, padding?: number, opener?: number}} options
 * @returns {Layout}
 */
export function layoutLine(line, { width, u, gap = 2, padding = 8, opener = 0 }) {
  const bounds = { min: padding, max: width - padding };
  if (!line.length) {
    const centre = width / 2;
    const slot = { x: centre - u, y: -u / 2, w: 2 * u, h: u };
    return finish([], { left: slot, right: slot }, padding);
  }
  const centre = openerCentre(line, opener, width, u, gap, padding);
  const first = placeOpener(line[opener], centre, u);
  /** @type {(dir: number, rowDir: number) => Cursor} */
  const start = (dir, rowDir) => ({
    x: centre + dir * (first.w / 2 + gap), y: 0, dir, rowDir, prevAcross: first.h,
  });
  const rightTiles = line.slice(opener + 1).map(([a, b]) => [a, b]);
  const leftTiles = line.slice(0, opener).reverse().map(([a, b]) => [b, a]);
  const right = walkArm(rightTiles, start(1, 1), bounds, u, gap);
  const left = walkArm(leftTiles, start(-1, -1), bounds, u, gap);
  const tiles = [
    ...left.placed.map((tile, i) => ({ ...tile, index: opener - 1 - i })),
    { ...first, index: opener },
    ...right.placed.map((tile, i) => ({ ...tile, index: opener + 1 + i })),
  ].sort((p, q) => p.index - q.index);
  const slots = {
    left: nextSlot(left.cursor, bounds, u, gap, line[0][0]),
    right: nextSlot(right.cursor, bounds, u, gap, line[line.length - 1][1]),
  };
  return finish(tiles, slots, padding);
}

/**
 * Shift everything so the top is at `padding`; report the height used.
 * @param {PlacedTile[]} tiles
 * @param {{left: Box, right: Box}} slots
 * @param {number} padding
 * @returns {Layout}
 */
function finish(tiles, slots, padding) {
  const boxes = [...tiles, slots.left, slots.right];
  const top = Math.min(...boxes.map((box) => box.y));
  const bottom = Math.max(...boxes.map((box) => box.y + box.h));
  const shift = padding - top;
  /** @type {<T extends Box>(box: T) => T} */
  const move = (box) => ({ ...box, y: box.y + shift });
  return {
    tiles: tiles.map(move),
    slots: { left: move(slots.left), right: move(slots.right) },
    height: bottom - top + 2 * padding,
  };
}

/**
 * The largest tile size (u, whole pixels, between min and max) whose layout
 * fits `maxHeight`; the smallest one when none does. The width always fits.
 * @param {readonly Pair[]} line
 * @param {{width: number, maxHeight: number, opener?: number, min?: number, max?: number, big?: number, gap?: number}} options
 * @returns {Layout & {u: number}}
 */
export function fitLine(line, { width, maxHeight, opener = 0, min = 12, max = 30, big = max, gap = 2 }) {
  // A short line is drawn larger (up to `big`), as long as it stays one
  // straight row, its glowing ends included, within the height.
  for (let u = big; u > max; u -= 1) {
    const layout = layoutLine(line, { width, u, gap, opener });
    if (!layout.tiles.some((tile) => tile.turn) && straight(layout) && layout.height <= maxHeight) return { ...layout, u };
  }
  const widest = Math.max(min, Math.floor(width / 12));
  let u = Math.min(max, widest);
  let layout = layoutLine(line, { width, u, gap, opener });
  while (u > min && layout.height > maxHeight) {
    u -= 1;
    layout = layoutLine(line, { width, u, gap, opener });
  }
  return { ...layout, u };
}

/**
 * True when the tiles and both drop spots lie on one row (nothing turned).
 * @param {Layout} layout
 */
function straight(layout) {
  const boxes = [...layout.tiles, layout.slots.left, layout.slots.right];
  /** @param {Box} box */
  const mid = (box) => box.y + box.h / 2;
  const row = mid(boxes[0]);
  return boxes.every((box) => Math.abs(mid(box) - row) < 0.5);
}
