// The view: the game as the page shows it, drawn again from the state by render().
import { $, el, formatTiles, sortTiles, tileElement } from "./common.js";
import { savedPath } from "./play-client.js";
import { describeRoll, diceStatus, dieElement, isDice, renderOpponents, renderRollControls, renderRollRack, rollPhase } from "./play-dice.js";
import { draftChanged, findTile, sameMeld } from "./play-draft.js";
import { dropOnClick, onPointerDown } from "./play-drag.js";
import { discardRule, state, yourTurn } from "./play-state.js";
import { capital, playerWord, t } from "./words.js";

const name = (seat) => playerWord(state.game.players[seat].name);

/** A log line for a game event. */
export function describe(event) {
  if (!event) return "";
  const raw = event.name || state.game.players[event.player].name;
  const you = state.game ? event.player === state.game.seat : raw === "you"; // a saved game opened from a file: by name
  const who = you ? t("play.you") : playerWord(raw); // a room's players have names; the one on screen is "you"
  const line = (key, values = {}) => t(you ? `${key}_you` : key, { who, ...values });
  if (event.type === "play") {
    const played = event.played && event.played.length ? formatTiles(event.played) : t("log.nothing_new");
    const dice = event.dice && event.dice.length ? ` (${event.dice.join(" ")})` : "";
    return line(event.discard ? "log.play_discard" : "log.play", { tiles: `${played}${dice}`, discard: event.discard });
  }
  if (event.type === "draw") {
    if (event.source === "discard") return line("log.take_discard", { tile: event.tile });
    if (event.tile === null && (event.drew === 0 || event.drew === undefined)) return line("log.pass_empty");
    return you && event.tile ? line("log.draw_tile", { tile: event.tile }) : line("log.draw");
  }
  if (event.type === "roll") return describeRoll(event, who, you);
  if (event.type === "pass") return line("log.pass");
  if (event.type === "discard") return line("log.discard", { tile: event.tile });
  if (event.type === "timeout") return line("log.timeout", { n: event.drew ?? (event.tiles || []).length });
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
  const turnNo = game.turn_number + 1;
  let text;
  if (game.finished) text = t(isDice() ? "bar.game_over" : "bar.round_over", { n: game.turn_number });
  else if (game.turn === game.seat) {
    const step = !isDice() ? "" : game.rolled ? ` · ${t("bar.play_or_pass")}` : ` · ${t("bar.pick_dice")}`;
    text = state.busy ? `${t("bar.your_turn", { n: turnNo })} · …` : `${t("bar.your_turn", { n: turnNo })}${step}`;
  }
  else text = t("bar.playing", { who: name(game.turn), n: turnNo });
  $("turn").textContent = text;
  $("turn").classList.toggle("yours", game.turn === game.seat && !game.finished);
  $("skip").classList.toggle("hidden", !state.busy);
  $("pool").textContent = isDice() ? diceStatus(game) : t("bar.pool", { tiles: t("count.tiles", { n: game.pool }) });
  const rounds = game.results.count;
  $("round-info").textContent = `${t(isDice() ? "bar.game_n" : "bar.round_n", { n: game.round + 1 })}${rounds ? ` · ${t("bar.totals", { totals: game.players.map((p, s) => `${playerWord(p.name)} ${game.results.totals[s]}`).join(", ") })}` : ""}`;
  $("practice").classList.toggle("hidden", !game.practice);
  $("practice").textContent = game.practice ? t("bar.practice", { seed: game.seed }) : "";
  const highlighted = state.showing ?? (game.finished ? null : game.turn);
  $("players").replaceChildren(...game.players.map((p, s) => el("span", { class: `player${s === highlighted ? " current" : ""}`, "data-testid": "player" },
    `${playerWord(p.name)}${p.kind !== "human" && p.name !== p.kind ? ` (${playerWord(p.kind)})` : ""}: ${isDice() ? `${t("count.dice", { n: p.tiles })} · ${t("bar.points_left", { n: p.total })}` : `${t("count.tiles", { n: p.tiles })}${p.opened ? "" : ` · ${t("bar.not_opened")}`}`}`)));
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
      "aria-label": `${t("board.meld_n", { n: i + 1 })}: ${formatTiles(meld.map((tile) => tile.code))}${reasons ? ` (${t("play.not_allowed", { reasons: reasons.join("; ") })})` : ""}${editing ? `; ${t("play.enter_here")}` : ""}`,
      onclick: editing ? dropOnClick(() => ({ kind: "meld", index: i, before: null })) : null,
      onkeydown: editing ? dropOnClick(() => ({ kind: "meld", index: i, before: null })) : null,
    }, el("span", { class: "meld-no", "aria-hidden": "true", text: String(i + 1) }));
    for (const tile of meld) meldBox.append(editing ? tileButton(tile, "table") : tile.die ? dieElement(tile.code, tile.die, meta, { still: true }) : tileElement(tile.code, meta));
    if (reasons) meldBox.append(el("span", { class: "reason", "data-testid": "meld-reason", text: reasons.join("; ") }));
    box.append(meldBox);
  });
  if (editing) {
    const zone = el("div", { class: "drop-zone", "data-drop": "new", "data-testid": "new-meld-zone", tabindex: 0, role: "button", "aria-label": t("play.new_meld_aria"),
      onclick: dropOnClick(() => ({ kind: "new" })), onkeydown: dropOnClick(() => ({ kind: "new" })) }, t("play.new_meld_zone"));
    box.append(zone);
  } else if (!melds.length) box.append(el("span", { class: "empty", text: t("board.table_empty") }));
  $("table-note").textContent = editing && draftChanged() ? t("play.table_note") : "";
}

export function renderRack() {
  const { game, draft, meta, order } = state;
  const box = $("rack");
  box.replaceChildren();
  const editing = yourTurn() && draft && !rollPhase();
  if (!game.room) $("rack-owner").textContent = isDice() ? t("dice.your_dice") : t("play.your_rack");
  box.dataset.drop = "rack";
  if (rollPhase()) renderRollRack(box);
  else if (editing) {
    const byCode = new Map();
    for (const tile of draft.rack) { if (!byCode.has(tile.code)) byCode.set(tile.code, []); byCode.get(tile.code).push(tile); }
    for (const code of sortTiles(draft.rack.map((t) => t.code), order, meta)) box.append(tileButton(byCode.get(code).shift(), "rack"));
  } else {
    const dice = new Map();
    const rack = game.rack || []; // a spectator has none
    (game.dice || []).forEach((die, i) => { if (!dice.has(rack[i])) dice.set(rack[i], []); dice.get(rack[i]).push(die); });
    for (const code of sortTiles(rack, order, meta)) box.append(dice.has(code) ? dieElement(code, dice.get(code).shift(), meta) : tileElement(code, meta));
  }
  const drawn = state.drawn && box.querySelector(`[data-tile="${state.drawn}"]`);
  if (drawn) {
    drawn.classList.add("drawn");
    drawn.dataset.drawn = "true";
    drawn.setAttribute("aria-label", `${drawn.getAttribute("aria-label")} (${t("play.just_drawn")})`);
  }
  if (!box.children.length) box.append(el("span", { class: "empty", text: isDice() ? t("dice.none_left") : t("play.rack_empty") }));
  const left = editing ? draft.rack.length : (game.rack || []).length;
  const note = [isDice() ? `(${t("count.dice", { n: left })}${rollPhase() ? `: ${t("dice.pick_to_roll")}` : ""})` : `(${t("count.tiles", { n: left })})`];
  if (discardRule(game) && game.discard_pile.length) {
    const top = game.discard_pile[game.discard_pile.length - 1];
    note.push(` · ${t("play.discard_pile")} `, tileElement(top, meta, { extraClass: "small", attrs: { "data-testid": "discard-top" } }));
  }
  $("rack-note").replaceChildren(...note);
}

export function renderControls() {
  const { game, draft, hintLevel, order } = state;
  const mine = yourTurn();
  const changed = mine && draft && draftChanged();
  const discarding = discardRule(game);
  const dice = isDice();
  $("end-turn").disabled = !mine || rollPhase();
  $("end-turn").textContent = discarding ? t("play.end_turn_discard") : dice ? t("dice.play") : t("play.end_turn");
  $("draw").disabled = !mine || (discarding ? game.draw_from !== null || changed || game.pool === 0 : changed);
  $("draw").textContent = discarding ? t("play.draw_pool") : dice ? t("dice.pass") : t("play.draw");
  $("draw").title = changed && !discarding ? t(dice ? "play.reset_first_pass" : "play.reset_first_draw") : "";
  renderRollControls();
  $("pick").classList.toggle("hidden", !discarding);
  $("pick").disabled = !mine || game.draw_from !== null || !game.discard_pile.length || changed;
  $("undo").disabled = !mine || !draft || !draft.history.length;
  $("reset").disabled = !changed;
  $("undo-turn").classList.toggle("hidden", !game.practice); // take-back would show the pool's next tile
  $("undo-turn").disabled = !mine || !game.can_undo_turn;
  $("hint").disabled = !mine;
  $("hint").textContent = rollPhase() ? t("dice.hint_roll") : hintLevel ? t("play.hint_level", { n: Math.min(3, hintLevel + 1) }) : t("play.hint");
  const sel = mine ? [...state.selected].map(findTile).filter(Boolean) : [];
  $("split").disabled = !(sel.length === 1 && sel[0].where !== draft.rack && sel[0].index > 0);
  $("join").disabled = new Set(sel.filter((f) => f.where !== draft.rack).map((f) => f.where)).size < 2;
  $("to-new").disabled = !sel.length;
  $("sort-colour").setAttribute("aria-pressed", String(order === "colour"));
  $("sort-number").setAttribute("aria-pressed", String(order === "number"));
}

export function renderLog() {
  const log = $("log");
  log.replaceChildren(...state.game.log.map((e) => el("li", { text: describe(e) })));
  log.scrollTop = log.scrollHeight;
  $("download").href = savedPath(state.gameId);
  $("replay-open").textContent = isDice() ? t("play.replay_game") : t("play.replay");
}

function renderRoundOver() {
  const { game, meta } = state;
  const panel = $("round-over");
  panel.classList.toggle("hidden", !game.finished);
  if (!game.finished) return;
  const winner = game.winner;
  $("round-title").textContent = isDice() ? t("dice.game_over") : t("play.round_over");
  $("next-round").textContent = isDice() ? t("dice.next_game") : t("play.next_round");
  const you = winner === game.seat;
  const wins = (how) => capital(t(you ? "over.you_win" : "over.wins", { who: name(winner), how }));
  if (isDice()) {
    if (winner === null) $("round-summary").textContent = t("over.dice_draw");
    else $("round-summary").textContent = wins(game.end_reason === "out" ? t("over.every_die") : t("over.blocked"));
  } else {
    $("round-summary").textContent = wins(game.end_reason === "out" ? t("over.went_out") : t("over.lowest_rack"));
  }
  const last = game.results.last;
  $("scores").replaceChildren(
    el("tr", {}, el("th", { text: t("over.player") }), el("th", { text: isDice() ? t("over.this_game") : t("over.this_round") }), el("th", { text: t("over.total") }), el("th", { text: isDice() ? t("over.dice_left") : t("board.rack_left") })),
    ...game.players.map((p, s) => el("tr", {}, el("td", { text: playerWord(p.name) }), el("td", { text: last ? String(last.scores[s]) : "" }),
      el("td", { text: String(game.results.totals[s]) }), el("td", {}, ...(p.dice ? p.dice.map((d) => dieElement(d.face, d.die, meta)) : (p.rack || []).map((c) => tileElement(c, meta)))))),
  );
}
