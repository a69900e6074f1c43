// The puzzle page: tap a tile of the hand, then an end when it fits both;
// the answer is posted to the server, which alone knows the solution, and
// its reply (every text already translated) is shown. An inference puzzle
// (data-infer) is answered by choosing tiles (data-pick) and checking them.

/**
 * @typedef {{ text: string, best: boolean, result: string, chosen?: boolean }} AlternativeRow
 * @typedef {{ correct: boolean, verdict: string, steps: string[],
 *   alternatives: AlternativeRow[], rating_text?: string, streak_text?: string,
 *   streak?: { current: number, best: number, over: boolean }, error?: string }} SolveReply
 */

const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-puzzle]"));

/** @param {string} selector */
function find(selector) {
  const element = root && root.querySelector(selector);
  if (!(element instanceof HTMLElement)) throw new Error(`missing ${selector}`);
  return element;
}

if (root) {
  const form = /** @type {HTMLFormElement} */ (find("[data-solve-form]"));
  const infer = root.dataset.infer !== undefined;
  const choice = infer ? document.createElement("div") : find("[data-end-choice]");
  const error = find("[data-error]");
  /** @type {string | null} */
  let chosen = null;
  let done = false;

  /** @param {string} tile @param {string} end */
  const send = async (tile, end) => {
    if (done) return;
    if (infer) {
      /** @type {HTMLInputElement} */ (form.elements.namedItem("tiles")).value = tile;
    } else {
      /** @type {HTMLInputElement} */ (form.elements.namedItem("tile")).value = tile;
      /** @type {HTMLInputElement} */ (form.elements.namedItem("end")).value = end;
    }
    const response = await fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
    });
    /** @type {SolveReply} */
    const reply = await response.json();
    if (!response.ok) {
      error.textContent = reply.error || String(response.status);
      error.hidden = false;
      return;
    }
    done = true;
    error.hidden = true;
    choice.hidden = true;
    show(reply, tile);
  };

  /** @param {SolveReply} reply @param {string} tile */
  const show = (reply, tile) => {
    root.dataset.answered = reply.correct ? "correct" : "wrong";
    const verdict = find("[data-verdict]");
    verdict.textContent = reply.verdict;
    verdict.dataset.correct = String(reply.correct);
    find("[data-rating-change]").textContent = reply.rating_text || "";
    find("[data-streak-change]").textContent = reply.streak_text || "";
    if (reply.streak) {
      root.dataset.streakOver = String(reply.streak.over);
      const next = find("[data-next-puzzle]");
      if (reply.streak.over) next.textContent = next.dataset.restart || next.textContent;
    }
    const steps = root.querySelector("[data-solution]");
    if (steps) steps.replaceChildren(
      ...reply.steps.map((text) => {
        const item = document.createElement("li");
        item.textContent = text;
        return item;
      }),
    );
    const rows = find("[data-alternatives]");
    rows.replaceChildren(
      ...reply.alternatives.map((row) => {
        const item = document.createElement("li");
        item.textContent = row.text;
        item.dataset.result = row.result;
        if (row.best) item.dataset.best = "";
        if (row.chosen) item.dataset.chosen = "";
        return item;
      }),
    );
    for (const button of root.querySelectorAll("button[data-tile], button[data-pick], button[data-infer-submit]")) {
      if (button instanceof HTMLButtonElement) {
        button.disabled = true;
        if (button.dataset.tile === tile) button.dataset.chosen = "";
      }
    }
    find("[data-result]").hidden = false;
  };

  for (const button of root.querySelectorAll("button[data-tile][data-playable]")) {
    if (!(button instanceof HTMLButtonElement)) continue;
    button.addEventListener("click", () => {
      const tile = button.dataset.tile || "";
      const ends = (button.dataset.ends || "").split(" ").filter(Boolean);
      for (const other of root.querySelectorAll("button[data-selected]")) other.removeAttribute("data-selected");
      button.dataset.selected = "";
      if (ends.length === 1 || button.dataset.sameEnds !== undefined) {
        void send(tile, ends[0]);
        return;
      }
      chosen = tile;
      for (const end of choice.querySelectorAll("button[data-end]")) {
        if (end instanceof HTMLButtonElement) end.hidden = !ends.includes(end.dataset.end || "");
      }
      choice.hidden = false;
    });
  }
  for (const end of choice.querySelectorAll("button[data-end]")) {
    if (!(end instanceof HTMLButtonElement)) continue;
    end.addEventListener("click", () => {
      if (chosen) void send(chosen, end.dataset.end || "left");
    });
  }
  for (const pick of root.querySelectorAll("button[data-pick]")) {
    if (!(pick instanceof HTMLButtonElement)) continue;
    pick.addEventListener("click", () => {
      const on = pick.getAttribute("aria-pressed") !== "true";
      pick.setAttribute("aria-pressed", String(on));
      if (on) pick.dataset.selected = "";
      else pick.removeAttribute("data-selected");
    });
  }
  const check = root.querySelector("button[data-infer-submit]");
  if (check instanceof HTMLButtonElement) {
    check.addEventListener("click", () => {
      const chosen = [...root.querySelectorAll('button[data-pick][aria-pressed="true"]')]
        .map((pick) => (pick instanceof HTMLElement ? pick.dataset.pick || "" : ""))
        .filter(Boolean);
      void send(chosen.join(" "), "");
    });
  }
}
