// "Play with friends" on the start page: a room's seats (you, friends who join by the invite link,
// players sharing this screen, AIs), its rules and turn timer. Creating it takes your seat and the
// seats of the players on this screen (their tokens kept in this browser), then opens the room at
// /play?room=<code>&token=<your token>, where the waiting room shows the invite.
import { $, el, RulesForm, ruleValue, showMessage } from "./common.js";
import { createRoom, forgetSeat, joinRoom, keepName, lastName, storedRooms, storeSeat } from "./room-client.js";
import { aiLevels } from "./play-setup.js";
import { state } from "./play-state.js";
import { capital, errorWords, t } from "./words.js";

const HUMANS = { you: "room.kind_you", friend: "room.kind_friend", screen: "room.kind_screen" }; // their words' keys
const seats = [{ kind: "you", name: "" }, { kind: "friend", name: "" }];
let rules = null;

const maxSeats = () => ruleValue(state.meta, rules.value(), "max_players");
const say = (text, kind = "bad") => showMessage($("room-setup-message"), text, kind);

export function wireRoomSetup() {
  rules = new RulesForm($("room-rules"), state.meta, fit, { games: true, dice: true });
  rules.preset.dataset.testid = "room-rules-preset"; // the single-player form has "rules-preset"
  seats[0].name = lastName();
  $("room-add-seat").addEventListener("click", () => { seats.push({ kind: "friend", name: "" }); renderRoomSeats(); });
  $("room-remove-seat").addEventListener("click", () => {
    const last = seats.map((s) => s.kind).lastIndexOf("you") === seats.length - 1 ? seats.length - 2 : seats.length - 1;
    seats.splice(last, 1);
    renderRoomSeats();
  });
  $("create-room").addEventListener("click", create);
  renderRoomSeats();
  listRooms();
}

/** The rooms this browser holds seats in (their tokens in localStorage), to go back to. */
function listRooms() {
  const rooms = storedRooms();
  $("my-rooms").classList.toggle("hidden", !rooms.length);
  $("my-rooms-list").replaceChildren(...rooms.map(({ code, seats: held }) => el("li", { "data-testid": "my-room" },
    el("a", { href: `/play?room=${encodeURIComponent(code)}` }, `${t("room.room")} ${code}`),
    el("span", { class: "muted", text: ` ${t("room.your_seats", { n: held.length, seats: held.map((s) => s + 1).join(", ") })}` }),
    el("button", { type: "button", class: "small", onclick: () => { for (const s of held) forgetSeat(code, s); listRooms(); } }, t("room.forget")))));
}

/** The rules changed: no more seats than they allow, and only AI levels that play them (Xpress has its own). */
function fit() {
  while (seats.length > maxSeats()) seats.splice(seats.findLastIndex((s) => s.kind !== "you"), 1);
  const levels = aiLevels(rules);
  for (const seat of seats) if (!(seat.kind in HUMANS) && !levels.includes(seat.kind)) seat.kind = levels[levels.length - 1];
  renderRoomSeats();
}

function renderRoomSeats() {
  const drawnFirst = ruleValue(state.meta, rules.value(), "dice"); // Xpress: the deal draws who moves first
  $("room-seats").replaceChildren(...seats.map((seat, s) => {
    const id = `room-seat-${s}`;
    const kind = el("select", { id, "data-testid": "room-seat-kind" });
    for (const [value, key] of Object.entries(HUMANS)) kind.append(el("option", { value, text: t(key) }));
    for (const level of aiLevels(rules)) kind.append(el("option", { value: level, text: t("room.kind_ai", { level: t(`ai.${level}`) }) }));
    kind.value = seat.kind;
    kind.addEventListener("change", () => choose(s, kind.value));
    const row = el("div", { class: "row", "data-testid": "room-seat" }, el("label", { for: id }, capital(t(s === 0 && !drawnFirst ? "play.seat_first" : "play.seat_n", { n: s + 1 }))), kind);
    if (seat.kind === "you" || seat.kind === "screen") {
      const name = el("input", { type: "text", maxlength: 24, value: seat.name, "aria-label": t("room.seat_name", { n: s + 1 }), "data-testid": "room-seat-name",
        placeholder: seat.kind === "you" ? t("room.your_name_ph") : t("room.their_name"), autocomplete: seat.kind === "you" ? "nickname" : "off" });
      name.addEventListener("input", () => { seat.name = name.value; });
      row.append(name);
    }
    return row;
  }));
  $("room-add-seat").disabled = seats.length >= maxSeats();
  $("room-remove-seat").disabled = seats.length <= 2;
}

/** Seat ``s`` is now ``kind``; "you" is one seat: choosing it for another seat swaps the two. */
function choose(s, kind) {
  const was = seats.findIndex((seat) => seat.kind === "you");
  if (kind === "you" && was >= 0 && was !== s) {
    [seats[was], seats[s]] = [{ ...seats[s] }, { kind: "you", name: seats[was].name }];
  } else seats[s] = { kind, name: seats[s].name };
  say("");
  renderRoomSeats();
}

async function create() {
  const you = seats.findIndex((seat) => seat.kind === "you");
  if (you < 0) { say(t("room.choose_own")); return; }
  const name = (seat) => seat.name.trim() || undefined; // none: the server's "player N"
  const body = {
    rules: rules.value(),
    seats: seats.map((seat) => (seat.kind in HUMANS ? "human" : seat.kind)),
    name: name(seats[you]),
    timer: $("room-timer").value === "" ? null : Number($("room-timer").value),
    seat: you,
  };
  $("create-room").disabled = true;
  try {
    const made = await createRoom(body);
    if (!made.ok) { say(errorWords(made.status, made.data.error)); return; }
    const code = made.data.room;
    storeSeat(code, made.data.seat, made.data.token);
    keepName(body.name);
    for (const [s, seat] of seats.entries()) {
      if (seat.kind !== "screen") continue;
      const joined = await joinRoom(code, { name: name(seat), seat: s });
      if (!joined.ok) { say(t("room.seat_not_taken", { n: s + 1, error: errorWords(joined.status, joined.data.error) })); return; }
      storeSeat(code, s, joined.data.token);
    }
    location.assign(`/play?room=${encodeURIComponent(code)}&token=${encodeURIComponent(made.data.token)}`);
  } finally {
    $("create-room").disabled = false;
  }
}
