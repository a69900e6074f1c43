// SVG drawing of a domino tile for the browser, the same picture as
// games/tiles_svg.py renders on the server (which references shared shapes
// with <use>; here each tile holds its own, so that the table's CSS can style
// one tile's face). Keep the two in step: sizes, pip layout, classes.
const PIP_LAYOUT = {
  0: [],
  1: [[50, 50]],
  2: [[27, 27], [73, 73]],
  3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]],
};
const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

// How the tiles show their numbers: "pips" (the default) or "numbers" (a
// digit in each half), a member's preference or a guest's switch at the table.
let faces = "pips";

export function setTileFaces(value) {
  faces = value === "numbers" ? "numbers" : "pips";
}

export const tileFaces = () => faces;

/** An <svg> of the tile a|b, a on the left (or top when vertical). */
export function tileSvg(a, b, { vertical = false, label = "" } = {}) {
  const [width, height] = vertical ? [100, 200] : [200, 100];
  const svg = svgElement("svg", { class: "tile-svg", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label || `${a}-${b}` });
  svg.appendChild(svgElement("rect", { x: 2, y: 2, width: width - 4, height: height - 4, rx: 14, class: "tile-face" }));
  svg.appendChild(vertical
    ? svgElement("line", { x1: 12, y1: 100, x2: 88, y2: 100, class: "tile-divider" })
    : svgElement("line", { x1: 100, y1: 12, x2: 100, y2: 88, class: "tile-divider" }));
  const [dx, dy] = vertical ? [0, 100] : [100, 0];
  if (faces === "numbers") {
    const numbers = svgElement("g", { class: "tile-numbers", "aria-hidden": "true" });
    for (const [value, x, y] of [[a, 50, 50], [b, 50 + dx, 50 + dy]]) {
      const text = svgElement("text", { x, y: y + 2, "text-anchor": "middle", "dominant-baseline": "central" });
      text.textContent = String(value);
      numbers.appendChild(text);
    }
    svg.appendChild(numbers);
    return svg;
  }
  const pips = svgElement("g", { class: "tile-pips" });
  for (const [x, y] of PIP_LAYOUT[a]) pips.appendChild(svgElement("circle", { cx: x, cy: y, r: 9 }));
  for (const [x, y] of PIP_LAYOUT[b]) pips.appendChild(svgElement("circle", { cx: x + dx, cy: y + dy, r: 9 }));
  svg.appendChild(pips);
  return svg;
}

/** A <span class="tile"> wrapping the SVG, with the data-tile hook. */
export function tileElement(a, b, { cross = false, vertical = false, label = "" } = {}) {
  const span = document.createElement("span");
  span.className = cross ? "tile tile--cross" : "tile";
  span.dataset.tile = `${Math.min(a, b)}-${Math.max(a, b)}`;
  span.appendChild(tileSvg(a, b, { vertical: vertical || cross, label }));
  return span;
}
