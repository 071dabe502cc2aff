// The replay of the round, turn by turn: its table and racks (the human's, and any the game shows).
import { $, el, sortTiles, tileElement } from "./common.js";
import { getReplay } from "./play-client.js";
import { dieElement } from "./play-dice.js";
import { say, state } from "./play-state.js";
import { describe } from "./play-view.js";
import { playerWord, t } from "./words.js";

export async function openReplay() {
  const response = await getReplay(state.gameId);
  if (!response.ok) { say(response.data.error, "bad"); return; }
  const frames = (state.frames = response.data.frames);
  const slider = $("replay-slider");
  slider.max = String(frames.length - 1);
  slider.value = "0";
  $("replay").classList.remove("hidden");
  showFrame(0, response.data.names);
  slider.oninput = () => showFrame(Number(slider.value), response.data.names);
  $("replay-prev").onclick = () => { slider.value = String(Math.max(0, Number(slider.value) - 1)); showFrame(Number(slider.value), response.data.names); };
  $("replay-next").onclick = () => { slider.value = String(Math.min(state.frames.length - 1, Number(slider.value) + 1)); showFrame(Number(slider.value), response.data.names); };
}

export function closeReplay() {
  $("replay").classList.add("hidden");
}

function showFrame(i, names) {
  drawFrame(state.frames, i, names, "replay");
}

/** Frame ``i`` of ``frames`` into the elements ``{prefix}-label``, ``-table`` and ``-racks``. */
export function drawFrame(frames, i, names, prefix) {
  const { meta } = state;
  const frame = frames[i];
  const event = frame.event ? { ...frame.event, name: frame.event.name || names[frame.event.player] } : null;
  $(`${prefix}-label`).textContent = i === 0 ? t("replay.deal") : t("replay.turn", { n: i, what: describe(event) });
  const table = $(`${prefix}-table`);
  table.replaceChildren(...frame.table.map((m, k) => el("div", { class: "meld" }, el("span", { class: "meld-no", text: String(k + 1) }), ...m.map((c) => tileElement(c, meta)))));
  if (!frame.table.length) table.append(el("span", { class: "empty", text: t("board.table_empty") }));
  $(`${prefix}-racks`).replaceChildren(...frame.racks.map((rack, s) => el("div", { class: "row" }, el("strong", { text: `${playerWord(names[s])}:` }),
    rack && frame.dice ? el("span", {}, ...rack.map((c, k) => dieElement(c, frame.dice[s][k], meta, { still: true }))) : // Xpress: every seat's dice
    rack ? el("span", {}, ...sortTiles(rack, state.order, meta).map((c) => tileElement(c, meta))) : el("span", { class: "muted", text: t("replay.hidden", { tiles: t("count.tiles", { n: frame.rack_sizes[s] }) }) }))));
}
