// Forms that choose a game's rules (play the computer, a new private table):
// offer only the choices the chosen variant allows (the server checks them
// again). Each such form carries `data-rules-form`; the data is #preset-limits,
// from games.forms.preset_limits(): {preset: {players: [..], pairs: bool, targets: [..]}}.
const limits = JSON.parse(document.getElementById("preset-limits").textContent);
const infoScript = document.getElementById("variant-info"); // {preset: {summary, url}} (home form only)
const info = infoScript ? JSON.parse(infoScript.textContent) : {};

// (Not the hidden attribute: the site's label styles set display.)
function show(element, visible) {
  if (element) element.style.display = visible ? "" : "none";
}

function setUp(form) {
  const radios = (name) => Array.from(form.querySelectorAll(`input[name="${name}"]`));
  const labelOf = (input) => input.closest(".field") || input.closest("label");

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
    const limit = limits[form.elements.preset.value];
    if (!limit) return;
    const teams = form.elements.teams;
    if (teams) {
      teams.disabled = !limit.pairs;
      show(labelOf(teams), limit.pairs);
      if (!limit.pairs) teams.checked = false;
    }
    // Pairs are four players.
    const pairs = Boolean(teams && teams.checked);
    keepAllowed("players", pairs ? [4] : limit.players);
    if (pairs) radios("players").find((input) => input.value === "4").checked = true;
    keepAllowed("target", limit.targets);
    // The chosen variant in one line, with its section of the rules guide.
    const summary = form.querySelector("[data-variant-summary]");
    const about = info[form.elements.preset.value];
    if (summary && about) {
      summary.querySelector("span").textContent = about.summary;
      summary.querySelector("a").href = about.url;
    }
  }

  form.addEventListener("change", update);
  update();
}

document.querySelectorAll("form[data-rules-form]").forEach(setUp);
