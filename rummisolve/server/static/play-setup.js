// The start page: a new game's seats, rules and seed, and this browser's saved games.
import { $, el, showMessage } from "./common.js";
import { deleteGame, listGames, newGame } from "./play-client.js";
import { AI_DELAY, state } from "./play-state.js";
import { enterGame } from "./play-turns.js";

const aiCount = () => $("seats").querySelectorAll("select").length;

/** Seat 1 (you) and `count` AIs, each keeping the level it had. */
export function renderSeats(count) {
  const { meta } = state;
  const seats = $("seats");
  const levels = [...seats.querySelectorAll("select")].map((s) => s.value);
  seats.replaceChildren(el("div", { class: "row" }, el("strong", { text: "Seat 1:" }), " you"));
  for (let i = 0; i < count; i++) {
    const id = `ai-${i}`;
    const select = el("select", { id, "data-testid": "ai-level" });
    for (const level of meta.ai_levels) select.append(el("option", { value: level, text: level }));
    select.value = levels[i] || meta.ai_levels[Math.min(1, meta.ai_levels.length - 1)];
    seats.append(el("div", { class: "row" }, el("label", { for: id }, `Seat ${i + 2}: AI`), select));
  }
  $("remove-ai").disabled = count <= 1;
  $("add-ai").disabled = count >= maxAIs();
}

function maxAIs() {
  const rules = state.rulesForm.value();
  const preset = state.meta.presets[typeof rules === "string" ? rules : rules.preset];
  const max = (typeof rules === "object" && rules.max_players) || preset.max_players;
  return Math.max(1, max - 1);
}

/** The rules changed: no more AIs than they seat. */
export const fitSeats = () => renderSeats(Math.min(aiCount(), maxAIs()));

export function wireSetup() {
  $("add-ai").addEventListener("click", () => renderSeats(aiCount() + 1));
  $("remove-ai").addEventListener("click", () => renderSeats(aiCount() - 1));
  $("start").addEventListener("click", () => {
    const players = ["human", ...[...$("seats").querySelectorAll("select")].map((s) => s.value)].join(",");
    const seed = $("seed").value === "" ? undefined : Number($("seed").value);
    createGame({ players, rules: state.rulesForm.value(), ...(seed === undefined ? {} : { seed }) });
  });
}

export async function listSaved() {
  const response = await listGames();
  const list = $("saved-games");
  list.replaceChildren();
  if (!response.ok) return;
  const { games, counts, limits } = response.data;
  $("saved-note").textContent = `${counts.stored} saved (at most ${limits.max_stored_games}); ${counts.live} with a round still running (at most ${limits.max_live_games}).`;
  for (const saved of games) {
    const label = `${saved.players.join(" vs ")}${saved.practice ? ` · practice (seed ${saved.seed})` : ""} · ${typeof saved.rules === "string" ? saved.rules : "custom rules"} · round ${saved.round + 1}, turn ${saved.turn + 1}${saved.finished ? " · round over" : ""} · ${new Date(saved.updated * 1000).toLocaleString()}`;
    const item = el("li", { "data-testid": "saved-game", "data-game": saved.id }, el("span", { text: label }),
      el("a", { href: `/play?game=${encodeURIComponent(saved.id)}`, "data-testid": "continue" }, saved.finished ? "Open (replay, next round)" : "Continue"),
      el("button", { type: "button", class: "small", onclick: async () => { await deleteGame(saved.id); listSaved(); } }, "Delete"));
    list.append(item);
  }
  if (!games.length) list.append(el("li", { class: "muted", text: "No saved games yet in this browser." }));
  if (response.data.damaged && response.data.damaged.length) list.append(el("li", { class: "muted", text: `${response.data.damaged.length} saved game(s) could not be read and are left out.` }));
}

export async function createGame(body) {
  const response = await newGame(body);
  if (!response.ok) {
    $("setup").classList.remove("hidden");
    showMessage($("setup-message"), response.data.error, "bad");
    return;
  }
  history.replaceState(null, "", `/play?game=${encodeURIComponent(response.data.id)}${AI_DELAY !== 900 ? `&delay=${AI_DELAY}` : ""}`);
  await enterGame(response.data.id, response.data.state);
}
