// Drag and drop (pointer events: mouse, pen and touch alike), and its keyboard and click
// counterpart: select tiles, then press Enter on (or click) the place they go.
import { moveTiles } from "./play-draft.js";
import { render, say, state, yourTurn } from "./play-state.js";
import { t } from "./words.js";

export function onPointerDown(event) {
  if (!yourTurn() || event.button > 0) return;
  const tile = event.currentTarget;
  state.drag = { id: Number(tile.dataset.id), x: event.clientX, y: event.clientY, active: false, ghost: null, source: tile };
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp, { once: true });
}

function onPointerMove(event) {
  const { drag } = state;
  if (!drag) return;
  if (!drag.active) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    drag.active = true;
    drag.ids = state.selected.has(drag.id) ? [...state.selected] : [drag.id];
    drag.ghost = drag.source.cloneNode(true);
    drag.ghost.classList.add("ghost");
    drag.ghost.removeAttribute("data-testid");
    drag.ghost.removeAttribute("data-tile");
    document.body.append(drag.ghost);
    for (const id of drag.ids) document.querySelector(`[data-id="${id}"]`)?.classList.add("dragging");
  }
  event.preventDefault();
  drag.ghost.style.left = `${event.clientX - 18}px`;
  drag.ghost.style.top = `${event.clientY - 24}px`;
  document.querySelectorAll(".drop-over").forEach((n) => n.classList.remove("drop-over"));
  const over = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-drop]");
  if (over) over.classList.add("drop-over");
}

function onPointerUp(event) {
  document.removeEventListener("pointermove", onPointerMove);
  const current = state.drag;
  state.drag = null;
  if (!current || !current.active) return;
  current.ghost.remove();
  state.suppressClick = true;
  setTimeout(() => { state.suppressClick = false; }, 0);
  document.querySelectorAll(".drop-over").forEach((n) => n.classList.remove("drop-over"));
  document.querySelectorAll(".dragging").forEach((n) => n.classList.remove("dragging"));
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const zone = under?.closest("[data-drop]");
  if (!zone) { render(); return; }
  moveTiles(current.ids, destination(zone, under, event.clientX));
}

/** Where a drop at x over the element under the pointer, in its drop zone, puts the tiles. */
function destination(zone, under, x) {
  if (zone.dataset.drop === "rack") return { kind: "rack" };
  if (zone.dataset.drop === "new") return { kind: "new" };
  const index = Number(zone.dataset.meld);
  const tile = under.closest(".tile");
  let before = null;
  if (tile && zone.contains(tile)) {
    const rect = tile.getBoundingClientRect();
    if (x < rect.left + rect.width / 2) before = Number(tile.dataset.id);
    else {
      const next = tile.nextElementSibling;
      before = next && next.classList.contains("tile") ? Number(next.dataset.id) : null;
      if (before === null) return { kind: "meld", index, before: -1, append: true };
    }
  }
  return { kind: "meld", index, before };
}

/** A drop zone's click and keydown handler: the selected tiles go to dest(). */
export function dropOnClick(dest) {
  return (event) => {
    if (state.suppressClick || !yourTurn()) return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    if (event.type === "keydown" && event.target !== event.currentTarget) return;
    if (event.type === "keydown") event.preventDefault();
    if (!state.selected.size) {
      if (event.type === "keydown") say(t("play.select_first"));
      return;
    }
    moveTiles([...state.selected], dest());
  };
}
