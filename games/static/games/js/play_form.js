// The "play the computer" form: offer only the choices the chosen variant
// allows (the server checks them again). Data: #preset-limits, from
// games.forms.preset_limits(): {preset: {players: [..], pairs: bool, targets: [..]}}.
const form = document.getElementById("play-computer-form");
const limits = JSON.parse(document.getElementById("preset-limits").textContent);

function radios(name) {
  return Array.from(form.querySelectorAll(`input[name="${name}"]`));
}

// (Not the hidden attribute: the site's label styles set display.)
function show(element, visible) {
  element.style.display = visible ? "" : "none";
}

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
  teams.disabled = !limit.pairs;
  show(teams.closest("label"), limit.pairs);
  if (!limit.pairs) teams.checked = false;
  // Pairs are four players.
  keepAllowed("players", teams.checked ? [4] : limit.players);
  if (teams.checked) radios("players").find((input) => input.value === "4").checked = true;
  keepAllowed("target", limit.targets);
}

form.addEventListener("change", update);
update();
