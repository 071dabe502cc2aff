// The analysis board's alternatives: the list under the answer, and what a chosen one is (issue 38).
import { el, formatTiles } from "./common.js";
import { t } from "./words.js";

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
  return result.alternatives_mode === "distinct" ? t("alt.among_distinct") : t("alt.among_other");
}

/** The words for alternative ``n`` (from 1) of ``result``: how big it is, what it is the best of,
 * and how it differs from the best move. */
export function alternativeLabel(result, n) {
  const move = result.alternatives[n - 1];
  const plays = formatTiles(minus(move.played, result.played));
  const keeps = formatTiles(minus(result.played, move.played));
  const size = { n, tiles: t("count.tiles", { n: move.tiles_played }), points: t("count.points", { n: move.value }), among: among(result) };
  const unlike = plays && keeps ? t("alt.plays_keeps", { plays, keeps }) : plays ? t("alt.plays", { plays }) : keeps ? t("alt.keeps", { keeps }) : "";
  return `${t(move.status === "optimal" ? "alt.label_optimal" : "alt.label_feasible", size)} ${unlike}`.trim();
}

/** Fill ``list`` with the best move and ``result``'s alternatives, each a button calling
 * ``show(move, index)`` (index: 0 for the best move, n for alternative n). */
export function renderAlternatives(list, result, show) {
  list.replaceChildren();
  const alternatives = result.alternatives;
  if (!alternatives) return;
  const entry = (move, label, index) => el("li", {}, el("button", { type: "button", "data-index": index, onclick: () => choose(list, index, () => show(move, index)) },
    t("alt.entry", { label, tiles: formatTiles(move.played) || t("alt.nothing"), count: t("count.tiles", { n: move.tiles_played }), points: t("count.points", { n: move.value }), status: t(`status.${move.status}`) })));
  list.append(entry(result, t("alt.best"), 0));
  alternatives.forEach((move, i) => {
    const item = entry(move, t("alt.title", { n: i + 1 }), i + 1);
    item.setAttribute("data-testid", "alternative");
    item.title = t("alt.best_among", { among: among(result) });
    list.append(item);
  });
  if (!alternatives.length) {
    const why = result.alternatives_mode === "distinct" ? t("alt.none_distinct") : t("alt.none_other");
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
