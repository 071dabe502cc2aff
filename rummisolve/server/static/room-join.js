// The ways into a room: its invite /r/<code> (join a free seat under your name, or watch once every
// seat is taken), and /play?room=<code>&token=<token> (a seat's own link: the token is the seat, and
// this browser keeps it, so /play?room=<code> and a reload resume every seat it holds).
import { $, showMessage } from "./common.js";
import { getRoom, joinRoom, keepName, lastName, storedSeats, storeSeat } from "./room-client.js";
import { enterRoom } from "./room-play.js";
import { room } from "./room-state.js";
import { errorWords, list, t } from "./words.js";

const seatLink = (code, token) => `/play?room=${encodeURIComponent(code)}&token=${encodeURIComponent(token)}`;

/** Open room ``code``: from its invite (``invited``), or a seat's link (``token``: its token, if the link has one). */
export async function openRoom(code, { invited, token }) {
  code = code.toUpperCase();
  if (token && ![...storedSeats(code).values()].includes(token)) { // a kept link in a new browser: which seat is it?
    const response = await getRoom(code, token);
    if (response.ok && response.data.seat !== undefined) storeSeat(code, response.data.seat, token);
    else showMessage($("room-message"), t("room.link_no_seat", { error: errorWords(response.status, response.data.error), code }), "bad");
  }
  const seats = storedSeats(code);
  if (invited && seats.size) { // this browser has a seat here already: that seat, not another one
    history.replaceState(null, "", seatLink(code, [...seats.values()][0]));
  } else if (invited) {
    return showJoin(code);
  }
  enterRoom(code, seats);
}

async function showJoin(code) {
  const panel = $("join-room");
  $("setup").classList.add("hidden");
  $("join-code").textContent = code;
  const response = await getRoom(code); // the spectator's view: who is there, which seats are free
  if (!response.ok) {
    panel.classList.remove("hidden");
    $("join-who").textContent = "";
    for (const id of ["join-name", "join-button", "watch-button"]) $(id).classList.add("hidden");
    panel.querySelector("label").classList.add("hidden");
    showMessage($("join-message"), response.status === 404 ? t("room.no_room", { code }) : errorWords(response.status, response.data.error), "bad");
    document.body.dataset.ready = "true";
    return;
  }
  const view = response.data;
  const free = view.players.filter((p) => !p.joined).length;
  if (view.status !== "waiting" || !free) {
    room.full = view.status !== "archived";
    enterRoom(code, new Map());
    return;
  }
  const rules = typeof view.rules === "string" ? t(`preset.${view.rules}`) : t("room.rules_changed", { preset: t(`preset.${view.rules.preset || "standard"}`) });
  const who = view.players.map((p) => (p.joined ? p.name : null)).filter(Boolean);
  const timer = view.timer.seconds ? t("room.per_turn", { n: view.timer.seconds }) : "";
  $("join-who").textContent = t("room.invites", { who: view.players[view.creator].name, rules, timer, players: list(who), n: free });
  $("join-name").value = lastName();
  panel.classList.remove("hidden");
  $("join-name").focus();
  $("join-button").onclick = () => join(code);
  $("join-name").onkeydown = (event) => { if (event.key === "Enter") join(code); };
  $("watch-button").onclick = () => { panel.classList.add("hidden"); enterRoom(code, new Map()); };
  document.body.dataset.ready = "true";
}

async function join(code) {
  const name = $("join-name").value.trim();
  $("join-button").disabled = true;
  const response = await joinRoom(code, name ? { name } : {});
  $("join-button").disabled = false;
  if (response.status === 409) { // the last seat went meanwhile
    $("join-room").classList.add("hidden");
    enterRoom(code, new Map());
    showMessage($("room-message"), t("room.now_watching", { error: errorWords(response.status, response.data.error) }), "info");
    return;
  }
  if (!response.ok) { showMessage($("join-message"), errorWords(response.status, response.data.error), "bad"); return; }
  storeSeat(code, response.data.seat, response.data.token);
  keepName(name);
  history.replaceState(null, "", seatLink(code, response.data.token)); // a reload (or this link, kept) resumes the seat
  $("join-room").classList.add("hidden");
  enterRoom(code, storedSeats(code));
}
