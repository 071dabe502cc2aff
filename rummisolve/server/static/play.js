// The play page: a game against the AIs. The server keeps the game (and judges every play); this page
// keeps only the human's tentative table for the turn being played. This module starts the page and
// wires its controls; the parts are play-state.js (the state), play-client.js (the requests),
// play-draft.js (the table's edits), play-drag.js (drag and drop), play-view.js (the view),
// play-turns.js (the game's course), play-dice.js (Xpress: the dice and their roll), play-replay.js and play-setup.js (the start page). A game room
// (people against people: /r/<code>, /play?room=<code>) is the same page driven by the room's
// protocol: room-setup.js ("Play with friends"), room-join.js, room-play.js, room-view.js.
import { $, loadMeta, RulesForm, showMessage } from "./common.js";
import { getGame } from "./play-client.js";
import { joinSelected, moveTiles, resetTurn, splitSelected, undoEdit } from "./play-draft.js";
import { closeReplay, openReplay } from "./play-replay.js";
import { openFile } from "./play-upload.js";
import { createGame, fitSeats, listSaved, renderSeats, wireSetup } from "./play-setup.js";
import { params, setRender, state } from "./play-state.js";
import { applyHint, draw, endTurn, enterGame, hint, nextRound, roll, skipAhead, takeBackTurn } from "./play-turns.js";
import { render } from "./play-view.js";
import { openRoom } from "./room-join.js";
import { confirmPass, giveSeatToAI, roomDraw, roomEndTurn, roomNextRound, roomRoll } from "./room-play.js";
import { wireRoomSetup } from "./room-setup.js";
import { wireRoom } from "./room-view.js";
import { t } from "./words.js";

function parseRulesParam(text) {
  if (!text) return "standard";
  try { return JSON.parse(text); } catch { return text; }
}

/** The game's controls; ``turns``: the actions of a game against the AIs, or of a room's seat. */
function wireGame(turns) {
  $("end-turn").addEventListener("click", turns.endTurn);
  $("draw").addEventListener("click", () => turns.draw("pool"));
  $("pick").addEventListener("click", () => turns.draw("discard"));
  $("undo").addEventListener("click", undoEdit);
  $("reset").addEventListener("click", resetTurn);
  $("undo-turn").addEventListener("click", takeBackTurn);
  $("hint").addEventListener("click", hint);
  $("roll").addEventListener("click", () => turns.roll([...state.rollPick]));
  $("roll-all").addEventListener("click", () => turns.roll("all"));
  $("roll-none").addEventListener("click", () => turns.roll([]));
  $("hint-apply").addEventListener("click", applyHint);
  $("split").addEventListener("click", splitSelected);
  $("join").addEventListener("click", joinSelected);
  $("to-new").addEventListener("click", () => moveTiles([...state.selected], { kind: "new" }));
  $("rack").addEventListener("click", (event) => { if (event.target === $("rack") && state.selected.size) moveTiles([...state.selected], { kind: "rack" }); });
  $("sort-colour").addEventListener("click", () => { state.order = "colour"; render(); });
  $("sort-number").addEventListener("click", () => { state.order = "number"; render(); });
  $("next-round").addEventListener("click", turns.nextRound);
  $("replay-open").addEventListener("click", openReplay);
  $("replay-close").addEventListener("click", closeReplay);
  $("skip").addEventListener("click", skipAhead);
  $("upload").addEventListener("change", () => { if ($("upload").files[0]) openFile($("upload").files[0]); });
  const speed = $("ai-speed");
  if (![...speed.options].some((o) => Number(o.value) === state.aiDelay)) speed.append(new Option(`${state.aiDelay} ms`, state.aiDelay));
  speed.value = String(state.aiDelay);
  speed.addEventListener("change", () => {
    state.aiDelay = Number(speed.value);
    const url = new URL(location.href);
    url.searchParams.set("delay", speed.value);
    history.replaceState(null, "", url);
  });
}

async function main() {
  setRender(render);
  state.meta = await loadMeta();
  state.rulesForm = new RulesForm($("setup-rules"), state.meta, fitSeats, { games: true, dice: true });
  renderSeats(1);
  wireSetup();
  wireRoomSetup();
  const invite = /^\/r\/([^/]+)\/?$/.exec(location.pathname);
  const room = invite ? decodeURIComponent(invite[1]) : params.get("room");
  wireGame(room ? { endTurn: roomEndTurn, draw: roomDraw, nextRound: roomNextRound, roll: roomRoll } : { endTurn, draw, nextRound, roll });
  if (room) {
    wireRoom({ confirmPass, giveSeatToAI });
    return openRoom(room, { invited: Boolean(invite), token: params.get("token") });
  }

  const id = params.get("game");
  if (id) {
    const response = await getGame(encodeURIComponent(id));
    if (response.ok) {
      state.version = response.data.version;
      return enterGame(id, response.data.state);
    }
    showMessage($("setup-message"), response.data.error || t("play.game_not_here"), "bad");
  } else if (params.get("players")) {
    const seed = params.get("seed");
    return createGame({ players: params.get("players"), rules: parseRulesParam(params.get("rules")), ...(seed ? { seed: Number(seed) } : {}) });
  }
  $("setup").classList.remove("hidden");
  $("friends").classList.remove("hidden");
  document.body.dataset.ready = "true";
  await listSaved();
}

main();
