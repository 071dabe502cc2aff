// What a room adds to the play page's view (play-view.js draws the table, the rack, the log): whose
// turn it is by name, the players with their tile counts, the turn's clock, the waiting room with the
// invite, the spectator's page (no rack, no controls) and, on a shared screen, the "pass the device"
// screen that keeps the next player's rack out of the page until they say they hold it.
import { $, el, showMessage } from "./common.js";
import { isDice } from "./play-dice.js";
import { room, sharedScreen } from "./room-state.js";
import { state } from "./play-state.js";
import { capital, playerWord, t } from "./words.js";

const actions = { confirmPass: () => {}, giveSeatToAI: () => {} };
const levels = new Map(); // seat -> the AI level chosen for it in the waiting room

/** The room's own buttons: copy the invite, the pass screen's "show my rack". */
export function wireRoom({ confirmPass, giveSeatToAI }) {
  Object.assign(actions, { confirmPass, giveSeatToAI });
  $("pass-ready").addEventListener("click", () => actions.confirmPass());
  $("copy-invite").addEventListener("click", () => copy($("invite-link").value, t("room.invite_copied_send")));
  $("copy-invite-bar").addEventListener("click", () => copy($("invite-link").value, t("room.invite_copied")));
  $("copy-code").addEventListener("click", () => copy(room.code, t("room.code_copied", { code: room.code })));
}

async function copy(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    showMessage($("room-message"), done, "good");
  } catch {
    $("invite-link").select(); // no clipboard here (an insecure origin, a refused permission): selected to copy by hand
    showMessage($("room-message"), t("room.copy_by_hand", { text }), "info");
  }
}

const isAI = (player) => player.kind !== "human";
const aiLevelsOf = (view) => ("table_dice" in view ? state.meta.xpress_ai_levels : state.meta.ai_levels); // Xpress has its own
const label = (player) => (isAI(player) && !player.name.startsWith(player.kind) ? `${player.name} (${t("room.level_ai", { level: t(`ai.${player.kind}`) })})` : isAI(player) ? `${player.name} (${t("room.ai")})` : playerWord(player.name));

function turnText(view, seat, passTo) {
  const mover = view.players[view.turn];
  if (view.status === "waiting") return t("room.waiting_for", { n: view.players.filter((p) => !p.joined).length });
  if (view.status === "archived") return t("room.archived");
  if (view.status === "over") return t("bar.round_over", { n: view.turn_number });
  const n = view.turn_number + 1;
  if (seat !== null && view.turn === seat) return sharedScreen() ? t("room.your_turn_named", { who: mover.name, n }) : t("bar.your_turn", { n });
  if (passTo !== null) return t("room.pass_turn", { who: view.players[passTo].name });
  return t(isAI(mover) ? "room.ai_playing" : "bar.playing", { who: mover.name, n });
}

function renderPlayers(view, seat) {
  const current = view.status === "playing" ? view.turn : null;
  $("players").replaceChildren(...view.players.map((p, s) => {
    const here = room.seats.has(s) && (s === seat || sharedScreen());
    const count = isDice() ? `${t("count.dice", { n: p.tiles })} · ${t("bar.points_left", { n: p.total })}` : `${t("count.tiles", { n: p.tiles })}${p.opened ? "" : ` · ${t("bar.not_opened")}`}`;
    const tiles = p.joined ? count : t("room.free_seat");
    return el("span", { class: `player${s === current ? " current" : ""}${s === seat ? " you" : ""}`, "data-testid": "player", "data-seat": s },
      `${label(p)}${s === seat ? ` (${t("play.you")})` : here ? ` (${t("room.this_screen")})` : ""}: ${tiles}`);
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
    const item = el("li", { "data-testid": "seat", "data-seat": s, class: p.joined ? "joined" : "free" }, el("strong", { text: `${t("play.seat_label", { n: s + 1 })} ` }));
    if (isAI(p)) item.append(t("room.plays_itself", { who: label(p) }));
    else if (p.joined) item.append(`${t("room.has_joined", { who: p.name })}${room.seats.has(s) ? ` (${sharedScreen() ? t("room.on_this_screen") : t("play.you")})` : ""}`);
    else {
      item.append(el("span", { class: "muted", text: t("room.waiting_player") }));
      if (creator) {
        const level = el("select", { "aria-label": t("room.ai_level_for", { n: s + 1 }), onchange: () => levels.set(s, level.value) },
          ...aiLevelsOf(view).map((l) => el("option", { value: l, text: t(`ai.${l}`) })));
        level.value = levels.get(s) || aiLevelsOf(view)[0]; // kept as pushes redraw the list
        item.append(" ", level, el("button", { type: "button", class: "small", "data-testid": "give-to-ai", onclick: () => actions.giveSeatToAI(s, level.value) }, t("room.give_to_ai")));
      }
    }
    return item;
  }));
}

function renderRoundOver(view, seat) {
  if (view.status !== "over") return;
  const winner = view.winner;
  const how = view.end_reason === "out" ? t("over.went_out") : t("over.lowest_rack_blocked");
  if (winner !== null && winner !== undefined) {
    $("round-summary").textContent = capital(winner === seat ? t("over.you_win", { who: t("play.you"), how }) : t("over.wins", { who: view.players[winner].name, how }));
  }
  $("next-round").classList.toggle("hidden", !room.seats.size); // a spectator deals nothing
}

/** The room's parts of the page, after play-view.js has drawn the rest (before the first view: the bar only). */
export function renderRoom() {
  const { view, passTo } = room;
  $("room-info").classList.remove("hidden");
  $("room-code-bar").textContent = room.code;
  const connection = `${room.connection === "live" ? "● " : ""}${t(`room.connection_${room.connection}`)}`;
  $("connection").textContent = connection;
  $("connection").className = `connection ${room.connection}`;
  if (room.refused) showMessage($("room-message"), room.refused, "bad");
  for (const id of ["skip", "practice", "hint", "undo-turn", "log-tools", "hint-text", "hint-apply-row"]) $(id).classList.add("hidden");
  $("ai-speed").closest("label").classList.add("hidden");
  $("leave").textContent = t("room.leave");
  if (!view) { $("turn").textContent = t(room.refused ? "room.not_available" : "room.connecting", { code: room.code }); return; }
  const seat = room.shown;
  $("turn").textContent = turnText(view, seat, passTo);
  $("turn").classList.toggle("yours", seat !== null && view.status === "playing" && view.turn === seat);
  renderPlayers(view, seat);
  renderWaiting(view);
  renderRoundOver(view, seat);
  const waiting = view.status === "waiting";
  const watching = !room.seats.size;
  $("watching").classList.toggle("hidden", !watching);
  const watchingKey = isDice() ? (room.full ? "room.watching_full_dice" : "room.watching_dice") : room.full ? "room.watching_full" : "room.watching"; // Xpress: every seat's dice are shown
  $("watching").textContent = t(watchingKey);
  $("bar-panel").classList.toggle("your-turn", seat !== null && view.turn === seat && view.status === "playing");
  $("table-panel").classList.toggle("hidden", waiting);
  $("log-panel").classList.toggle("hidden", waiting);
  $("rack-panel").classList.toggle("hidden", waiting || seat === null); // a spectator, or between turns on a shared screen
  $("table-controls").classList.toggle("hidden", seat === null);
  const owner = sharedScreen() && seat !== null ? view.players[seat].name : null;
  $("rack-owner").textContent = isDice() ? (owner ? t("dice.whose", { who: owner }) : t("dice.your_dice")) : owner ? t("room.whose_rack", { who: owner }) : t("play.your_rack");
  const mine = seat !== null && view.turn === seat && view.status === "playing";
  $("legend-changed-text").textContent = mine ? t("play.legend_changed") : view.last ? t("room.changed_by", { who: view.last.name }) : t("room.changed_last");
  const passing = passTo !== null;
  const wasHidden = $("pass").classList.contains("hidden");
  $("pass").classList.toggle("hidden", !passing);
  if (passing) {
    const name = view.players[passTo].name;
    $("pass-name").textContent = name;
    $("pass-ready").textContent = t("room.i_am", { who: name });
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
