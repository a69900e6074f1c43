// Forms that choose a game's rules (play the computer, a new private table):
// offer only the choices the chosen variant allows (the server checks them
// again). Each such form carries `data-rules-form`; the data is #preset-limits,
// from games.pages.forms.preset_limits(): {preset: {players: [..], pairs: bool, targets: [..]}}.

/** @typedef {{players: number[], pairs: boolean, targets: number[]}} Limit */

/** @type {Record<string, Limit>} */
const limits = JSON.parse(document.getElementById("preset-limits")?.textContent || "{}");
const infoScript = document.getElementById("variant-info"); // {preset: {summary, url}} (home form only)
/** @type {Record<string, {summary: string, url: string}>} */
const info = infoScript ? JSON.parse(infoScript.textContent || "{}") : {};

/**
 * (Not the hidden attribute: the site's label styles set display.)
 * @param {HTMLElement | null} element
 * @param {boolean} visible
 */
function show(element, visible) {
  if (element) element.style.display = visible ? "" : "none";
}

/** @param {HTMLFormElement} form */
function setUp(form) {
  /** @param {string} name @returns {HTMLInputElement[]} */
  const radios = (name) => Array.from(form.querySelectorAll(`input[name="${name}"]`));
  /** @param {HTMLElement} input @returns {HTMLElement | null} */
  const labelOf = (input) => input.closest(".field") || input.closest("label");
  // The variant (a <select>) and the pairs checkbox.
  const presetField = /** @type {{value: string} | null} */ (form.elements.namedItem("preset"));
  const teams = /** @type {HTMLInputElement | null} */ (form.elements.namedItem("teams"));

  /**
   * @param {string} name
   * @param {number[]} allowed
   */
  function keepAllowed(name, allowed) {
    const inputs = radios(name);
    for (const input of inputs) {
      const ok = allowed.includes(Number(input.value));
      input.disabled = !ok;
      show(input.closest("label"), ok);
    }
    const checked = inputs.find((input) => input.checked);
    if (!checked || checked.disabled) {
      const first = inputs.find((input) => !input.disabled);
      if (first) first.checked = true;
    }
  }

  function update() {
    const preset = presetField ? presetField.value : "";
    const limit = limits[preset];
    if (!limit) return;
    if (teams) {
      teams.disabled = !limit.pairs;
      show(labelOf(teams), limit.pairs);
      if (!limit.pairs) teams.checked = false;
    }
    // Pairs are four players.
    const pairs = Boolean(teams && teams.checked);
    keepAllowed("players", pairs ? [4] : limit.players);
    const four = radios("players").find((input) => input.value === "4");
    if (pairs && four) four.checked = true;
    keepAllowed("target", limit.targets);
    // The chosen variant in one line, with its section of the rules guide.
    const summary = form.querySelector("[data-variant-summary]");
    const about = info[preset];
    const text = summary && summary.querySelector("span");
    const link = summary && summary.querySelector("a");
    if (about && text && link) {
      text.textContent = about.summary;
      link.href = about.url;
    }
  }

  form.addEventListener("change", update);
  update();
}

document.querySelectorAll("form[data-rules-form]").forEach((form) => {
  if (form instanceof HTMLFormElement) setUp(form);
});
