// The table part way through an explanation: after each step, which tiles every meld holds, with
// the old and the new melds numbered so a person can follow the move tile by tile.
import { el, tileElement } from "./common.js";
import { t } from "./words.js";

const bump = (counts, code, by = 1) => counts.set(code, (counts.get(code) || 0) + by);
const take = (counts, code) => {
  if (!counts.get(code)) return false;
  counts.set(code, counts.get(code) - 1);
  return true;
};

/**
 * The table after steps 0..k of ``move`` (a result with ``table``, ``meld_map`` and ``steps``) from
 * ``oldTable``: a list of melds ``{label, tiles: [{code, state}]}``, ``state`` one of "here",
 * "arrived" (moved in by an earlier step), "moving" (step k's tile) or "leaving" (still here, moves
 * out later). Each new meld holds what its old meld kept plus what has arrived, in its final order;
 * an old meld that no new meld continues shows what is left of it until it is empty.
 */
export function tableAfter(oldTable, move, k) {
  const steps = (move.steps || []).slice(0, k + 1);
  const movedOut = oldTable.map(() => new Map());
  const arrived = move.table.map(() => new Map());
  for (const step of steps) {
    if (step.from !== "rack") bump(movedOut[step.from], step.tile);
    bump(arrived[step.to], step.tile);
  }
  const current = steps.length ? steps[steps.length - 1] : null;
  const continuedBy = new Map();
  (move.meld_map || []).forEach((to, from) => { if (to !== null && to !== undefined) continuedBy.set(to, from); });
  const melds = move.table.map((final, j) => {
    const from = continuedBy.get(j);
    const staying = new Map();
    if (from !== undefined) {
      for (const code of oldTable[from]) bump(staying, code);
      for (const [code, n] of movedOut[from]) bump(staying, code, -n);
    }
    const came = new Map(arrived[j]);
    const tiles = [];
    for (const code of final) {
      if (take(staying, code)) tiles.push({ code, state: "here" });
      else if (take(came, code)) tiles.push({ code, state: "arrived" });
    }
    if (from !== undefined) for (const code of oldTable[from]) if (take(staying, code)) tiles.push({ code, state: "leaving" });
    if (current && current.to === j) {
      const last = tiles.map((t) => t.code === current.tile && t.state === "arrived").lastIndexOf(true);
      if (last >= 0) tiles[last].state = "moving";
    }
    const label = from === undefined ? t("steps.new_meld", { n: j + 1 }) : t("steps.was_meld", { n: j + 1, from: from + 1 });
    return { label, tiles };
  });
  oldTable.forEach((old, i) => {
    if (continuedBy.size && [...continuedBy.values()].includes(i)) return;
    const left = new Map();
    for (const code of old) bump(left, code);
    for (const [code, n] of movedOut[i]) bump(left, code, -n);
    const tiles = old.filter((code) => take(left, code)).map((code) => ({ code, state: "leaving" }));
    if (tiles.length) melds.push({ label: t("steps.breaking", { n: i + 1 }), tiles });
  });
  return melds.filter((m) => m.tiles.length);
}

/** Draw in ``box`` the table after step ``step`` of ``move`` (hidden before the first step). */
export function renderStepTable(box, oldTable, move, step, meta) {
  box.replaceChildren();
  box.classList.toggle("hidden", step < 0);
  if (step < 0) return;
  box.append(el("h4", { text: t("steps.after", { n: step + 1, total: move.steps.length }) }));
  const felt = el("div", { class: "felt" });
  for (const meld of tableAfter(oldTable, move, step)) {
    felt.append(el("div", { class: "meld step-meld", "data-testid": "step-meld" },
      el("span", { class: "meld-label", text: meld.label }),
      ...meld.tiles.map((t) => tileElement(t.code, meta, { extraClass: t.state }))));
  }
  box.append(felt);
}
