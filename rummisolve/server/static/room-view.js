// What a room adds to the play page's view (play-view.js draws the table, the rack, the log): whose
// turn it is by name, the players with their tile counts, the turn's clock, the waiting room with the
// invite, the spectator's page (no rack, no controls) and, on a shared screen, the "pass the device"
// screen that keeps the next player's rack out of the page until they say they hold it.
import { $, count, el, showMessage } from "./common.js";
import { room, sharedScreen } from "./room-state.js";
import { state } from "./play-state.js";

const actions = { confirmPass: () => {}, giveSeatToAI: () => {} };
const levels = new Map(); // seat -> the AI level chosen for it in the waiting room

/** The room's own buttons: copy the invite, the pass screen's "show my rack". */
export function wireRoom({ confirmPass, giveSeatToAI }) {
  Object.assign(actions, { confirmPass, giveSeatToAI });
  $("pass-ready").addEventListener("click", () => actions.confirmPass());
  $("copy-invite").addEventListener("click", () => copy($("invite-link").value, "The invite link is copied: send it to your friends."));
  $("copy-invite-bar").addEventListener("click", () => copy($("invite-link").value, "The invite link is copied."));
  $("copy-code").addEventListener("click", () => copy(room.code, `The code ${room.code} is copied.`));
}

async function copy(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    showMessage($("room-message"), done, "good");
  } catch {
    $("invite-link").select(); // no clipboard here (an insecure origin, a refused permission): selected to copy by hand
    showMessage($("room-message"), `Copy it by hand: ${text}`, "info");
  }
}

const isAI = (player) => player.kind !== "human";
const label = (player) => (isAI(player) && !player.name.startsWith(player.kind) ? `${player.name} (${player.kind} AI)` : isAI(player) ? `${player.name} (AI)` : player.name);

function turnText(view, seat, passTo) {
  const mover = view.players[view.turn];
  if (view.status === "waiting") return `Waiting for ${count(view.players.filter((p) => !p.joined).length, "player")} to join`;
  if (view.status === "archived") return "This room is archived: nobody played or watched it for a long time";
  if (view.status === "over") return `Round over after ${view.turn_number} turns`;
  const turn = `turn ${view.turn_number + 1}`;
  if (seat !== null && view.turn === seat) return sharedScreen() ? `Your turn, ${mover.name} · ${turn}` : `Your turn · ${turn}`;
  if (passTo !== null) return `${view.players[passTo].name}'s turn · pass the device to ${view.players[passTo].name}`;
  return `${isAI(mover) ? "AI " : ""}${mover.name} is playing · ${turn}`;
}

function renderPlayers(view, seat) {
  const current = view.status === "playing" ? view.turn : null;
  $("players").replaceChildren(...view.players.map((p, s) => {
    const here = room.seats.has(s) && (s === seat || sharedScreen());
    const tiles = p.joined ? `${count(p.tiles, "tile")}${p.opened ? "" : " · not opened"}` : "free seat";
    return el("span", { class: `player${s === current ? " current" : ""}${s === seat ? " you" : ""}`, "data-testid": "player", "data-seat": s },
      `${label(p)}${s === seat ? " (you)" : here ? " (this screen)" : ""}: ${tiles}`);
  }));
}

function renderWaiting(view) {
  const waiting = view.status === "waiting";
  $("waiting").classList.toggle("hidden", !waiting);
  $("invite-link").value = `${location.origin}${view.invite}`;
  $("invite-base").textContent = location.host;
  $("room-code").textContent = view.room;
  if (!waiting) return;
  const creator = room.seats.has(view.creator);
  $("seat-list").replaceChildren(...view.players.map((p, s) => {
    const item = el("li", { "data-testid": "seat", "data-seat": s, class: p.joined ? "joined" : "free" }, el("strong", { text: `Seat ${s + 1}: ` }));
    if (isAI(p)) item.append(`${label(p)}, plays by itself`);
    else if (p.joined) item.append(`${p.name} has joined${room.seats.has(s) ? (sharedScreen() ? " (on this screen)" : " (you)") : ""}`);
    else {
      item.append(el("span", { class: "muted", text: "waiting for a player…" }));
      if (creator) {
        const level = el("select", { "aria-label": `AI level for seat ${s + 1}`, onchange: () => levels.set(s, level.value) },
          ...state.meta.ai_levels.map((l) => el("option", { value: l, text: l })));
        level.value = levels.get(s) || state.meta.ai_levels[0]; // kept as pushes redraw the list
        item.append(" ", level, el("button", { type: "button", class: "small", "data-testid": "give-to-ai", onclick: () => actions.giveSeatToAI(s, level.value) }, "Give this seat to the AI"));
      }
    }
    return item;
  }));
}

function renderRoundOver(view, seat) {
  if (view.status !== "over") return;
  const winner = view.winner;
  const how = view.end_reason === "out" ? "went out" : "had the lowest rack when nobody could play";
  if (winner !== null && winner !== undefined) {
    $("round-summary").textContent = `${winner === seat ? "You win" : `${view.players[winner].name} wins`}: ${how}.`;
  }
  $("next-round").classList.toggle("hidden", !room.seats.size); // a spectator deals nothing
}

/** The room's parts of the page, after play-view.js has drawn the rest (before the first view: the bar only). */
export function renderRoom() {
  const { view, passTo } = room;
  $("room-info").classList.remove("hidden");
  $("room-code-bar").textContent = room.code;
  const connection = { live: "● live", reconnecting: "reconnecting…", refused: "not connected", connecting: "connecting…" }[room.connection];
  $("connection").textContent = connection;
  $("connection").className = `connection ${room.connection}`;
  if (room.refused) showMessage($("room-message"), room.refused, "bad");
  for (const id of ["skip", "practice", "hint", "undo-turn", "log-tools", "hint-text", "hint-apply-row"]) $(id).classList.add("hidden");
  $("ai-speed").closest("label").classList.add("hidden");
  $("leave").textContent = "Leave the room";
  if (!view) { $("turn").textContent = room.refused ? `Room ${room.code}: not available` : `Room ${room.code}: connecting…`; return; }
  const seat = room.shown;
  $("turn").textContent = turnText(view, seat, passTo);
  $("turn").classList.toggle("yours", seat !== null && view.status === "playing" && view.turn === seat);
  renderPlayers(view, seat);
  renderWaiting(view);
  renderRoundOver(view, seat);
  const waiting = view.status === "waiting";
  const watching = !room.seats.size;
  $("watching").classList.toggle("hidden", !watching);
  $("watching").textContent = `${room.full ? "Every seat is taken: you" : "You"} are watching this room. You see the table and how many tiles each player holds, never a rack.`;
  $("bar-panel").classList.toggle("your-turn", seat !== null && view.turn === seat && view.status === "playing");
  $("table-panel").classList.toggle("hidden", waiting);
  $("log-panel").classList.toggle("hidden", waiting);
  $("rack-panel").classList.toggle("hidden", waiting || seat === null); // a spectator, or between turns on a shared screen
  $("table-controls").classList.toggle("hidden", seat === null);
  $("rack-owner").textContent = sharedScreen() && seat !== null ? `${view.players[seat].name}'s rack` : "Your rack";
  const mine = seat !== null && view.turn === seat && view.status === "playing";
  $("legend-changed-text").textContent = mine ? "changed by the other players since your last turn" : `changed by the last move${view.last ? ` (${view.last.name}'s)` : ""}`;
  const passing = passTo !== null;
  const wasHidden = $("pass").classList.contains("hidden");
  $("pass").classList.toggle("hidden", !passing);
  if (passing) {
    const name = view.players[passTo].name;
    $("pass-name").textContent = name;
    $("pass-ready").textContent = `I am ${name}: show my rack`;
    if (wasHidden) $("pass-ready").focus();
  }
  tick();
  if (!room.timerHandle) room.timerHandle = setInterval(tick, 250);
}

/** The mover's clock (the server times the turn out by itself; this only shows the time left). */
function tick() {
  const box = $("timer");
  if (room.deadline === null) { box.classList.add("hidden"); return; }
  const left = Math.max(0, (room.deadline - Date.now()) / 1000);
  box.classList.remove("hidden");
  box.textContent = `${Math.ceil(left)} s`;
  box.classList.toggle("low", left < 10);
}
