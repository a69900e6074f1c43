// The site's charts (docs/charts.md): each <figure data-chart="ID"> holds its
// data as JSON (Django's json_script, <script id="ID">) and a text alternative
// (its caption, a table); this draws the picture with the vendored uPlot
// (static/vendor/uplot/, a classic script loaded before this module). Nothing
// here is text for people: the labels come translated in the JSON, the dates
// and numbers are formatted in the page's language by the browser.

/**
 * The JSON of a chart (built by the pages' selectors).
 * @typedef {object} ChartSeries
 * @property {string} label
 * @property {(number | null)[]} values one per x, null where the series has no point
 * @property {boolean} [points] points only, no line (the marked mistakes)
 * @property {"line" | "steps"} [path]
 *
 * @typedef {object} ChartData
 * @property {"bars"} [kind] stacked bars, one bar per category (the results by variant); else lines
 * @property {string[]} [categories] the bars' labels, one per x (x are 0, 1, ...)
 * @property {boolean} time x values are Unix seconds
 * @property {number[]} x
 * @property {ChartSeries[]} series
 * @property {string} y_label
 * @property {string} [x_label]
 * @property {(number | null)[]} [goto] the replay step to open when a point is chosen (the review)
 */

const COLOURS = ["#1f5f46", "#d9822b", "#3b6ea5", "#8a3b9c", "#b3261e"];
const MARK = "#b3261e";

/**
 * The unit of a chart, above the picture and level with it (a rotated axis
 * label is cut short on a phone).
 * @param {HTMLElement} box
 * @param {string} text
 */
function addUnit(box, text) {
  const unit = document.createElement("p");
  unit.className = "chart-unit muted small";
  unit.textContent = text;
  box.append(unit);
}

/** @param {string} id @returns {ChartData | null} */
function readData(id) {
  const script = document.getElementById(id);
  if (!script || !script.textContent) return null;
  return /** @type {ChartData} */ (JSON.parse(script.textContent));
}

/** @param {ChartData} data @returns {number} the points drawn (marks apart) */
export function countPoints(data) {
  let n = 0;
  for (const series of data.series) {
    if (series.points) continue;
    for (const value of series.values) if (value !== null) n += 1;
  }
  return n;
}

/** @param {ChartData} data */
function countMarks(data) {
  let n = 0;
  for (const series of data.series) {
    if (!series.points) continue;
    for (const value of series.values) if (value !== null) n += 1;
  }
  return n;
}

// The stacked bars' colours, bottom up (wins, draws, losses).
const BAR_COLOURS = ["#1f5f46", "#8a8f8c", "#b3261e"];

/**
 * Stacked bars (the results by variant): each series' values stacked on the
 * ones before it, drawn top series first so that each lower one covers its
 * part of the bar; the key lists them top down, as the bar reads.
 * @param {HTMLElement} box
 * @param {ChartData} data
 * @param {string} ink
 * @param {number} width
 * @param {number} height
 * @returns {uPlot | undefined}
 */
function drawBars(box, data, ink, width, height) {
  const uPlot = window.uPlot;
  if (!uPlot) return;
  const lang = document.documentElement.lang || "en";
  const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  const categories = data.categories || [];
  const sums = data.x.map(() => 0);
  const stacked = data.series.map((item) => item.values.map((v, i) => (sums[i] += v || 0)));
  const order = data.series.map((_item, index) => index).reverse();
  const bars = uPlot.paths.bars?.({ size: [0.6, 64], align: 0 });
  /** @type {uPlot.Series[]} */
  const series = [{ label: data.x_label }];
  for (const index of order) {
    const colour = BAR_COLOURS[index % BAR_COLOURS.length];
    series.push({ label: data.series[index].label, stroke: colour, fill: colour, width: 0, paths: bars, points: { show: false } });
  }
  addUnit(box, data.y_label);
  /** @type {uPlot.Options} */
  const options = {
    width,
    height: height + 30,
    series,
    legend: { show: true, live: false },
    // Half a step either side of the bars (fixed: uPlot's own x range would put a lone bar at an edge).
    scales: {
      x: { time: false, auto: false, range: [-0.5, data.x.length - 0.5] },
      y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
    },
    cursor: { show: false, drag: { x: false, y: false } },
    axes: [
      {
        stroke: ink,
        splits: () => data.x,
        // A label on two lines ("Block game," / "2 players") fits a phone's bar.
        values: (_u, splits) => splits.map((v) => (categories[v] || "").replace(", ", ",\n")),
        size: 44,
      },
      {
        stroke: ink,
        values: (_u, splits) => splits.map((v) => numbers.format(v)),
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000],
        size: 50,
      },
    ],
  };
  return new uPlot(options, [data.x, ...order.map((index) => stacked[index])], box);
}

/** The muted ink of the page (its axes follow a dark theme too). */
function style() {
  return getComputedStyle(document.documentElement).getPropertyValue("--muted").trim() || "#5d6763";
}

/**
 * @param {HTMLElement} figure
 * @param {HTMLElement} box where the picture goes
 * @param {ChartData} data
 * @returns {uPlot | undefined}
 */
function draw(figure, box, data) {
  const uPlot = window.uPlot;
  if (!uPlot) return;
  const lang = document.documentElement.lang || "en";
  const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  // Dates; hours when the chart spans less than two days, seconds too under an hour.
  const span = data.x.length > 1 ? data.x[data.x.length - 1] - data.x[0] : 0;
  /** @type {Intl.DateTimeFormatOptions} */
  const when = span >= 2 * 86400
    ? { day: "numeric", month: "short" }
    : span >= 3600
      ? { hour: "2-digit", minute: "2-digit" }
      : { hour: "2-digit", minute: "2-digit", second: "2-digit" };
  const dates = new Intl.DateTimeFormat(lang, when);
  const ink = style();
  const width = Math.max(240, box.clientWidth || figure.clientWidth || 320);
  const height = width < 500 ? 180 : 240;
  if (data.kind === "bars") {
    const plot = drawBars(box, data, ink, width, height);
    if (!plot) return;
    resizeWith(box, plot, 30);
    return finish(figure, data, plot);
  }
  // Whole numbers (moves, ratings, chips, levels) get whole ticks.
  const whole = data.series.every((item) => item.values.every((v) => v === null || Number.isInteger(v)));
  const steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
  /** @type {uPlot.Series[]} */
  const series = [{ label: data.x_label }];
  data.series.forEach((item, index) => {
    const colour = item.points ? MARK : COLOURS[index % COLOURS.length];
    series.push({
      label: item.label,
      stroke: colour,
      width: item.points ? 0 : 2,
      spanGaps: !item.points,
      paths: item.points ? () => null : item.path === "steps" ? uPlot.paths.stepped?.({ align: 1 }) : undefined,
      points: item.points
        ? { show: true, size: 12, stroke: colour, fill: colour }
        : { show: true, size: 6, stroke: colour, fill: colour },
    });
  });
  addUnit(box, data.y_label);
  /** @type {uPlot.Options} */
  const options = {
    width,
    height,
    series,
    // A key of the lines' colours (no live values: the tables below have them).
    legend: { show: data.series.length > 1, live: false },
    scales: { x: { time: data.time } },
    cursor: { drag: { x: false, y: false } },
    axes: [
      {
        stroke: ink,
        values: (_u, splits) => splits.map((v) => (data.time ? dates.format(new Date(v * 1000)) : numbers.format(v))),
        incrs: data.time ? undefined : [1, 2, 5, 10, 20, 50, 100],
        label: data.x_label,
      },
      {
        stroke: ink,
        values: (_u, splits) => splits.map((v) => numbers.format(v)),
        incrs: whole ? steps : undefined,
        size: 50,
      },
    ],
  };
  const plot = new uPlot(options, [data.x, ...data.series.map((item) => item.values)], box);
  const goto = data.goto;
  if (goto) {
    // A point chosen on the chart opens its position on the replay (as its link below does).
    plot.over.addEventListener("click", () => {
      const index = plot.cursor.idx;
      const step = index === null || index === undefined ? null : goto[index];
      if (step === null || step === undefined) return;
      /** @type {HTMLElement | null} */
      const link = document.querySelector(`[data-replay-moves] [data-goto="${step}"]`);
      link?.click();
      document.querySelector("[data-replay]")?.scrollIntoView({ behavior: "smooth" });
    });
  }
  resizeWith(box, plot, 0);
  return finish(figure, data, plot);
}

/** A chart as wide as its column. @param {HTMLElement} box @param {uPlot} plot @param {number} extra */
function resizeWith(box, plot, extra) {
  new ResizeObserver(() => {
    const now = Math.max(240, box.clientWidth || 320);
    if (Math.abs(now - plot.width) > 4) plot.setSize({ width: now, height: (now < 500 ? 180 : 240) + extra });
  }).observe(box);
}

/**
 * What was drawn, read back from the chart (the tests count it against the JSON).
 * @param {HTMLElement} figure @param {ChartData} data @param {uPlot} plot @returns {uPlot}
 */
function finish(figure, data, plot) {
  let drawn = 0;
  plot.data.slice(1).forEach((values, index) => {
    // The bars' series are drawn in reverse order: none of them is a mark.
    const item = data.kind === "bars" ? null : data.series[index];
    if (!item || !item.points) drawn += Array.from(values).filter((v) => v !== null && v !== undefined).length;
  });
  figure.dataset.chartPoints = String(drawn);
  figure.dataset.chartMarks = String(countMarks(data));
  figure.dataset.chartDrawn = "";
  return plot;
}

/** Draw every chart under ``root`` not drawn yet. @param {ParentNode} [root] */
export function drawCharts(root = document) {
  for (const figure of root.querySelectorAll("figure[data-chart]")) {
    if (!(figure instanceof HTMLElement) || "chartDrawn" in figure.dataset) continue;
    const data = readData(figure.dataset.chart || "");
    /** @type {HTMLElement | null} */
    const box = figure.querySelector("[data-chart-picture]");
    if (data && box) draw(figure, box, data);
  }
}

drawCharts();
