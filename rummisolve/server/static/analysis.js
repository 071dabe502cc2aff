// The analysis board: enter a position (tile picker, notation or JSON), solve it, see the move.
import { alternativeLabel, renderAlternatives } from "./analysis-alternatives.js";
import { diceFields, fitDice, renderDicePicker, renderReroll } from "./analysis-dice.js";
import { exportLinks } from "./analysis-export.js";
import { colourWords, isBadTile, knownCodes, meldProblem, positionProblems, problemWords, showProblems } from "./analysis-check.js";
import { renderStepTable } from "./analysis-steps.js";
import { $, api, colourName, el, formatTable, formatTiles, loadMeta, loadTileSet, parseTable, parseTiles, RulesForm, showMessage, tileElement, wait } from "./common.js";
import { has, lang, num, t } from "./words.js";

// The explanation's sentence for a step is the server's, in English: other languages show the step alone.
const stepText = (step) => (lang === "en" ? step.text : null);

const state = { table: [], rack: [], dice: [], target: "rack", tiles: null, problems: [], result: null, shown: null, step: -1, playing: false };
let meta;
let rulesForm;

function setMessage(text, kind = "info") {
  showMessage($("input-message"), text, kind);
}

function position() {
  const rules = rulesForm.value();
  const out = { rules, table: state.table.filter((m) => m.length), rack: [...state.rack], opened: $("opened").checked, objective: $("objective").value,
    ...diceFields(meta, rules, state.rack, state.dice) };
  const limit = Number($("time-limit").value);
  if ($("time-limit").value !== "" && limit > 0) out.time_limit = limit;
  return out;
}

let checks = 0;

/** Check the position as Solve would and list every problem at once (none: nothing shown); bad
 * tiles and melds are drawn as bad, and while there are problems the result panel is hidden. */
async function checkPosition(given = position()) {
  const mine = ++checks;
  const problems = await positionProblems(given);
  if (mine !== checks) return;
  state.problems = problems;
  showPositionError(problems);
  renderEditor();
}

function showPositionError(problems) {
  showProblems($("position-error"), problems);
  $("result-panel").classList.toggle("hidden", problems.length > 0);
}

function used() {
  const counts = new Map();
  for (const code of [...state.table.flat(), ...state.rack]) counts.set(code, (counts.get(code) || 0) + 1);
  return counts;
}

// -- the editor ------------------------------------------------------------------------------------

function renderPicker() {
  const box = $("picker");
  box.replaceChildren();
  if (!state.tiles) return;
  const counts = used();
  const rows = new Map();
  for (const tile of state.tiles.tiles) {
    const key = tile.joker ? "joker" : tile.colour;
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push(tile);
  }
  for (const [key, tiles] of rows) {
    const row = el("div", { class: "picker-row", role: "group", "aria-label": key === "joker" ? t("tile.jokers") : colourName(key, meta) });
    for (const tile of tiles) {
      const left = tile.copies - (counts.get(tile.code) || 0);
      const button = tileElement(tile.code, meta, { button: true });
      button.append(el("span", { class: "count", "aria-hidden": "true", text: String(left) }));
      button.setAttribute("aria-label", t("board.add_tile", { tile: button.getAttribute("aria-label"), n: left }));
      button.disabled = left <= 0;
      button.addEventListener("click", () => addTile(tile.code));
      row.append(button);
    }
    box.append(row);
  }
}

function addTile(code) {
  if (state.target === "rack") { state.rack.push(code); state.dice.push(""); }
  else {
    if (!state.table[state.target]) state.table[state.target] = [];
    state.table[state.target].push(code);
  }
  changed();
}

function renderEditor() {
  const known = knownCodes(state.tiles);
  const table = $("edit-table");
  table.replaceChildren();
  state.table.forEach((meld, i) => {
    const box = el("div", {
      class: `meld${state.target === i ? " current-target" : ""}`,
      "data-testid": "edit-meld",
      "data-edit-meld": i,
      tabindex: 0,
      role: "button",
      "aria-label": t("board.meld_aria", { n: i + 1, tiles: formatTiles(meld) || t("board.empty") }),
      onclick: (event) => { if (event.target === box || event.target.classList.contains("meld-no")) { state.target = i; changed(false); } },
      onkeydown: (event) => { if ((event.key === "Enter" || event.key === " ") && event.target === box) { event.preventDefault(); state.target = i; changed(false); } },
    }, el("span", { class: "meld-no", text: String(i + 1) }));
    const problem = meldProblem(i, state.problems);
    if (problem) { box.classList.add("bad-meld"); box.title = problemWords(problem); box.dataset.bad = "true"; }
    meld.forEach((code, j) => {
      const tile = tileElement(code, meta, { button: true, bad: isBadTile(code, i, j, known, state.problems) });
      tile.setAttribute("aria-label", t("board.remove_from_meld", { tile: tile.getAttribute("aria-label"), n: i + 1 }));
      tile.addEventListener("click", () => { meld.splice(j, 1); changed(); });
      box.append(tile);
    });
    table.append(box);
  });
  if (!state.table.length) table.append(el("span", { class: "empty", text: t("board.table_empty_start") }));
  const rack = $("edit-rack");
  rack.replaceChildren();
  state.rack.forEach((code, j) => {
    const tile = tileElement(code, meta, { button: true, bad: isBadTile(code, null, j, known, state.problems) });
    tile.setAttribute("aria-label", t("board.remove_from_rack", { tile: tile.getAttribute("aria-label") }));
    tile.addEventListener("click", () => { state.rack.splice(j, 1); state.dice.splice(j, 1); changed(); });
    rack.append(tile);
  });
  if (!state.rack.length) rack.append(el("span", { class: "empty", text: t("board.rack_empty") }));
  rack.classList.toggle("current-target", state.target === "rack");
  $("target-note").textContent = state.target === "rack" ? t("board.target_rack") : t("board.target_meld", { n: state.target + 1 });
  $("to-rack").disabled = state.target === "rack";
  state.dice = fitDice(meta, state.rack, state.dice);
  renderDicePicker(meta, rulesForm.value(), state.rack, state.dice, () => { renderEditor(); syncFields(); });
}

function changed(syncText = true) {
  // Empty melds other than the current target disappear.
  state.table = state.table.filter((m, i) => m.length || i === state.target);
  state.problems = []; // they named places that may have moved: checked again below while shown
  if (typeof state.target === "number" && state.target >= state.table.length) state.target = "rack";
  renderEditor();
  renderPicker();
  if (syncText) syncFields();
  // Applied notation or JSON is checked at once (see the buttons); after that, while an error shows,
  // every edit checks again, so the error goes as soon as the position is fixed. Entering a meld
  // tile by tile is not nagged about its first tiles.
  if ($("position-error").textContent) checkPosition();
}

function syncFields() {
  $("table-notation").value = formatTable(state.table.filter((m) => m.length));
  $("rack-notation").value = formatTiles(state.rack);
  $("position-json").value = JSON.stringify(position());
}

async function rulesChanged() {
  try {
    state.tiles = await loadTileSet(rulesForm.value());
    $("notation-colours").textContent = colourWords(state.tiles, meta);
    setMessage("");
  } catch (err) {
    state.tiles = null;
    setMessage(err.message, "bad");
  }
  renderPicker();
  renderEditor(); // the tiles the new rules lack are drawn as bad
  syncFields();
  if ($("position-error").textContent) checkPosition();
}

function loadPosition(obj) {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) throw new Error(t("board.not_object"));
  rulesForm.set(obj.rules ?? "standard");
  state.table = Array.isArray(obj.table) ? obj.table.map((m) => (Array.isArray(m) ? m.map(String) : [])) : [];
  state.rack = Array.isArray(obj.rack) ? obj.rack.map(String) : [];
  state.dice = Array.isArray(obj.dice) ? obj.dice.map((d) => (typeof d === "string" ? d.toUpperCase() : "")) : [];
  $("reroll").checked = Boolean(obj.reroll);
  $("opened").checked = obj.opened !== false;
  if (obj.objective) $("objective").value = obj.objective;
  $("time-limit").value = obj.time_limit ?? "";
  state.target = "rack";
}

// -- solving and the result ----------------------------------------------------------------------

async function solve() {
  const pos = position();
  setMessage(t("board.solving"));
  $("solve").disabled = true;
  history.replaceState(null, "", `/?position=${encodeURIComponent(JSON.stringify(pos))}`);
  const alternatives = Number($("alternatives").value);
  const mode = $("alternatives-mode").value;
  const request = { ...pos, explain: true, ...(alternatives ? { alternatives, alternatives_mode: mode } : {}) };
  try {
    const response = await api("/solve", request);
    const result = response.data;
    state.result = result;
    state.position = pos;
    if (!response.ok || result.status === "error") {
      showError(result.error || `HTTP ${response.status}`);
      return;
    }
    setMessage("");
    showResult(result, true);
    // On a narrow screen the answer is below the editor: bring it into view.
    if (window.matchMedia("(max-width: 900px)").matches) $("result-panel").scrollIntoView({ block: "start" });
  } finally {
    $("solve").disabled = false;
  }
}

function showError(message) {
  $("result-empty").classList.add("hidden");
  $("result").classList.remove("hidden");
  $("status").textContent = t("status.error");
  $("status").className = "status-word error";
  $("status-words").textContent = message;
  $("played").textContent = "";
  $("value").textContent = "";
  for (const id of ["result-table", "result-rack", "steps", "alternatives-list", "timings"]) $(id).replaceChildren();
  $("reroll-box").classList.add("hidden");
  setMessage(message, "bad");
}

/** Tiles played and moved into each new meld, from the steps: [{played: Map, moved: Map}] by meld. */
function marksByMeld(move) {
  const marks = move.table.map(() => ({ played: new Map(), moved: new Map() }));
  for (const step of move.steps || []) {
    const mark = marks[step.to];
    if (!mark) continue;
    const kind = step.from === "rack" ? mark.played : mark.moved;
    kind.set(step.tile, (kind.get(step.tile) || 0) + 1);
  }
  return marks;
}

/** Show ``move``: the result itself (``main``: also list its alternatives) or its alternative ``index`` (from 1). */
function showResult(move, main, index = 0) {
  state.shown = move;
  state.step = -1;
  $("result-empty").classList.add("hidden");
  $("result").classList.remove("hidden");
  $("status").textContent = t(`status.${move.status}`);
  $("status").className = `status-word ${move.status}`;
  $("status-words").textContent = index ? "" : t(`status.${move.status}.words`);
  $("result-title").textContent = index ? t("alt.title", { n: index }) : t("board.best_move");
  if (index) $("status-words").append(el("span", { "data-testid": "alternative-label", text: alternativeLabel(state.result, index) }));
  renderReroll(state.result, state.position); // the position's, whichever move is shown
  $("played").textContent = formatTiles(move.played || []);
  $("value").textContent = move.played && move.played.length ? `(${t("count.tiles", { n: move.tiles_played })}, ${t("count.points", { n: move.value })})` : "";
  renderResultTable(move);
  const rackLeft = [...state.position.rack];
  for (const code of move.played || []) {
    const i = rackLeft.indexOf(code);
    if (i >= 0) rackLeft.splice(i, 1);
  }
  $("result-rack").replaceChildren(...rackLeft.map((c) => tileElement(c, meta)));
  if (!rackLeft.length) $("result-rack").append(el("span", { class: "empty", text: t("board.rack_left_empty") }));
  renderSteps(move);
  if (main) {
    $("alternatives-box").classList.toggle("hidden", state.result.alternatives === undefined);
    renderAlternatives($("alternatives-list"), state.result, (shown, i) => showResult(shown, false, i));
  }
  const timings = state.result.timings || {};
  $("timings").replaceChildren(...Object.entries(timings).map(([k, v]) => el("tr", {}, el("td", { text: has(`timing.${k}`) ? t(`timing.${k}`) : k }), el("td", { text: `${num(v * 1000, 1)} ms` }))));
  exportLinks(move, state.position);
}

function renderResultTable(move) {
  const box = $("result-table");
  box.replaceChildren();
  const kept = (move.kept || []).length;
  const continued = new Set((move.meld_map || []).filter((i) => i !== null));
  const marks = marksByMeld(move);
  state.stepTiles = [];
  const elements = [];
  move.table.forEach((meld, i) => {
    const kind = i < kept ? "" : continued.has(i) ? " changed" : " new";
    const meldBox = el("div", { class: `meld${kind}`, "data-result-meld": i, "aria-label": t(kind === " new" ? "board.meld_new" : kind ? "board.meld_rearranged" : "board.meld_n", { n: i + 1 }) }, el("span", { class: "meld-no", text: String(i + 1) }));
    const left = { played: new Map(marks[i].played), moved: new Map(marks[i].moved) };
    const tiles = meld.map((code) => {
      let cls = "";
      if ((left.played.get(code) || 0) > 0) { cls = "played"; left.played.set(code, left.played.get(code) - 1); }
      else if ((left.moved.get(code) || 0) > 0) { cls = "moved"; left.moved.set(code, left.moved.get(code) - 1); }
      const tile = tileElement(code, meta, { extraClass: cls });
      meldBox.append(tile);
      return tile;
    });
    elements.push(tiles);
    box.append(meldBox);
  });
  if (!move.table.length) box.append(el("span", { class: "empty", text: t("board.table_empty") }));
  // Each step's tile element: the first unclaimed tile of its code in its meld.
  const claimed = new Set();
  for (const step of move.steps || []) {
    const tile = (elements[step.to] || []).find((t) => t.dataset.tile === step.tile && !claimed.has(t));
    if (tile) claimed.add(tile);
    state.stepTiles.push(tile || null);
  }
}

function renderSteps(move) {
  const list = $("steps");
  list.replaceChildren();
  const steps = move.steps || [];
  let lastText = null;
  steps.forEach((step, i) => {
    const where = step.from === "rack" ? t("step.from_rack", { to: step.to + 1 }) : t("step.from_meld", { from: step.from + 1, to: step.to + 1 });
    const why = stepText(step);
    const item = el("li", { "data-testid": "step", "data-step": i },
      el("strong", { text: step.tile }), ` ${where}`,
      why !== lastText ? el("div", { class: "muted", text: why }) : null);
    lastText = why;
    item.addEventListener("click", () => goToStep(i));
    list.append(item);
  });
  if (!steps.length) list.append(el("li", { class: "muted", text: move.status === "no_move" ? t("step.no_move") : t("step.none") }));
  $("step-prev").disabled = $("step-next").disabled = $("step-play").disabled = !steps.length;
}

function goToStep(i) {
  const steps = (state.shown && state.shown.steps) || [];
  state.step = Math.max(-1, Math.min(i, steps.length - 1));
  document.querySelectorAll("#steps li").forEach((li, k) => li.classList.toggle("current", k === state.step));
  (state.stepTiles || []).forEach((tile, k) => tile && tile.classList.toggle("stepping", k === state.step));
  const current = document.querySelector("#steps li.current");
  if (current) current.setAttribute("aria-current", "step");
  renderStepTable($("step-table"), state.position.table, state.shown, state.step, meta);
}

async function playSteps() {
  if (state.playing) { state.playing = false; return; }
  state.playing = true;
  $("step-play").textContent = t("board.stop");
  const steps = (state.shown && state.shown.steps) || [];
  for (let i = 0; i < steps.length && state.playing; i++) {
    goToStep(i);
    await wait(900);
  }
  state.playing = false;
  $("step-play").textContent = t("board.play_all");
}

// -- start ---------------------------------------------------------------------------------------

async function main() {
  meta = await loadMeta();
  rulesForm = new RulesForm($("rules"), meta, rulesChanged, { positionOnly: true });
  for (const objective of meta.objectives) $("objective").append(el("option", { value: objective, text: t(`objective.${objective}`) }));
  $("new-meld").addEventListener("click", () => { state.table.push([]); state.target = state.table.length - 1; changed(); });
  $("to-rack").addEventListener("click", () => { state.target = "rack"; changed(false); });
  $("edit-rack").addEventListener("click", (event) => { if (event.target.id === "edit-rack") { state.target = "rack"; changed(false); } });
  $("apply-notation").addEventListener("click", () => {
    state.table = parseTable($("table-notation").value);
    state.rack = parseTiles($("rack-notation").value);
    state.target = "rack";
    setMessage("");
    changed();
    checkPosition();
  });
  $("apply-json").addEventListener("click", async () => {
    let obj;
    try {
      obj = JSON.parse($("position-json").value);
      loadPosition(obj);
    } catch (err) {
      showPositionError([{ part: "position", meld: null, slot: null, text: t("board.not_position", { error: err.message }) }]);
      return;
    }
    await rulesChanged();
    setMessage("");
    changed();
    await checkPosition(obj); // as given: a part the board cannot show is named too
  });
  for (const id of ["opened", "objective", "time-limit", "reroll"]) $(id).addEventListener("change", syncFields);
  $("solve").addEventListener("click", solve);
  $("clear").addEventListener("click", () => { state.table = []; state.rack = []; state.dice = []; state.target = "rack"; changed(); });
  $("copy-link").addEventListener("click", async () => {
    const url = `${location.origin}/?position=${encodeURIComponent(JSON.stringify(position()))}`;
    history.replaceState(null, "", url);
    try { await navigator.clipboard.writeText(url); setMessage(t("board.link_copied"), "good"); } catch { setMessage(t("board.link", { url })); }
  });
  $("step-prev").addEventListener("click", () => goToStep(state.step - 1));
  $("step-next").addEventListener("click", () => goToStep(state.step + 1));
  $("step-play").addEventListener("click", playSteps);

  const shared = new URLSearchParams(location.search).get("position");
  let solveNow = false;
  if (shared) {
    try {
      loadPosition(JSON.parse(shared));
      solveNow = true;
    } catch (err) {
      setMessage(t("board.bad_link", { error: err.message }), "bad");
    }
  }
  await rulesChanged();
  changed();
  document.body.dataset.ready = "true";
  if (solveNow) await solve();
}

main();
