// The play page's state, all of it in one object, and what every part of the page asks of it.
import { $, showMessage } from "./common.js";

export const params = new URLSearchParams(location.search);
export const AI_DELAY = Math.max(0, Number(params.get("delay") ?? 900)) || 0;

export const state = {
  meta: null, // GET /meta
  rulesForm: null, // the new game's rules
  gameId: null,
  game: null, // the server's view of the game
  version: null, // the game's version when the server last answered (sent with every action)
  draft: null, // {table: [[tile]], rack: [tile], start, history}; a tile is {id, code, fromRack}
  nextId: 1, // the next draft tile's id
  selected: new Set(), // ids of the selected draft tiles
  order: "colour", // the rack's: "colour" or "number"
  hintLevel: 0,
  hintTable: null, // the table of the last hint that has one
  busy: false, // the AIs are moving
  pending: 0, // requests on their way
  badMelds: new Map(), // meld index -> reasons, after an illegal end of turn
  lastChanged: new Set(), // melds an AI turn changed, shown until the human edits
  aiDelay: AI_DELAY, // ms each AI turn stays on screen (the speed the player chose)
  skip: false, // the player skipped ahead: the AIs' turns until theirs go by at once
  wake: null, // ends the pause under way early (Skip)
  tableAtMyEnd: null, // the table as the human's last turn left it (codes)
  sinceMine: new Set(), // on the human's turn: melds the others changed since then
  drawn: null, // the tile the human just drew (marked on the rack)
  showing: null, // the seat whose AI turn is on screen (the header names it, its chip is highlighted)
  timerHandle: null, // the turn timer's interval
  drag: null, // the drag under way: {id, ids, x, y, active, ghost, source}
  suppressClick: false, // the click that ends a drag selects nothing
  frames: [], // the replay's, one a turn
  rollPick: new Set(), // Xpress: the free dice picked for the turn's roll (names)
  justRolled: new Set(), // Xpress: the dice rolled a moment ago (they tumble once)
  hintDice: null, // Xpress: the dice the re-roll hint advises rolling
  decorate: null, // a game room's parts of the page, drawn after the rest by every render (room-view.js)
};

const view = { render: () => {} };

/** Show the state again: the view (play-view.js) registers its render here, so the edits need not import it. */
export function render() {
  view.render();
}

export function setRender(render) {
  view.render = render;
}

export function say(text, kind = "info") {
  showMessage($("message"), text, kind);
}

/** A refused play (a room's: the referee's reasons) in data-testid="error"; the next edit clears it. */
export function showError(text) {
  showMessage($("error"), text, "bad");
}

export const yourTurn = () => {
  const { game } = state;
  return game && game.status === "playing" && game.turn === game.seat && !state.busy && !state.pending;
};

/** Whether the game is played under the discard rule (its view has a discard pile). */
export const discardRule = (game) => Array.isArray(game.discard_pile);
