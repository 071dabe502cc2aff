// The start page: a new game's seats, rules and seed, and this browser's saved games.
import { $, el, ruleValue, showMessage } from "./common.js";
import { deleteGame, listGames, newGame } from "./play-client.js";
import { state } from "./play-state.js";
import { enterGame } from "./play-turns.js";
import { playerWord, t, when } from "./words.js";

const aiSelects = () => [...$("seats").querySelectorAll("select[data-testid=ai-level]")];
const aiCount = () => aiSelects().length;

/** You (in the seat chosen, the first by default) and `count` AIs, each keeping the level it had. */
export function renderSeats(count) {
  const { meta } = state;
  const seats = $("seats");
  const levels = aiSelects().map((s) => s.value);
  const chosen = Math.min(Number($("human-seat").value || 1), count + 1);
  const seatSelect = $("human-seat");
  seatSelect.replaceChildren(...Array.from({ length: count + 1 }, (_, i) => new Option(t(i === 0 ? "play.seat_first" : "play.seat_n", { n: i + 1 }), i + 1)));
  seatSelect.value = String(chosen);
  seats.replaceChildren();
  let ai = 0;
  for (let seat = 1; seat <= count + 1; seat++) {
    if (seat === chosen) {
      seats.append(el("div", { class: "row" }, el("strong", { text: t("play.seat_label", { n: seat }) }), ` ${t("play.you")}`));
      continue;
    }
    const id = `ai-${ai}`;
    const select = el("select", { id, "data-testid": "ai-level" });
    const offered = aiLevels();
    for (const level of offered) select.append(el("option", { value: level, text: t(`ai.${level}`) }));
    select.value = offered.includes(levels[ai]) ? levels[ai] : offered[Math.min(1, offered.length - 1)];
    seats.append(el("div", { class: "row" }, el("label", { for: id }, t("play.seat_ai", { n: seat })), select));
    ai += 1;
  }
  $("remove-ai").disabled = count <= 1;
  $("add-ai").disabled = count >= maxAIs();
}

/** The AI levels the rules chosen (``form``: a RulesForm, default the new game's) have: Xpress (the dice edition) has its own. */
export function aiLevels(form = state.rulesForm) {
  const dice = form && ruleValue(state.meta, form.value(), "dice");
  return dice ? state.meta.xpress_ai_levels : state.meta.ai_levels;
}

function maxAIs() {
  return Math.max(1, ruleValue(state.meta, state.rulesForm.value(), "max_players") - 1);
}

/** The rules changed: no more AIs than they seat. */
export const fitSeats = () => renderSeats(Math.min(aiCount(), maxAIs()));

export function wireSetup() {
  $("add-ai").addEventListener("click", () => renderSeats(aiCount() + 1));
  $("remove-ai").addEventListener("click", () => renderSeats(aiCount() - 1));
  $("human-seat").addEventListener("change", () => renderSeats(aiCount()));
  $("setup-ai-speed").value = String(state.aiDelay);
  $("setup-ai-speed").addEventListener("change", () => { state.aiDelay = Number($("setup-ai-speed").value); });
  $("start").addEventListener("click", () => {
    const kinds = aiSelects().map((s) => s.value);
    kinds.splice(Number($("human-seat").value) - 1, 0, "human");
    const players = kinds.join(",");
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
  $("saved-note").textContent = t("play.saved_note", { n: counts.stored, max: limits.max_stored_games, live: counts.live, max_live: limits.max_live_games });
  for (const saved of games) {
    const label = [saved.players.map(playerWord).join(` ${t("play.vs")} `), saved.practice ? t("play.practice_seed", { seed: saved.seed }) : null,
      typeof saved.rules === "string" ? t(`preset.${saved.rules}`) : t("play.custom_rules"), t("play.round_turn", { round: saved.round + 1, turn: saved.turn_number + 1 }),
      saved.finished ? t("play.round_over_short") : null, when(saved.updated * 1000)].filter(Boolean).join(" · ");
    const item = el("li", { "data-testid": "saved-game", "data-game": saved.id }, el("span", { text: label }),
      el("a", { href: `/play?game=${encodeURIComponent(saved.id)}`, "data-testid": "continue" }, saved.finished ? t("play.open_finished") : t("play.continue")),
      el("button", { type: "button", class: "small", onclick: async () => { await deleteGame(saved.id); listSaved(); } }, t("play.delete")));
    list.append(item);
  }
  if (!games.length) list.append(el("li", { class: "muted", text: t("play.no_saved") }));
  if (response.data.damaged && response.data.damaged.length) list.append(el("li", { class: "muted", text: t("play.damaged", { n: response.data.damaged.length }) }));
}

export async function createGame(body) {
  const response = await newGame(body);
  if (!response.ok) {
    $("setup").classList.remove("hidden");
    $("friends").classList.remove("hidden");
    showMessage($("setup-message"), response.data.error, "bad");
    return;
  }
  history.replaceState(null, "", `/play?game=${encodeURIComponent(response.data.id)}${state.aiDelay !== 900 ? `&delay=${state.aiDelay}` : ""}`);
  $("ai-speed").value = String(state.aiDelay);
  state.version = response.data.version;
  await enterGame(response.data.id, response.data.state);
}
