// The game's course: the human's actions sent to the server, the AIs' turns shown one at a time,
// the turn timer, and the way into a game.
import { $, formatTiles } from "./common.js";
import { getGame, postAction } from "./play-client.js";
import { isDice, markRolled, renderOpponents, rollPhase } from "./play-dice.js";
import { applyHint as layOutHint, codes, draftChanged, findTile, sameMeld, startDraft } from "./play-draft.js";
import { discardRule, say, state, yourTurn } from "./play-state.js";
import { describe, render, renderBar, renderControls, renderLog, renderRack, renderTable } from "./play-view.js";
import { capital, errorWords, lang, list, num, reasonWords, t } from "./words.js";

/** POST an action of this game: its answer, or null (said on the page; a 409 reloads the game). */
async function act(path, body) {
  state.pending++;
  document.body.dataset.pending = "true";
  if (state.game) renderControls();
  let response;
  try {
    // The version this page last saw: a game played on meanwhile (another tab) refuses it (409).
    response = await postAction(state.gameId, path, { ...(body ?? {}), ...(state.version ? { version: state.version } : {}) });
  } finally {
    state.pending--;
    if (!state.pending) delete document.body.dataset.pending;
  }
  if (!response.ok) {
    const error = errorWords(response.status, response.data.error);
    if (response.status === 409) { // not your turn, the round is over, or played elsewhere: the game as it is
      await reload();
      say(t("play.conflict", { error: error.replace(/: reload the game; nothing was changed$/, "").replace(/[.。]$/, "") }), "bad");
    } else say(error, "bad");
    return null;
  }
  if (response.data.version !== undefined) state.version = response.data.version;
  return response.data;
}

async function reload() {
  const response = await getGame(state.gameId);
  if (response.ok) { state.game = response.data.state; state.version = response.data.version; startDraft(); render(); }
}

/** What End turn asks of the server: {action: "play", body: {table, discard?}} or {action: "discard",
 * body: {tile}}; null when the turn cannot end so (the reason said). A room sends the same (room-play.js). */
export function endTurnRequest() {
  const { draft, game } = state;
  const table = codes(draft.table);
  if (discardRule(game)) {
    const pick = [...state.selected].map(findTile).filter((f) => f && f.where === draft.rack);
    if (pick.length !== 1) {
      say(t("play.need_discard"), "bad");
      return null;
    }
    const tile = pick[0].tile.code;
    if (draftChanged()) return { action: "play", body: { table, discard: tile } };
    if (game.draw_from !== null) return { action: "discard", body: { tile } };
    say(t("play.draw_before_discard"), "bad");
    return null;
  }
  if (!draftChanged()) {
    say(t("play.unchanged"), "bad");
    return null;
  }
  return { action: "play", body: { table } };
}

/** An illegal play: the referee's reasons marked on the melds they concern (the turn goes on). */
export function markIllegal(reasons) {
  state.badMelds = new Map();
  for (const reason of reasons) {
    if (reason.meld === null || reason.meld === undefined) continue;
    if (!state.badMelds.has(reason.meld)) state.badMelds.set(reason.meld, []);
    state.badMelds.get(reason.meld).push(reasonWords({ ...reason, meld: null }));
  }
  state.selected = new Set();
}

export async function endTurn() {
  if (!yourTurn()) return;
  const request = endTurnRequest();
  if (!request) return;
  const answer = await act(request.action, request.body);
  if (!answer) return;
  if (answer.legal === false) {
    markIllegal(answer.reasons);
    say(t("play.not_allowed_msg", { reasons: lang === "en" ? answer.message : answer.reasons.map(reasonWords).join("; ") }), "bad");
    render();
    return;
  }
  say(answer.event ? `${capital(describe(answer.event))}.` : "", "good");
  await turnDone(answer.state);
}

/** Xpress: roll the dice named (none: keep them all), once a turn; then the table is yours to edit. */
export async function roll(dice) {
  if (!rollPhase()) return;
  const answer = await act("roll", { dice });
  if (!answer) return;
  state.game = answer.state;
  state.rollPick = new Set();
  state.hintDice = null;
  clearHint();
  markRolled(answer.event.dice);
  startDraft();
  say(`${capital(describe(answer.event))}. ${t("dice.now_play")}`, "info");
  render();
}

function clearHint() {
  state.hintLevel = 0;
  state.hintTable = null;
  $("hint-text").classList.add("hidden");
  $("hint-apply-row").classList.add("hidden");
}

/** The hint's button: lay out the hinted move, or (before an Xpress roll) pick the advised dice. */
export function applyHint() {
  if (rollPhase() && state.hintDice) {
    state.rollPick = new Set(state.hintDice);
    render();
    return;
  }
  layOutHint();
}

/** Draw from "pool" or (under the discard rule) take the "discard"; Xpress: pass. */
export async function draw(source) {
  if (!yourTurn()) return;
  if (isDice()) {
    const passed = await act("pass");
    if (!passed) return;
    say(`${describe(passed.event)}.`, "info");
    await turnDone(passed.state);
    return;
  }
  const answer = await act("draw", { source });
  if (!answer) return;
  say(`${describe(answer.event)}.`, "info");
  const drawn = answer.event && answer.event.tile ? answer.event.tile : null;
  if (discardRule(state.game) && answer.state.turn === state.game.seat) {
    state.game = answer.state;
    state.drawn = drawn;
    startDraft();
    state.hintTable = null;
    render();
    return;
  }
  await turnDone(answer.state, drawn);
}

async function turnDone(next, drawn = null) {
  state.game = next;
  state.tableAtMyEnd = next.table.map((meld) => [...meld]);
  state.drawn = drawn;
  state.rollPick = new Set();
  state.hintDice = null;
  clearHint();
  stopTimer();
  await runAIs();
}

/** The AIs' turns, one at a time, each shown for a moment so a person can follow it. */
async function runAIs() {
  state.busy = true;
  state.skip = false;
  try {
    while (!state.game.finished && state.game.turn !== state.game.seat) {
      render();
      await pause(state.aiDelay / 3);
      const answer = await act("advance");
      if (!answer) break;
      const game = (state.game = answer.state);
      const before = answer.before || [];
      state.lastChanged = new Set(game.table.map((m, i) => i).filter((i) => !before.some((b) => sameMeld(b, game.table[i]))));
      state.showing = answer.event ? answer.event.player : null; // the header and the highlight: who just moved
      if (answer.roll) markRolled(answer.roll.dice);
      renderOpponents();
      renderTable();
      renderRack();
      renderLog();
      renderBar();
      $("turn").textContent = `${answer.roll ? `${describe(answer.roll)} · ` : ""}${describe(answer.event)}${answer.illegal ? ` (${lang === "en" ? `its play was illegal: ${answer.illegal}` : t("play.ai_illegal")})` : ""}`;
      await pause(state.aiDelay);
      state.showing = null;
    }
  } finally {
    state.busy = false;
    state.skip = false;
    state.showing = null;
  }
  state.sinceMine = changedSince(state.tableAtMyEnd, state.game.table);
  startDraft();
  render();
  startTimer();
}

/** Wait ``ms`` (an AI turn on screen), or less if the player skips ahead. */
function pause(ms) {
  if (state.skip || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    state.wake = () => { clearTimeout(timer); resolve(); };
  });
}

/** Skip ahead: the rest of the AIs' turns go by at once (each still in the log). */
export function skipAhead() {
  state.skip = true;
  if (state.wake) state.wake();
}

/** The indices of ``now``'s melds that ``then`` (a table of codes, or null: nothing to compare) does not hold. */
export function changedSince(then, now) {
  if (!then) return new Set();
  const left = new Map();
  for (const meld of then) left.set(meld.join(" "), (left.get(meld.join(" ")) || 0) + 1);
  const changed = new Set();
  now.forEach((meld, i) => {
    const key = meld.join(" ");
    if (left.get(key)) left.set(key, left.get(key) - 1);
    else changed.add(i);
  });
  return changed;
}

/** A hint in the page's language from its fields (the server words ``text`` in English): the tiles
 * (or dice) the best move plays; from level 2 the melds it changes; at level 3 its steps. */
function hintWords(hint) {
  const n = hint.tiles_played;
  if (!n) return isDice() ? t("hint.no_dice") : t("step.no_move");
  const parts = [t(isDice() ? "hint.play_dice" : "hint.play", { n, tiles: formatTiles(hint.played) })];
  if (hint.touched) {
    const melds = hint.touched.map((i) => formatTiles(state.game.table[i] || []));
    parts.push(melds.length ? t("hint.changes", { n: melds.length, melds: list(melds) }) : t("hint.leaves"));
  }
  for (const step of hint.steps || []) {
    parts.push(`${step.tile} ${step.from === "rack" ? t("step.from_rack", { to: step.to + 1 }) : t("step.from_meld", { from: step.from + 1, to: step.to + 1 })}.`);
  }
  return parts.join(" ");
}

/** The re-roll hint in the page's language: which dice to roll (or keep them all) and the dice it expects to play. */
function rerollWords(advice) {
  const expected = num(advice.reroll.expected.tiles, 2);
  return advice.dice.length ? t("hint.reroll", { dice: advice.dice.join(" "), expected }) : t("hint.keep", { expected });
}

/** The next hint level (up to 3); the third has a table to lay out. */
export async function hint() {
  if (!yourTurn()) return;
  if (rollPhase()) {
    say(t("dice.working"), "info");
    const advice = await act("hint", { level: 1 });
    if (!advice) return;
    say("");
    $("hint-text").textContent = t("play.hint_text", { text: lang === "en" ? advice.hint.text : rerollWords(advice.hint) });
    $("hint-text").classList.remove("hidden");
    state.hintDice = advice.hint.dice;
    $("hint-apply").textContent = advice.hint.dice.length ? t("dice.pick_these", { dice: advice.hint.dice.join(" ") }) : t("dice.pick_none");
    $("hint-apply-row").classList.remove("hidden");
    render();
    return;
  }
  $("hint-apply").textContent = t("play.hint_apply");
  state.hintLevel = Math.min(3, state.hintLevel + 1);
  const answer = await act("hint", { level: state.hintLevel });
  if (!answer) return;
  const box = $("hint-text");
  box.textContent = lang === "en" ? answer.hint.text : hintWords(answer.hint);
  box.classList.remove("hidden");
  state.hintTable = answer.hint.table || null;
  $("hint-apply-row").classList.toggle("hidden", !state.hintTable);
  render();
}

/** Take back the human's whole last turn (practice games only). */
export async function takeBackTurn() {
  const answer = await act("undo");
  if (!answer) return;
  state.game = answer.state;
  stopTimer();
  startDraft();
  say(t("play.took_back"), "info");
  render();
  startTimer();
}

export async function nextRound() {
  const answer = await act("next-round");
  if (!answer) return;
  $("replay").classList.add("hidden");
  say("");
  await enterGame(state.gameId, answer.state);
}

// -- the turn timer ---------------------------------------------------------------------------------

function stopTimer() {
  if (state.timerHandle) clearInterval(state.timerHandle);
  state.timerHandle = null;
  $("timer").classList.add("hidden");
}

function startTimer() {
  stopTimer();
  const { game } = state;
  if (!game.timer || !game.timer.seconds || game.finished || game.turn !== game.seat || game.timer.left === null) return;
  const deadline = Date.now() + game.timer.left * 1000;
  const box = $("timer");
  box.classList.remove("hidden");
  const tick = async () => {
    const left = Math.max(0, (deadline - Date.now()) / 1000);
    box.textContent = `${Math.ceil(left)} s`; // the clock before it is drawn by CSS: no emoji font needed
    box.classList.toggle("low", left < 10);
    if (left <= 0 && !state.busy) {
      stopTimer();
      const answer = await act("timeout");
      if (answer && answer.event) {
        say(t("play.time_up", { what: describe(answer.event) }), "bad");
        await turnDone(answer.state);
      } else if (answer) {
        state.game = answer.state;
        startTimer();
      }
    }
  };
  tick();
  state.timerHandle = setInterval(tick, 250);
}

// -- into a game ------------------------------------------------------------------------------------

export async function enterGame(id, game) {
  state.gameId = id;
  state.game = game;
  $("setup").classList.add("hidden");
  $("friends").classList.add("hidden");
  $("game").classList.remove("hidden");
  startDraft();
  render();
  document.body.dataset.ready = "true";
  if (!game.finished && game.turn !== game.seat) await runAIs();
  else startTimer();
}
