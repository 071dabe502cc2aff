// The view: the game as the page shows it, drawn again from the state by render().
import { $, count, el, formatTiles, sortTiles, tileElement } from "./common.js";
import { savedPath } from "./play-client.js";
import { describeRoll, diceStatus, dieElement, isDice, renderOpponents, renderRollControls, renderRollRack, rollPhase } from "./play-dice.js";
import { draftChanged, findTile, sameMeld } from "./play-draft.js";
import { dropOnClick, onPointerDown } from "./play-drag.js";
import { state, yourTurn } from "./play-state.js";

const name = (seat) => state.game.players[seat].name;

/** A log line for a game event. */
export function describe(event) {
  if (!event) return "";
  const named = event.name || name(event.player);
  const you = state.game ? event.player === state.game.human : named === "you"; // a saved game opened from a file: by name
  const who = you && state.game && state.game.room ? "you" : named; // a room's players have names; the one on screen is "you"
  if (event.type === "play") {
    const played = event.played && event.played.length ? formatTiles(event.played) : "nothing new (rearranged the table)";
    const dice = event.dice && event.dice.length ? ` (${event.dice.join(" ")})` : "";
    return `${who} ${you ? "play" : "plays"} ${played}${dice}${event.discard ? `, ${you ? "discard" : "discards"} ${event.discard}` : ""}`;
  }
  if (event.type === "draw") {
    if (event.source === "discard") return `${who} ${you ? "take" : "takes"} ${event.tile} from the discard pile`;
    if (event.tile === null && event.drew === 0) return `${who} ${you ? "pass" : "passes"} (the pool is empty)`;
    if (event.tile === null && event.drew === undefined) return `${who} ${you ? "pass" : "passes"} (the pool is empty)`;
    return `${who} ${you ? "draw" : "draws"}${you && event.tile ? ` ${event.tile}` : " a tile"}`;
  }
  if (event.type === "roll") return describeRoll(event, who, you);
  if (event.type === "pass") return `${who} ${you ? "pass" : "passes"}`;
  if (event.type === "discard") return `${who} ${you ? "discard" : "discards"} ${event.tile}`;
  if (event.type === "timeout") return `${who} ${you ? "run" : "runs"} out of time and ${you ? "draw" : "draws"} ${count(event.drew ?? (event.tiles || []).length, "penalty tile")}`;
  return `${who}: ${event.type}`;
}

function focusKey(node) {
  if (!node || node === document.body) return null;
  if (node.dataset.id && node.dataset.id !== "0") return `[data-id="${node.dataset.id}"]`;
  if (node.dataset.meld !== undefined) return `[data-meld="${node.dataset.meld}"]`;
  if (node.dataset.drop === "new") return "[data-drop=new]";
  return node.id ? `#${node.id}` : null;
}

export function render() {
  if (!state.game) return;
  const focused = focusKey(document.activeElement); // keyboard users keep their place
  renderBar();
  renderOpponents();
  renderTable();
  renderRack();
  renderControls();
  renderLog();
  renderRoundOver();
  renderLegend();
  if (state.decorate) state.decorate();
  const again = focused && document.querySelector(focused);
  if (again && again !== document.activeElement && !again.disabled) again.focus();
}

/** The legend of the marks shown: melds the others changed, the tile just drawn. */
function renderLegend() {
  const changed = Boolean($("table").querySelector("[data-changed]"));
  const drawn = Boolean($("rack").querySelector("[data-drawn]"));
  $("changed-legend").classList.toggle("hidden", !changed && !drawn);
  $("legend-changed").classList.toggle("hidden", !changed);
  $("legend-drawn").classList.toggle("hidden", !drawn);
}

/** A draft tile: selected by a click (or Enter), dragged by the pointer. */
function tileButton(tile, place) {
  const { selected } = state;
  const options = { button: true, extraClass: `${tile.fromRack && place === "table" ? "from-rack" : ""} ${selected.has(tile.id) ? "selected" : ""}` };
  const button = tile.die ? dieElement(tile.code, tile.die, state.meta, { ...options, still: place === "table" }) : tileElement(tile.code, state.meta, options);
  button.dataset.id = tile.id;
  button.setAttribute("aria-pressed", selected.has(tile.id) ? "true" : "false");
  button.disabled = !yourTurn();
  button.addEventListener("pointerdown", onPointerDown);
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    if (state.suppressClick || !yourTurn()) return;
    if (state.selected.has(tile.id)) state.selected.delete(tile.id);
    else state.selected.add(tile.id);
    render();
  });
  return button;
}

export function renderBar() {
  const { game } = state;
  const turnNo = game.turn + 1;
  let text;
  if (game.finished) text = `${isDice() ? "Game" : "Round"} over after ${game.turn} turns`;
  else if (game.current === game.human) {
    const step = !isDice() ? "" : game.rolled ? " · play or pass" : " · pick dice to roll (or keep all)";
    text = state.busy ? `Your turn · turn ${turnNo} · …` : `Your turn · turn ${turnNo}${step}`;
  }
  else text = `${name(game.current)} is playing · turn ${turnNo}`;
  $("turn").textContent = text;
  $("turn").classList.toggle("yours", game.current === game.human && !game.finished);
  $("skip").classList.toggle("hidden", !state.busy);
  $("pool").textContent = isDice() ? diceStatus(game) : `Pool: ${count(game.pool_size, "tile")}`;
  const rounds = game.results.rounds.length;
  $("round-info").textContent = `${isDice() ? "Game" : "Round"} ${game.round + 1}${rounds ? ` · totals ${game.players.map((p, s) => `${p.name} ${game.results.totals[s]}`).join(", ")}` : ""}`;
  $("practice").classList.toggle("hidden", !game.practice);
  $("practice").textContent = game.practice ? `Practice game · seed ${game.seed}` : "";
  const highlighted = state.showing ?? (game.finished ? null : game.current);
  $("players").replaceChildren(...game.players.map((p, s) => el("span", { class: `player${s === highlighted ? " current" : ""}`, "data-testid": "player" },
    `${p.name}${p.kind !== "human" && p.name !== p.kind ? ` (${p.kind})` : ""}: ${isDice() ? `${count(p.rack_size, "die", "dice")} · ${p.total} points left` : `${count(p.rack_size, "tile")}${p.opened ? "" : " · not opened"}`}`)));
}

export function renderTable() {
  const { game, draft, meta } = state;
  const box = $("table");
  box.replaceChildren();
  const editing = yourTurn() && draft && !rollPhase();
  const melds = editing ? draft.table : game.table.map((m, i) => m.map((code, k) => ({ id: 0, code, fromRack: false, die: game.table_dice?.[i]?.[k] })));
  melds.forEach((meld, i) => {
    const asDealt = editing && i < game.table.length && sameMeld(meld.map((t) => t.code), game.table[i]);
    // A room marks the last move as the others' changes are marked on your turn (AI turns: dashed).
    const changed = editing ? !asDealt && meld.some(() => true) : !game.room && state.lastChanged.has(i);
    const byOthers = editing ? asDealt && state.sinceMine.has(i) : Boolean(game.room) && state.lastChanged.has(i);
    const reasons = state.badMelds.get(i);
    const meldBox = el("div", {
      class: `meld${changed ? " changed" : ""}${byOthers ? " by-others" : ""}${reasons ? " bad" : ""}`,
      "data-meld": i,
      "data-changed": byOthers ? "true" : null,
      "data-drop": "meld",
      tabindex: editing ? 0 : null,
      role: editing ? "button" : "group",
      "aria-label": `meld ${i + 1}: ${formatTiles(meld.map((t) => t.code))}${reasons ? ` (not allowed: ${reasons.join("; ")})` : ""}${editing ? "; Enter puts the selected tiles here" : ""}`,
      onclick: editing ? dropOnClick(() => ({ kind: "meld", index: i, before: null })) : null,
      onkeydown: editing ? dropOnClick(() => ({ kind: "meld", index: i, before: null })) : null,
    }, el("span", { class: "meld-no", "aria-hidden": "true", text: String(i + 1) }));
    for (const tile of meld) meldBox.append(editing ? tileButton(tile, "table") : tile.die ? dieElement(tile.code, tile.die, meta, { still: true }) : tileElement(tile.code, meta));
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

export function renderRack() {
  const { game, draft, meta, order } = state;
  const box = $("rack");
  box.replaceChildren();
  const editing = yourTurn() && draft && !rollPhase();
  if (!game.room) $("rack-owner").textContent = isDice() ? "Your dice" : "Your rack";
  box.dataset.drop = "rack";
  if (rollPhase()) renderRollRack(box);
  else if (editing) {
    const byCode = new Map();
    for (const tile of draft.rack) { if (!byCode.has(tile.code)) byCode.set(tile.code, []); byCode.get(tile.code).push(tile); }
    for (const code of sortTiles(draft.rack.map((t) => t.code), order, meta)) box.append(tileButton(byCode.get(code).shift(), "rack"));
  } else {
    const dice = new Map();
    (game.dice || []).forEach((die, i) => { if (!dice.has(game.rack[i])) dice.set(game.rack[i], []); dice.get(game.rack[i]).push(die); });
    for (const code of sortTiles(game.rack, order, meta)) box.append(dice.has(code) ? dieElement(code, dice.get(code).shift(), meta) : tileElement(code, meta));
  }
  const drawn = state.drawn && box.querySelector(`[data-tile="${state.drawn}"]`);
  if (drawn) {
    drawn.classList.add("drawn");
    drawn.dataset.drawn = "true";
    drawn.setAttribute("aria-label", `${drawn.getAttribute("aria-label")} (just drawn)`);
  }
  if (!box.children.length) box.append(el("span", { class: "empty", text: isDice() ? "You have no dice left." : "Your rack is empty." }));
  const left = editing ? draft.rack.length : game.rack.length;
  const note = [isDice() ? `(${count(left, "die", "dice")}${rollPhase() ? ": pick the ones to roll" : ""})` : `(${count(left, "tile")})`];
  if (game.discard_rule && game.discard_pile.length) {
    const top = game.discard_pile[game.discard_pile.length - 1];
    note.push(" · discard pile: ", tileElement(top, meta, { extraClass: "small", attrs: { "data-testid": "discard-top" } }));
  }
  $("rack-note").replaceChildren(...note);
}

export function renderControls() {
  const { game, draft, hintLevel, order } = state;
  const mine = yourTurn();
  const changed = mine && draft && draftChanged();
  const discardRule = game.discard_rule;
  const dice = isDice();
  $("end-turn").disabled = !mine || rollPhase();
  $("end-turn").textContent = discardRule ? "End turn (discard the selected tile)" : dice ? "Play" : "End turn";
  $("draw").disabled = !mine || (discardRule ? game.draw_from !== null || changed || game.pool_size === 0 : changed);
  $("draw").textContent = discardRule ? "Draw from the pool" : dice ? "Pass" : "Draw";
  $("draw").title = changed && !discardRule ? `Reset your edits first: ${dice ? "passing" : "drawing"} ends the turn` : "";
  renderRollControls();
  $("pick").classList.toggle("hidden", !discardRule);
  $("pick").disabled = !mine || game.draw_from !== null || !game.discard_pile.length || changed;
  $("undo").disabled = !mine || !draft || !draft.history.length;
  $("reset").disabled = !changed;
  $("undo-turn").classList.toggle("hidden", !game.practice); // take-back would show the pool's next tile
  $("undo-turn").disabled = !mine || !game.can_undo_turn;
  $("hint").disabled = !mine;
  $("hint").textContent = rollPhase() ? "Hint: what to roll" : hintLevel ? `Hint (level ${Math.min(3, hintLevel + 1)})` : "Hint";
  const sel = mine ? [...state.selected].map(findTile).filter(Boolean) : [];
  $("split").disabled = !(sel.length === 1 && sel[0].where !== draft.rack && sel[0].index > 0);
  $("join").disabled = new Set(sel.filter((f) => f.where !== draft.rack).map((f) => f.where)).size < 2;
  $("to-new").disabled = !sel.length;
  $("sort-colour").setAttribute("aria-pressed", String(order === "colour"));
  $("sort-number").setAttribute("aria-pressed", String(order === "number"));
}

export function renderLog() {
  const log = $("log");
  log.replaceChildren(...state.game.history.map((e) => el("li", { text: describe(e) })));
  log.scrollTop = log.scrollHeight;
  $("download").href = savedPath(state.gameId);
  $("replay-open").textContent = isDice() ? "Replay this game" : "Replay this round";
}

function renderRoundOver() {
  const { game, meta } = state;
  const panel = $("round-over");
  panel.classList.toggle("hidden", !game.finished);
  if (!game.finished) return;
  const winner = game.winner;
  $("round-title").textContent = isDice() ? "Game over" : "Round over";
  $("next-round").textContent = isDice() ? "Next game" : "Next round";
  if (isDice()) {
    const blocked = "three rounds went by without a die played";
    if (winner === null) $("round-summary").textContent = `A draw: ${blocked}, and your dice left count the same.`;
    else {
      const how = game.end_reason === "out" ? "played every die" : `${blocked}; the lower total of dice left wins`;
      const who = name(winner);
      $("round-summary").textContent = `${who[0].toUpperCase()}${who.slice(1)} ${winner === game.human ? "win" : "wins"}: ${how}.`;
    }
  } else {
    const how = game.end_reason === "out" ? "went out" : "had the lowest rack when the pool ran out";
    $("round-summary").textContent = `${name(winner)} ${winner === game.human ? "win" : "wins"}: ${how}.`;
  }
  const last = game.results.rounds[game.results.rounds.length - 1];
  $("scores").replaceChildren(
    el("tr", {}, el("th", { text: "Player" }), el("th", { text: isDice() ? "This game" : "This round" }), el("th", { text: "Total" }), el("th", { text: isDice() ? "Dice left" : "Rack left" })),
    ...game.players.map((p, s) => el("tr", {}, el("td", { text: p.name }), el("td", { text: last ? String(last.scores[s]) : "" }),
      el("td", { text: String(game.results.totals[s]) }), el("td", {}, ...(p.dice ? p.dice.map((d) => dieElement(d.face, d.die, meta)) : (p.rack || []).map((c) => tileElement(c, meta)))))),
  );
}
