// The analysis board's alternatives: the list under the answer, and what a chosen one is (issue 38).
import { count, el, formatTiles } from "./common.js";

/** The codes of ``a`` that ``b`` does not hold (multisets), in ``a``'s order. */
export function minus(a, b) {
  const left = [...b];
  return a.filter((code) => {
    const i = left.indexOf(code);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** What the moves an alternative is chosen among are, by the result's ``alternatives_mode``. */
function among(result) {
  return result.alternatives_mode === "distinct"
    ? "the moves whose played tiles differ from those of each move above"
    : "the moves that play a tile the moves above do not";
}

/** The words for alternative ``n`` (from 1) of ``result``: how big it is, what it is the best of,
 * and how it differs from the best move. */
export function alternativeLabel(result, n) {
  const move = result.alternatives[n - 1];
  const proof = move.status === "optimal" ? "best among" : "the best found, not proven best (the time ran out), among";
  const plays = minus(move.played, result.played);
  const keeps = minus(result.played, move.played);
  const unlike = [plays.length ? `plays ${formatTiles(plays)}` : "", keeps.length ? `keeps ${formatTiles(keeps)} for later` : ""];
  return `Alternative ${n}: ${count(move.tiles_played, "tile")}, ${move.value} points, ${proof} ${among(result)}. ` +
    `Unlike the best move it ${unlike.filter(Boolean).join(" and ")}.`;
}

/** Fill ``list`` with the best move and ``result``'s alternatives, each a button calling
 * ``show(move, index)`` (index: 0 for the best move, n for alternative n). */
export function renderAlternatives(list, result, show) {
  list.replaceChildren();
  const alternatives = result.alternatives;
  if (!alternatives) return;
  const entry = (move, label, index) => el("li", {}, el("button", { type: "button", "data-index": index, onclick: () => choose(list, index, () => show(move, index)) },
    `${label}: ${formatTiles(move.played) || "nothing"} — ${count(move.tiles_played, "tile")}, ${move.value} points (${move.status})`));
  list.append(entry(result, "Best", 0));
  alternatives.forEach((move, i) => {
    const item = entry(move, `Alternative ${i + 1}`, i + 1);
    item.setAttribute("data-testid", "alternative");
    item.title = `The best among ${among(result)}`;
    list.append(item);
  });
  if (!alternatives.length) {
    const why = result.alternatives_mode === "distinct"
      ? "No other move plays a different set of tiles."
      : "No other move plays a tile the best move does not: every other move plays a part of it.";
    list.append(el("li", { class: "muted", text: why }));
  }
  choose(list, 0, () => {});
}

function choose(list, index, then) {
  list.querySelectorAll("button").forEach((button) => {
    const current = Number(button.dataset.index) === index;
    button.classList.toggle("current", current);
    if (current) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  });
  then();
}
