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
 * @property {boolean} time x values are Unix seconds
 * @property {number[]} x
 * @property {ChartSeries[]} series
 * @property {string} y_label
 * @property {string} [x_label]
 * @property {(number | null)[]} [goto] the replay step to open when a point is chosen (the review)
 */

const COLOURS = ["#1f5f46", "#d9822b", "#3b6ea5", "#8a3b9c", "#b3261e"];
const MARK = "#b3261e";

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
  // The unit, above the picture and level (a rotated axis label is cut short on a phone).
  const unit = document.createElement("p");
  unit.className = "chart-unit muted small";
  unit.textContent = data.y_label;
  box.append(unit);
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
  new ResizeObserver(() => {
    const now = Math.max(240, box.clientWidth || 320);
    if (Math.abs(now - plot.width) > 4) plot.setSize({ width: now, height: now < 500 ? 180 : 240 });
  }).observe(box);
  // What was drawn, read back from the chart (the tests count it against the JSON).
  let drawn = 0;
  plot.data.slice(1).forEach((values, index) => {
    if (!data.series[index].points) drawn += Array.from(values).filter((v) => v !== null && v !== undefined).length;
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
