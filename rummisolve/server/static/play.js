// The play page: a game against the AIs. The server keeps the game (and judges every play); this page
// keeps only the human's tentative table for the turn being played.
import { api, el, formatTiles, loadMeta, RulesForm, sortTiles, tileElement, wait } from "./common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const AI_DELAY = Math.max(0, Number(params.get("delay") ?? 900)) || 0;

let meta;
let rulesForm;
let gameId = null;
let game = null; // the server's view of the game
let draft = null; // {table: [[tile]], rack: [tile], start, history}; a tile is {id, code, fromRack}
let selected = new Set();
let order = "colour";
let hintLevel = 0;
let hintTable = null;
let busy = false; // the AIs are moving
let pending = 0; // requests on their way
let badMelds = new Map(); // meld index -> reasons, after an illegal end of turn
let timerHandle = null;
let lastChanged = new Set(); // melds an AI turn changed, shown until the human edits
let nextId = 1;

// -- small helpers ---------------------------------------------------------------------------------

function say(text, kind = "info") {
  const box = $("message");
  box.textContent = text || "";
  box.className = `message ${text ? kind : ""}`;
}

const yourTurn = () => game && !game.finished && game.current === game.human && !busy && !pending;
const name = (seat) => game.players[seat].name;
const codes = (melds) => melds.map((m) => m.map((t) => t.code));
const sameMeld = (a, b) => a.length === b.length && a.every((c, i) => c === b[i]);

function describe(event) {
  if (!event) return "";
  const who = event.name || name(event.player);
  const you = event.player === game.human;
  if (event.type === "play") {
    const played = event.played && event.played.length ? formatTiles(event.played) : "nothing new (rearranged the table)";
    return `${who} ${you ? "play" : "plays"} ${played}${event.discard ? `, ${you ? "discard" : "discards"} ${event.discard}` : ""}`;
  }
  if (event.type === "draw") {
    if (event.source === "discard") return `${who} ${you ? "take" : "takes"} ${event.tile} from the discard pile`;
    if (event.tile === null && event.drew === 0) return `${who} ${you ? "pass" : "passes"} (the pool is empty)`;
    if (event.tile === null && event.drew === undefined) return `${who} ${you ? "pass" : "passes"} (the pool is empty)`;
    return `${who} ${you ? "draw" : "draws"}${you && event.tile ? ` ${event.tile}` : " a tile"}`;
  }
  if (event.type === "discard") return `${who} ${you ? "discard" : "discards"} ${event.tile}`;
  if (event.type === "timeout") return `${who} ${you ? "run" : "runs"} out of time and ${you ? "draw" : "draws"} ${event.drew ?? (event.tiles || []).length} penalty tiles`;
  return `${who}: ${event.type}`;
}

// -- the draft: the human's tentative table for this turn -----------------------------------------

function startDraft() {
  const tile = (code, fromRack) => ({ id: nextId++, code, fromRack });
  const table = game.table.map((m) => m.map((c) => tile(c, false)));
  draft = { table, rack: game.rack.map((c) => tile(c, true)), start: null, history: [] };
  draft.start = snapshot();
  selected = new Set();
  badMelds = new Map();
}

function snapshot() {
  return JSON.stringify({ table: draft.table, rack: draft.rack });
}

function restore(text) {
  const saved = JSON.parse(text);
  draft.table = saved.table;
  draft.rack = saved.rack;
}

function draftChanged() {
  const now = codes(draft.table);
  return now.length !== game.table.length || now.some((m, i) => !sameMeld(m, game.table[i]));
}

function findTile(id) {
  const r = draft.rack.findIndex((t) => t.id === id);
  if (r >= 0) return { where: draft.rack, index: r, tile: draft.rack[r] };
  for (const meld of draft.table) {
    const i = meld.findIndex((t) => t.id === id);
    if (i >= 0) return { where: meld, index: i, tile: meld[i] };
  }
  return null;
}

function arrange(meld) {
  // A run of one colour without jokers is kept in number order; anything else stays as placed.
  const parts = meld.map((t) => /^([A-Z])(\d+)$/.exec(t.code));
  if (parts.some((p) => !p)) return meld;
  const oneColour = parts.every((p) => p[1] === parts[0][1]);
  if (!oneColour) return meld;
  return [...meld].sort((a, b) => Number(/\d+/.exec(a.code)[0]) - Number(/\d+/.exec(b.code)[0]));
}

/** Move tiles (by id) to a meld (before a tile, or where they fit), a new meld, or back to the rack. */
function moveTiles(ids, dest) {
  if (!yourTurn() || !ids.length) return;
  const tiles = ids.map(findTile).filter(Boolean);
  if (dest.kind === "rack") {
    const fixed = tiles.find((f) => !f.tile.fromRack);
    if (fixed) {
      say(`${fixed.tile.code} was on the table when your turn began: table tiles stay on the table.`, "bad");
      return;
    }
  }
  const targetMeld = dest.kind === "meld" ? draft.table[dest.index] : null;
  if (dest.kind === "meld" && !targetMeld) return;
  draft.history.push(snapshot());
  for (const found of tiles.sort((a, b) => b.index - a.index)) found.where.splice(found.where.indexOf(found.tile), 1);
  const moving = tiles.map((f) => f.tile);
  if (dest.kind === "rack") draft.rack.push(...moving);
  else if (dest.kind === "new") draft.table.push(arrange(moving));
  else {
    const at = dest.before === null || dest.before === undefined ? -1 : targetMeld.findIndex((t) => t.id === dest.before);
    if (at >= 0) targetMeld.splice(at, 0, ...moving);
    else {
      targetMeld.push(...moving);
      const arranged = arrange(targetMeld);
      targetMeld.splice(0, targetMeld.length, ...arranged);
    }
  }
  draft.table = draft.table.filter((m) => m.length);
  afterEdit();
}

function afterEdit() {
  selected = new Set();
  badMelds = new Map();
  lastChanged = new Set();
  say("");
  render();
}

function splitSelected() {
  const [id] = [...selected];
  const found = findTile(id);
  if (selected.size !== 1 || !found || found.where === draft.rack || found.index === 0) {
    say("Select one table tile (not a meld's first): the meld is split just before it.", "bad");
    return;
  }
  draft.history.push(snapshot());
  const meld = found.where;
  const i = draft.table.indexOf(meld);
  draft.table.splice(i + 1, 0, meld.splice(found.index));
  afterEdit();
}

function joinSelected() {
  const melds = [...new Set([...selected].map(findTile).filter((f) => f && f.where !== draft.rack).map((f) => f.where))];
  if (melds.length < 2) {
    say("Select a tile in each of two or more melds to join them.", "bad");
    return;
  }
  draft.history.push(snapshot());
  melds.sort((a, b) => draft.table.indexOf(a) - draft.table.indexOf(b));
  const joined = arrange(melds.flat());
  const first = draft.table.indexOf(melds[0]);
  draft.table = draft.table.map((m, i) => (i === first ? joined : m)).filter((m) => m === joined || !melds.includes(m));
  afterEdit();
}

// -- drag and drop (pointer events: mouse, pen and touch alike) -----------------------------------

let drag = null;
let suppressClick = false;

function onPointerDown(event) {
  if (!yourTurn() || event.button > 0) return;
  const tile = event.currentTarget;
  drag = { id: Number(tile.dataset.id), x: event.clientX, y: event.clientY, active: false, ghost: null, source: tile };
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp, { once: true });
}

function onPointerMove(event) {
  if (!drag) return;
  if (!drag.active) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    drag.active = true;
    drag.ids = selected.has(drag.id) ? [...selected] : [drag.id];
    drag.ghost = drag.source.cloneNode(true);
    drag.ghost.classList.add("ghost");
    drag.ghost.removeAttribute("data-testid");
    drag.ghost.removeAttribute("data-tile");
    document.body.append(drag.ghost);
    for (const id of drag.ids) document.querySelector(`[data-id="${id}"]`)?.classList.add("dragging");
  }
  event.preventDefault();
  drag.ghost.style.left = `${event.clientX - 18}px`;
  drag.ghost.style.top = `${event.clientY - 24}px`;
  document.querySelectorAll(".drop-over").forEach((n) => n.classList.remove("drop-over"));
  const over = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-drop]");
  if (over) over.classList.add("drop-over");
}

function onPointerUp(event) {
  document.removeEventListener("pointermove", onPointerMove);
  const current = drag;
  drag = null;
  if (!current || !current.active) return;
  current.ghost.remove();
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  document.querySelectorAll(".drop-over").forEach((n) => n.classList.remove("drop-over"));
  document.querySelectorAll(".dragging").forEach((n) => n.classList.remove("dragging"));
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const zone = under?.closest("[data-drop]");
  if (!zone) { render(); return; }
  moveTiles(current.ids, destination(zone, under, event.clientX));
}

function destination(zone, under, x) {
  if (zone.dataset.drop === "rack") return { kind: "rack" };
  if (zone.dataset.drop === "new") return { kind: "new" };
  const index = Number(zone.dataset.meld);
  const tile = under.closest(".tile");
  let before = null;
  if (tile && zone.contains(tile)) {
    const rect = tile.getBoundingClientRect();
    if (x < rect.left + rect.width / 2) before = Number(tile.dataset.id);
    else {
      const next = tile.nextElementSibling;
      before = next && next.classList.contains("tile") ? Number(next.dataset.id) : null;
      if (before === null) return { kind: "meld", index, before: -1, append: true };
    }
  }
  return { kind: "meld", index, before };
}

function tileButton(tile, place) {
  const button = tileElement(tile.code, meta, { button: true, extraClass: `${tile.fromRack && place === "table" ? "from-rack" : ""} ${selected.has(tile.id) ? "selected" : ""}` });
  button.dataset.id = tile.id;
  button.setAttribute("aria-pressed", selected.has(tile.id) ? "true" : "false");
  button.disabled = !yourTurn();
  button.addEventListener("pointerdown", onPointerDown);
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    if (suppressClick || !yourTurn()) return;
    if (selected.has(tile.id)) selected.delete(tile.id);
    else selected.add(tile.id);
    render();
  });
  return button;
}

function dropOnClick(dest) {
  return (event) => {
    if (suppressClick || !yourTurn()) return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    if (event.type === "keydown" && event.target !== event.currentTarget) return;
    if (event.type === "keydown") event.preventDefault();
    if (!selected.size) {
      if (event.type === "keydown") say("Select tiles first (Enter on a tile), then press Enter here to put them here.");
      return;
    }
    moveTiles([...selected], dest());
  };
}

// -- showing the game ---------------------------------------------------------------------------

function focusKey(node) {
  if (!node || node === document.body) return null;
  if (node.dataset.id && node.dataset.id !== "0") return `[data-id="${node.dataset.id}"]`;
  if (node.dataset.meld !== undefined) return `[data-meld="${node.dataset.meld}"]`;
  if (node.dataset.drop === "new") return "[data-drop=new]";
  return node.id ? `#${node.id}` : null;
}

function render() {
  if (!game) return;
  const focused = focusKey(document.activeElement); // keyboard users keep their place
  renderBar();
  renderTable();
  renderRack();
  renderControls();
  renderLog();
  renderRoundOver();
  const again = focused && document.querySelector(focused);
  if (again && again !== document.activeElement && !again.disabled) again.focus();
}

function renderBar() {
  const turnNo = game.turn + 1;
  let text;
  if (game.finished) text = `Round over after ${game.turn} turns`;
  else if (game.current === game.human) text = busy ? `Your turn · turn ${turnNo} · …` : `Your turn · turn ${turnNo}`;
  else text = `${name(game.current)} is playing · turn ${turnNo}`;
  $("turn").textContent = text;
  $("turn").classList.toggle("yours", game.current === game.human && !game.finished);
  $("pool").textContent = `Pool: ${game.pool_size} tiles`;
  const rounds = game.results.rounds.length;
  $("round-info").textContent = `Round ${game.round + 1}${rounds ? ` · totals ${game.players.map((p, s) => `${p.name} ${game.results.totals[s]}`).join(", ")}` : ""}`;
  $("practice").classList.toggle("hidden", !game.practice);
  $("practice").textContent = game.practice ? `Practice game · seed ${game.seed}` : "";
  $("players").replaceChildren(...game.players.map((p, s) => el("span", { class: `player${s === game.current && !game.finished ? " current" : ""}`, "data-testid": "player" },
    `${p.name}${p.kind !== "human" && p.name !== p.kind ? ` (${p.kind})` : ""}: ${p.rack_size} tiles${p.opened ? "" : " · not opened"}`)));
}

function renderTable() {
  const box = $("table");
  box.replaceChildren();
  const editing = yourTurn() && draft;
  const melds = editing ? draft.table : game.table.map((m) => m.map((code) => ({ id: 0, code, fromRack: false })));
  melds.forEach((meld, i) => {
    const changed = editing ? !(i < game.table.length && sameMeld(meld.map((t) => t.code), game.table[i])) && meld.some(() => true) : lastChanged.has(i);
    const reasons = badMelds.get(i);
    const meldBox = el("div", {
      class: `meld${changed ? " changed" : ""}${reasons ? " bad" : ""}`,
      "data-meld": i,
      "data-drop": "meld",
      tabindex: editing ? 0 : null,
      role: editing ? "button" : "group",
      "aria-label": `meld ${i + 1}: ${formatTiles(meld.map((t) => t.code))}${reasons ? ` (not allowed: ${reasons.join("; ")})` : ""}${editing ? "; Enter puts the selected tiles here" : ""}`,
      onclick: editing ? dropOnClick(() => ({ kind: "meld", index: i, before: null })) : null,
      onkeydown: editing ? dropOnClick(() => ({ kind: "meld", index: i, before: null })) : null,
    }, el("span", { class: "meld-no", "aria-hidden": "true", text: String(i + 1) }));
    for (const tile of meld) meldBox.append(editing ? tileButton(tile, "table") : tileElement(tile.code, meta));
    if (reasons) meldBox.append(el("span", { class: "reason", "data-testid": "meld-reason", text: reasons.join("; ") }));
    box.append(meldBox);
  });
  if (editing) {
    const zone = el("div", { class: "drop-zone", "data-drop": "new", "data-testid": "new-meld-zone", tabindex: 0, role: "button", "aria-label": "new meld: Enter puts the selected tiles in a new meld",
      onclick: dropOnClick(() => ({ kind: "new" })), onkeydown: dropOnClick(() => ({ kind: "new" })) }, "+ new meld");
    box.append(zone);
  } else if (!melds.length) box.append(el("span", { class: "empty", text: "The table is empty." }));
  $("table-note").textContent = editing && draftChanged() ? "(your new table, not played yet)" : "";
}

function renderRack() {
  const box = $("rack");
  box.replaceChildren();
  const editing = yourTurn() && draft;
  box.dataset.drop = "rack";
  if (editing) {
    const byCode = new Map();
    for (const tile of draft.rack) { if (!byCode.has(tile.code)) byCode.set(tile.code, []); byCode.get(tile.code).push(tile); }
    for (const code of sortTiles(draft.rack.map((t) => t.code), order, meta)) box.append(tileButton(byCode.get(code).shift(), "rack"));
  } else {
    for (const code of sortTiles(game.rack, order, meta)) box.append(tileElement(code, meta));
  }
  if (!box.children.length) box.append(el("span", { class: "empty", text: "Your rack is empty." }));
  $("rack-note").textContent = `(${editing ? draft.rack.length : game.rack.length} tiles)${game.discard_rule && game.discard_pile.length ? ` · discard pile top: ${game.discard_pile[game.discard_pile.length - 1]}` : ""}`;
}

function renderControls() {
  const mine = yourTurn();
  const changed = mine && draft && draftChanged();
  const discardRule = game.discard_rule;
  $("end-turn").disabled = !mine;
  $("end-turn").textContent = discardRule ? "End turn (discard the selected tile)" : "End turn";
  $("draw").disabled = !mine || (discardRule ? game.draw_from !== null || changed || game.pool_size === 0 : changed);
  $("draw").textContent = discardRule ? "Draw from the pool" : "Draw";
  $("draw").title = changed && !discardRule ? "Reset your edits first: drawing ends the turn" : "";
  $("pick").classList.toggle("hidden", !discardRule);
  $("pick").disabled = !mine || game.draw_from !== null || !game.discard_pile.length || changed;
  $("undo").disabled = !mine || !draft || !draft.history.length;
  $("reset").disabled = !changed;
  $("undo-turn").classList.toggle("hidden", !game.practice); // take-back would show the pool's next tile
  $("undo-turn").disabled = !mine || !game.can_undo_turn;
  $("hint").disabled = !mine;
  $("hint").textContent = hintLevel ? `Hint (level ${Math.min(3, hintLevel + 1)})` : "Hint";
  const sel = mine ? [...selected].map(findTile).filter(Boolean) : [];
  $("split").disabled = !(sel.length === 1 && sel[0].where !== draft.rack && sel[0].index > 0);
  $("join").disabled = new Set(sel.filter((f) => f.where !== draft.rack).map((f) => f.where)).size < 2;
  $("to-new").disabled = !sel.length;
  $("sort-colour").setAttribute("aria-pressed", String(order === "colour"));
  $("sort-number").setAttribute("aria-pressed", String(order === "number"));
}

function renderLog() {
  const log = $("log");
  log.replaceChildren(...game.history.map((e) => el("li", { text: describe(e) })));
  log.scrollTop = log.scrollHeight;
  $("download").href = `/games/${gameId}/saved`;
}

function renderRoundOver() {
  const panel = $("round-over");
  panel.classList.toggle("hidden", !game.finished);
  if (!game.finished) return;
  const winner = game.winner;
  const how = game.end_reason === "out" ? "went out" : "had the lowest rack when the pool ran out";
  $("round-summary").textContent = `${name(winner)} ${winner === game.human ? "win" : "wins"}: ${how}.`;
  const last = game.results.rounds[game.results.rounds.length - 1];
  $("scores").replaceChildren(
    el("tr", {}, el("th", { text: "Player" }), el("th", { text: "This round" }), el("th", { text: "Total" }), el("th", { text: "Rack left" })),
    ...game.players.map((p, s) => el("tr", {}, el("td", { text: p.name }), el("td", { text: last ? String(last.scores[s]) : "" }),
      el("td", { text: String(game.results.totals[s]) }), el("td", {}, ...(p.rack || []).map((c) => tileElement(c, meta))))),
  );
}

// -- talking to the server ------------------------------------------------------------------------

async function act(path, body) {
  pending++;
  document.body.dataset.pending = "true";
  if (game) renderControls();
  let response;
  try {
    response = await api(`/games/${gameId}/${path}`, body ?? {});
  } finally {
    pending--;
    if (!pending) delete document.body.dataset.pending;
  }
  if (!response.ok) {
    say(response.data.error || `HTTP ${response.status}`, "bad");
    if (response.status === 409) await reload();
    return null;
  }
  return response.data;
}

async function reload() {
  const response = await api(`/games/${gameId}`);
  if (response.ok) { game = response.data.state; startDraft(); render(); }
}

async function endTurn() {
  if (!yourTurn()) return;
  const table = codes(draft.table);
  let answer;
  if (game.discard_rule) {
    const pick = [...selected].map(findTile).filter((f) => f && f.where === draft.rack);
    if (pick.length !== 1) {
      say("Under the discard rule a turn ends with a discard: select one tile of your rack, then End turn.", "bad");
      return;
    }
    const tile = pick[0].tile.code;
    if (draftChanged()) answer = await act("play", { table, discard: tile });
    else if (game.draw_from !== null) answer = await act("discard", { tile });
    else { say("Draw (from the pool or the discard pile) or change the table before you discard.", "bad"); return; }
  } else {
    if (!draftChanged()) {
      say("The table is as your turn began: put tiles on it first, or Draw.", "bad");
      return;
    }
    answer = await act("play", { table });
  }
  if (!answer) return;
  if (answer.legal === false) {
    badMelds = new Map();
    for (const reason of answer.reasons) {
      if (reason.meld === null || reason.meld === undefined) continue;
      if (!badMelds.has(reason.meld)) badMelds.set(reason.meld, []);
      badMelds.get(reason.meld).push(reason.message);
    }
    say(`Not allowed: ${answer.message}`, "bad");
    selected = new Set();
    render();
    return;
  }
  say(answer.event ? `${describe(answer.event)}.` : "", "good");
  await turnDone(answer.state);
}

async function draw(source) {
  if (!yourTurn()) return;
  const answer = await act("draw", { source });
  if (!answer) return;
  say(`${describe(answer.event)}.`, "info");
  if (game.discard_rule && answer.state.current === game.human) {
    game = answer.state;
    startDraft();
    hintTable = null;
    render();
    return;
  }
  await turnDone(answer.state);
}

async function turnDone(state) {
  game = state;
  hintLevel = 0;
  hintTable = null;
  $("hint-text").classList.add("hidden");
  $("hint-apply-row").classList.add("hidden");
  stopTimer();
  await runAIs();
}

/** The AIs' turns, one at a time, each shown for a moment so a person can follow it. */
async function runAIs() {
  busy = true;
  try {
    while (!game.finished && game.current !== game.human) {
      render();
      await wait(AI_DELAY / 3);
      const answer = await act("advance");
      if (!answer) break;
      game = answer.state;
      const before = answer.before || [];
      lastChanged = new Set(game.table.map((m, i) => i).filter((i) => !before.some((b) => sameMeld(b, game.table[i]))));
      $("turn").textContent = `${describe(answer.event)}`;
      renderTable();
      renderRack();
      renderLog();
      renderBar();
      $("turn").textContent = `${describe(answer.event)}${answer.illegal ? ` (its play was illegal: ${answer.illegal})` : ""}`;
      await wait(AI_DELAY);
    }
  } finally {
    busy = false;
  }
  startDraft();
  render();
  startTimer();
}

async function hint() {
  if (!yourTurn()) return;
  hintLevel = Math.min(3, hintLevel + 1);
  const answer = await act("hint", { level: hintLevel });
  if (!answer) return;
  const box = $("hint-text");
  box.textContent = answer.hint.text;
  box.classList.remove("hidden");
  hintTable = answer.hint.table || null;
  $("hint-apply-row").classList.toggle("hidden", !hintTable);
  render();
}

function applyHint() {
  if (!hintTable || !yourTurn()) return;
  draft.history.push(snapshot());
  const all = JSON.parse(draft.start);
  const pool = [...all.table.flat(), ...all.rack];
  const take = (code) => {
    const fixed = pool.findIndex((t) => t.code === code && !t.fromRack);
    const index = fixed >= 0 ? fixed : pool.findIndex((t) => t.code === code);
    return pool.splice(index, 1)[0];
  };
  draft.table = hintTable.map((m) => m.map(take));
  draft.rack = pool.filter((t) => t.fromRack);
  afterEdit();
}

// -- the turn timer ---------------------------------------------------------------------------------

function stopTimer() {
  if (timerHandle) clearInterval(timerHandle);
  timerHandle = null;
  $("timer").classList.add("hidden");
}

function startTimer() {
  stopTimer();
  if (!game.turn_timer || game.finished || game.current !== game.human || game.time_left === null) return;
  const deadline = Date.now() + game.time_left * 1000;
  const box = $("timer");
  box.classList.remove("hidden");
  const tick = async () => {
    const left = Math.max(0, (deadline - Date.now()) / 1000);
    box.textContent = `⏱ ${Math.ceil(left)} s`;
    box.classList.toggle("low", left < 10);
    if (left <= 0 && !busy) {
      stopTimer();
      const answer = await act("timeout");
      if (answer && answer.event) {
        say(`Time is up: ${describe(answer.event)}.`, "bad");
        await turnDone(answer.state);
      } else if (answer) {
        game = answer.state;
        startTimer();
      }
    }
  };
  tick();
  timerHandle = setInterval(tick, 250);
}

// -- the replay --------------------------------------------------------------------------------------

let frames = [];
async function openReplay() {
  const response = await api(`/games/${gameId}/replay`);
  if (!response.ok) { say(response.data.error, "bad"); return; }
  frames = response.data.frames;
  const slider = $("replay-slider");
  slider.max = String(frames.length - 1);
  slider.value = "0";
  $("replay").classList.remove("hidden");
  showFrame(0, response.data.names);
  slider.oninput = () => showFrame(Number(slider.value), response.data.names);
  $("replay-prev").onclick = () => { slider.value = String(Math.max(0, Number(slider.value) - 1)); showFrame(Number(slider.value), response.data.names); };
  $("replay-next").onclick = () => { slider.value = String(Math.min(frames.length - 1, Number(slider.value) + 1)); showFrame(Number(slider.value), response.data.names); };
}

function showFrame(i, names) {
  const frame = frames[i];
  const event = frame.event ? { ...frame.event, name: frame.event.name || names[frame.event.player] } : null;
  $("replay-label").textContent = i === 0 ? "The deal" : `Turn ${i}: ${describe(event)}`;
  $("replay-table").replaceChildren(...frame.table.map((m, k) => el("div", { class: "meld" }, el("span", { class: "meld-no", text: String(k + 1) }), ...m.map((c) => tileElement(c, meta)))));
  if (!frame.table.length) $("replay-table").append(el("span", { class: "empty", text: "The table is empty." }));
  $("replay-racks").replaceChildren(...frame.racks.map((rack, s) => el("div", { class: "row" }, el("strong", { text: `${names[s]}:` }),
    rack ? el("span", {}, ...sortTiles(rack, order, meta).map((c) => tileElement(c, meta))) : el("span", { class: "muted", text: `${frame.rack_sizes[s]} tiles (hidden)` }))));
}

// -- setup: a new game, the saved games ------------------------------------------------------------

function renderSeats(count) {
  const seats = $("seats");
  const levels = [...seats.querySelectorAll("select")].map((s) => s.value);
  seats.replaceChildren(el("div", { class: "row" }, el("strong", { text: "Seat 1:" }), " you"));
  for (let i = 0; i < count; i++) {
    const id = `ai-${i}`;
    const select = el("select", { id, "data-testid": "ai-level" });
    for (const level of meta.ai_levels) select.append(el("option", { value: level, text: level }));
    select.value = levels[i] || meta.ai_levels[Math.min(1, meta.ai_levels.length - 1)];
    seats.append(el("div", { class: "row" }, el("label", { for: id }, `Seat ${i + 2}: AI`), select));
  }
  $("remove-ai").disabled = count <= 1;
  $("add-ai").disabled = count >= maxAIs();
}

function maxAIs() {
  const rules = rulesForm.value();
  const preset = meta.presets[typeof rules === "string" ? rules : rules.preset];
  const max = (typeof rules === "object" && rules.max_players) || preset.max_players;
  return Math.max(1, max - 1);
}

async function listSaved() {
  const response = await api("/games");
  const list = $("saved-games");
  list.replaceChildren();
  if (!response.ok) return;
  const { games, counts, limits } = response.data;
  $("saved-note").textContent = `${counts.stored} saved (at most ${limits.max_stored_games}); ${counts.live} with a round still running (at most ${limits.max_live_games}).`;
  for (const saved of games) {
    const label = `${saved.players.join(" vs ")}${saved.practice ? ` · practice (seed ${saved.seed})` : ""} · ${typeof saved.rules === "string" ? saved.rules : "custom rules"} · round ${saved.round + 1}, turn ${saved.turn + 1}${saved.finished ? " · round over" : ""} · ${new Date(saved.updated * 1000).toLocaleString()}`;
    const item = el("li", { "data-testid": "saved-game", "data-game": saved.id }, el("span", { text: label }),
      el("a", { href: `/play?game=${encodeURIComponent(saved.id)}`, "data-testid": "continue" }, saved.finished ? "Open (replay, next round)" : "Continue"),
      el("button", { type: "button", class: "small", onclick: async () => { await api(`/games/${saved.id}`, undefined, "DELETE"); listSaved(); } }, "Delete"));
    list.append(item);
  }
  if (!games.length) list.append(el("li", { class: "muted", text: "No saved games yet in this browser." }));
  if (response.data.damaged && response.data.damaged.length) list.append(el("li", { class: "muted", text: `${response.data.damaged.length} saved game(s) could not be read and are left out.` }));
}

async function createGame(body) {
  const response = await api("/games", body);
  if (!response.ok) {
    $("setup").classList.remove("hidden");
    $("setup-message").textContent = response.data.error;
    $("setup-message").className = "message bad";
    return;
  }
  history.replaceState(null, "", `/play?game=${encodeURIComponent(response.data.id)}${AI_DELAY !== 900 ? `&delay=${AI_DELAY}` : ""}`);
  await enterGame(response.data.id, response.data.state);
}

async function enterGame(id, state) {
  gameId = id;
  game = state;
  $("setup").classList.add("hidden");
  $("game").classList.remove("hidden");
  startDraft();
  render();
  document.body.dataset.ready = "true";
  if (!game.finished && game.current !== game.human) await runAIs();
  else startTimer();
}

function parseRulesParam(text) {
  if (!text) return "standard";
  try { return JSON.parse(text); } catch { return text; }
}

async function main() {
  meta = await loadMeta();
  rulesForm = new RulesForm($("setup-rules"), meta, () => renderSeats(Math.min($("seats").querySelectorAll("select").length, maxAIs())));
  renderSeats(1);
  $("add-ai").addEventListener("click", () => renderSeats($("seats").querySelectorAll("select").length + 1));
  $("remove-ai").addEventListener("click", () => renderSeats($("seats").querySelectorAll("select").length - 1));
  $("start").addEventListener("click", () => {
    const players = ["human", ...[...$("seats").querySelectorAll("select")].map((s) => s.value)].join(",");
    const seed = $("seed").value === "" ? undefined : Number($("seed").value);
    createGame({ players, rules: rulesForm.value(), ...(seed === undefined ? {} : { seed }) });
  });
  $("end-turn").addEventListener("click", endTurn);
  $("draw").addEventListener("click", () => draw("pool"));
  $("pick").addEventListener("click", () => draw("discard"));
  $("undo").addEventListener("click", () => {
    if (!draft || !draft.history.length) return;
    restore(draft.history.pop());
    selected = new Set();
    badMelds = new Map();
    say("");
    render();
  });
  $("reset").addEventListener("click", () => { draft.history.push(snapshot()); restore(draft.start); afterEdit(); });
  $("undo-turn").addEventListener("click", async () => {
    const answer = await act("undo");
    if (!answer) return;
    game = answer.state;
    stopTimer();
    startDraft();
    say("Took back your last turn.", "info");
    render();
    startTimer();
  });
  $("hint").addEventListener("click", hint);
  $("hint-apply").addEventListener("click", applyHint);
  $("split").addEventListener("click", splitSelected);
  $("join").addEventListener("click", joinSelected);
  $("to-new").addEventListener("click", () => moveTiles([...selected], { kind: "new" }));
  $("rack").addEventListener("click", (event) => { if (event.target === $("rack") && selected.size) moveTiles([...selected], { kind: "rack" }); });
  $("sort-colour").addEventListener("click", () => { order = "colour"; render(); });
  $("sort-number").addEventListener("click", () => { order = "number"; render(); });
  $("next-round").addEventListener("click", async () => {
    const answer = await act("next-round");
    if (!answer) return;
    $("replay").classList.add("hidden");
    say("");
    await enterGame(gameId, answer.state);
  });
  $("replay-open").addEventListener("click", openReplay);
  $("replay-close").addEventListener("click", () => $("replay").classList.add("hidden"));

  const id = params.get("game");
  if (id) {
    const response = await api(`/games/${encodeURIComponent(id)}`);
    if (response.ok) return enterGame(id, response.data.state);
    $("setup-message").textContent = response.data.error || "That game is not here.";
    $("setup-message").className = "message bad";
  } else if (params.get("players")) {
    const seed = params.get("seed");
    return createGame({ players: params.get("players"), rules: parseRulesParam(params.get("rules")), ...(seed ? { seed: Number(seed) } : {}) });
  }
  $("setup").classList.remove("hidden");
  document.body.dataset.ready = "true";
  await listSaved();
}

main();
