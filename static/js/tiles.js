// SVG drawing of a domino tile for the browser: the same markup as
// games/pages/tiles_svg.py renders on the server (games/tests/test_tiles_agree.py
// renders every tile both ways and compares them). `tileParts` describes the
// markup without the DOM (so node can load this module); `tileSvg` builds it.

/** @typedef {[number, number]} Pair a tile as two numbers 0-6, in any order */
/**
 * @typedef {object} Part an SVG element to draw
 * @property {string} name
 * @property {Record<string, string>} attrs
 * @property {Part[]} children
 */

/** @type {Record<number, ReadonlyArray<readonly [number, number]>>} Pip centres in a 100 x 100 half, for each number. */
export const PIP_LAYOUT = {
  0: [],
  1: [[50, 50]],
  2: [[27, 27], [73, 73]],
  3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]],
};
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The one key of a tile, "low-high" ("3-5" for [5, 3]): the `data-tile` of the
 * hand, the `data-line-tile` of the line, the tiles of `legal` compared.
 * @param {readonly number[]} tile
 * @returns {string}
 */
export function tileKey([a, b]) {
  return `${Math.min(a, b)}-${Math.max(a, b)}`;
}

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @param {Part[]} [children]
 * @returns {Part}
 */
function part(name, attrs, children = []) {
  return { name, attrs: Object.fromEntries(Object.entries(attrs).map(([key, value]) => [key, String(value)])), children };
}

/**
 * The markup of the tile a|b, a on the left (or top when vertical), as data.
 * @param {number} a
 * @param {number} b
 * @param {{vertical?: boolean, label?: string}} [options]
 * @returns {Part}
 */
export function tileParts(a, b, { vertical = false, label = "" } = {}) {
  if (!(a in PIP_LAYOUT && b in PIP_LAYOUT)) throw new RangeError(`not a double-six tile: ${a}-${b}`);
  const [width, height] = vertical ? [100, 200] : [200, 100];
  const [dx, dy] = vertical ? [0, 100] : [100, 0];
  /** @type {(number: number, x0: number, y0: number) => Part[]} */
  const pips = (number, x0, y0) => PIP_LAYOUT[number].map(([x, y]) => part("circle", { cx: x + x0, cy: y + y0, r: 9 }));
  return part("svg", { class: "tile-svg", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label || `${a}-${b}` }, [
    part("rect", { x: 2, y: 2, width: width - 4, height: height - 4, rx: 14, class: "tile-face" }),
    vertical
      ? part("line", { x1: 12, y1: 100, x2: 88, y2: 100, class: "tile-divider" })
      : part("line", { x1: 100, y1: 12, x2: 100, y2: 88, class: "tile-divider" }),
    part("g", { class: "tile-pips" }, [...pips(a, 0, 0), ...pips(b, dx, dy)]),
  ]);
}

/**
 * @param {Part} description
 * @returns {SVGElement}
 */
function build({ name, attrs, children }) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value);
  element.append(...children.map(build));
  return element;
}

/**
 * An <svg> of the tile a|b, a on the left (or top when vertical).
 * @param {number} a
 * @param {number} b
 * @param {{vertical?: boolean, label?: string}} [options]
 * @returns {SVGElement}
 */
export function tileSvg(a, b, options = {}) {
  return build(tileParts(a, b, options));
}

/**
 * A <span class="tile"> wrapping the SVG, with the data-tile hook.
 * @param {number} a
 * @param {number} b
 * @param {{cross?: boolean, vertical?: boolean, label?: string}} [options]
 * @returns {HTMLSpanElement}
 */
export function tileElement(a, b, { cross = false, vertical = false, label = "" } = {}) {
  const span = document.createElement("span");
  span.className = cross ? "tile tile--cross" : "tile";
  span.dataset.tile = tileKey([a, b]);
  span.appendChild(tileSvg(a, b, { vertical: vertical || cross, label }));
  return span;
}
