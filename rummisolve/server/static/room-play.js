// A game room on the play page: the views pushed over the WebSocket drive the single-player page's
// view (play-view.js) and draft (play-draft.js); the seat's actions go to the room's protocol. On a
// shared screen (several seats in this browser) the seat on screen is the one to move, once its
// player has said they hold the device (room-view.js shows the "pass the device" screen).
import { $, api } from "./common.js";
import { forgetSeat, follow, getRoom, handSeat, postNextRound, postTurn } from "./room-client.js";
import { drawnBy, newest, room, sharedScreen, WATCH } from "./room-state.js";
import { renderRoom } from "./room-view.js";
import { startDraft } from "./play-draft.js";
import { isDice, markRolled, rollPhase } from "./play-dice.js";
import { say, showError, state, yourTurn } from "./play-state.js";
import { changedSince, endTurnRequest, markIllegal } from "./play-turns.js";
import { describe, render, renderControls } from "./play-view.js";
import { capital, errorWords, lang, reasonWords, t } from "./words.js";

/** Open room ``code`` with the seats this browser holds (Map seat -> token; none: watch it). */
export function enterRoom(code, seats) {
  room.code = code.toUpperCase();
  room.seats = new Map([...seats].sort((a, b) => a[0] - b[0]));
  state.decorate = renderRoom;
  $("setup").classList.add("hidden");
  $("friends").classList.add("hidden");
  $("game").classList.remove("hidden");
  document.title = t("room.title", { code: room.code });
  for (const [seat, token] of room.seats) watch(seat, token);
  if (!room.seats.size || sharedScreen()) watch(WATCH, null); // what everyone may see: between turns on a shared screen
}

function watch(key, token) {
  room.followers.set(key, follow(room.code, token, (view) => receive(key, view), (s, detail) => connection(key, s, detail)));
}

function connection(key, status, detail) {
  room.connection = status;
  if (status === "refused") {
    const error = lang === "en" && detail.error ? detail.error : t("room.refused", { code: detail.code });
    if (detail.code === 4403 && key !== WATCH) { // the seat is no longer this token's (handed to an AI): watch
      forgetSeat(room.code, key);
      room.seats.delete(key);
      room.views.delete(key);
      room.followers.delete(key);
      if (!room.seats.size && !room.followers.has(WATCH)) watch(WATCH, null);
      room.refused = t("room.seat_gone", { n: key + 1, error });
    } else room.refused = error;
    if (!newest()) document.body.dataset.ready = "true";
  }
  refresh();
}

/** A view pushed (or answered) for ``key`` (a seat, or WATCH): kept if it is newer than the one held. */
export function receive(key, view) {
  const had = room.views.get(key);
  if (had && had.version >= view.version) return;
  room.views.set(key, view);
  if (key !== WATCH && view.last && view.last.player === key && (view.turn !== key || view.status !== "playing")) {
    room.tableAtEnd.set(key, view.table); // its turn is over: what the others change from here is theirs
  }
  if (newest() === view) room.deadline = view.timer && view.timer.left !== null ? Date.now() + view.timer.left * 1000 : null;
  refresh();
}

/** Which seat is on screen, and whose player the device is to be passed to (a shared screen). */
function onScreen(now) {
  if (!room.seats.size) return { shown: null, passTo: null };
  if (!sharedScreen()) return { shown: [...room.seats.keys()][0], passTo: null };
  const playing = now.status === "playing";
  if (room.confirmed !== null && (!playing || now.turn !== room.confirmed)) room.confirmed = null; // their turn is over
  if (!playing || !room.seats.has(now.turn)) return { shown: null, passTo: null };
  return room.confirmed === now.turn ? { shown: now.turn, passTo: null } : { shown: null, passTo: now.turn };
}

/** Show the room as it is now (the newest view), through the single-player page's view. */
export function refresh() {
  const now = newest();
  if (!now) { renderRoom(); return; }
  const { shown, passTo } = onScreen(now);
  const seat = shown !== null && room.views.has(shown) ? shown : null;
  // Without a seat on screen only the spectator's view is shown: a seat's holds its own draws.
  const view = seat !== null ? room.views.get(seat) : room.views.get(WATCH);
  if (!view) return; // its first push is on its way
  room.view = view;
  room.shown = seat;
  room.passTo = passTo;
  state.game = view; // the spectator's when no seat is on screen: no rack, no seat
  state.drawn = seat === null ? null : drawnBy(view, seat);
  const last = view.last;
  state.lastChanged = last && last.type === "play" ? changedSince(last.before, view.table) : new Set();
  const since = seat === null ? null : room.tableAtEnd.get(seat) || (last ? last.before : null);
  state.sinceMine = changedSince(since, view.table);
  const key = JSON.stringify([seat, view.round, view.turn_number, view.turn, view.status, view.table, view.rack || []]);
  if (key !== room.draftKey) { // a new turn, or the table or the rack changed: a new draft on it
    room.draftKey = key;
    startDraft();
    showError("");
  }
  render(); // play-view.js, then the room's parts (state.decorate)
  document.body.dataset.roomVersion = String(view.version); // the version on screen (for scripts and tests)
  document.body.dataset.ready = "true";
}

/** The player on screen says they hold the device: their rack shows. */
export async function confirmPass() {
  const seat = room.passTo;
  if (seat === null) return;
  room.confirmed = seat;
  const held = room.views.get(seat);
  if (!held || held.version < newest().version) { // its socket is behind: ask for the view as it is
    const response = await getRoom(room.code, room.seats.get(seat));
    if (response.ok) receive(seat, response.data);
  }
  say("");
  refresh();
}

/** Send an action of the seat on screen (``send(token, version)``): its answer's data, or null (said). */
async function act(seat, send) {
  state.pending++;
  document.body.dataset.pending = "true";
  renderControls();
  let response;
  try {
    response = await send(room.seats.get(seat), newest().version);
  } finally {
    state.pending--;
    if (!state.pending) delete document.body.dataset.pending;
    render(); // the controls again: the push of this action may have come first, while it was pending
  }
  if (response.ok) {
    showError("");
    receive(seat, response.data);
    return response.data;
  }
  const data = typeof response.data === "object" ? response.data : { error: String(response.data) };
  if (response.status === 400 && data.reasons) { // an illegal play: nothing changed, the turn goes on
    markIllegal(data.reasons);
    showError(t("play.not_allowed_msg", { reasons: data.reasons.map(reasonWords).join("; ") || errorWords(response.status, data.error) }));
    render();
    return null;
  }
  if (response.status === 409) { // not this seat's turn any more, or the room moved on: show it as it is
    const fresh = await getRoom(room.code, room.seats.get(seat));
    if (fresh.ok) receive(seat, fresh.data);
    showError(t("room.conflict", { error: errorWords(response.status, data.error).replace(/[.。]$/, "") }));
    return null;
  }
  showError(errorWords(response.status, data.error));
  return null;
}

/** After the seat's own move: what it did, said (on a shared screen nothing: the next player is to look). */
function done(seat, answer) {
  if (!answer) return;
  if (sharedScreen()) say("");
  else say(answer.last ? `${capital(describe(answer.last))}.` : "", "good");
}

/** The referee's verdict on a play of ``seat`` (POST /verify, answered 200 legal or not), its reasons
 * in a player's words; null when it cannot tell (the room's turn then judges it). A play refused
 * here is never sent: an illegal play is shown, not logged by the browser as a failed request. */
async function judged(seat, table) {
  const view = room.views.get(seat);
  if (!view || !view.rack) return null;
  const position = { rules: view.rules, table: view.table, rack: view.rack, opened: view.players[seat].opened };
  const response = await api("/verify", { position, table });
  if (!response.ok) return null;
  const words = (message) => message.replace(/: [a-z_]+: /g, ": ").replace(/table\[(\d+)\]/g, (_, i) => `meld ${Number(i) + 1}`);
  return { ...response.data, reasons: response.data.reasons.map((r) => ({ ...r, message: words(r.message) })) };
}

export async function roomEndTurn() {
  if (!yourTurn()) return;
  const request = endTurnRequest();
  if (!request) return;
  const seat = room.shown;
  if (request.action === "play") {
    const verdict = await judged(seat, request.body.table);
    if (verdict && !verdict.legal) {
      markIllegal(verdict.reasons);
      showError(t("play.not_allowed_msg", { reasons: verdict.reasons.map(reasonWords).join("; ") }));
      render();
      return;
    }
  }
  const body = request.action === "play" ? request.body : { discard: request.body.tile };
  done(seat, await act(seat, (token, version) => postTurn(room.code, token, { ...body, version })));
}

/** Draw from "pool" or (under the discard rule) take the "discard"; Xpress: pass. */
export async function roomDraw(source) {
  if (!yourTurn()) return;
  const seat = room.shown;
  const body = isDice() ? { pass: true } : { draw: true, ...(source === "discard" ? { source } : {}) };
  done(seat, await act(seat, (token, version) => postTurn(room.code, token, { ...body, version })));
}

/** Xpress: roll the dice named ("all", or none: keep them all), once a turn; then play or pass. */
export async function roomRoll(dice) {
  if (!rollPhase()) return;
  const seat = room.shown;
  const answer = await act(seat, (token, version) => postTurn(room.code, token, { roll: dice, version }));
  if (!answer) return;
  state.rollPick = new Set();
  if (answer.last && answer.last.type === "roll") {
    markRolled(answer.last.dice);
    say(`${capital(describe(answer.last))}. ${t("dice.now_play")}`, "info");
  }
  render();
}

export async function roomNextRound() {
  const seat = room.shown ?? [...room.seats.keys()][0];
  if (seat === undefined) return;
  say("");
  await act(seat, (token, version) => postNextRound(room.code, token, version));
}

/** The creator hands seat ``seat`` (nobody took it, or its player left) to the AI ``kind``. */
export async function giveSeatToAI(seat, kind) {
  const creator = newest().creator;
  if (!room.seats.has(creator)) return;
  await act(creator, (token, version) => handSeat(room.code, token, seat, kind, version));
}
