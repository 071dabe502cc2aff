// Xpress, the dice edition, on the play page: dice drawn as dice (the face each shows, and which
// die it is), the turn's one roll (the free dice picked, or none), its animation, the opponent's
// dice (rolled in the open) and the re-roll hint. The table is edited as in the tile game
// (play-draft.js) once the dice are rolled.
import { $, el, formatTiles, sortTiles, tileElement } from "./common.js";
import { render, state, yourTurn } from "./play-state.js";
import { playerWord, t } from "./words.js";

export const isDice = () => Boolean(state.game && state.game.kind === "xpress");

/** The roll is still to come this turn (the player to move is the human). */
export const rollPhase = () => isDice() && yourTurn() && !state.game.rolled;

/** A die: the face it shows drawn like a tile (a die-shaped one) and its name (``D3``) in a corner. */
export function dieElement(code, die, meta, { button = false, extraClass = "", attrs = {}, still = false } = {}) {
  const rolling = !still && state.justRolled.has(die) ? " rolling" : ""; // ``still``: a die on the table never tumbles
  const node = tileElement(code, meta, { button, extraClass: `die${rolling} ${extraClass}`.trim(), attrs: { "data-die": die, ...attrs } });
  node.setAttribute("aria-label", t("dice.showing", { die, tile: node.getAttribute("aria-label") }));
  node.title = `${die}: ${code}`;
  node.append(el("span", { class: "die-name", "aria-hidden": "true", text: die }));
  return node;
}

/** The human's free dice before the roll: each a toggle, picked to be rolled. */
export function renderRollRack(box) {
  const { game, meta, order } = state;
  const byCode = new Map();
  game.dice.forEach((die, i) => {
    const code = game.rack[i];
    if (!byCode.has(code)) byCode.set(code, []);
    byCode.get(code).push(die);
  });
  for (const code of sortTiles(game.rack, order, meta)) {
    const die = byCode.get(code).shift();
    const picked = state.rollPick.has(die);
    const button = dieElement(code, die, meta, { button: true, extraClass: picked ? "picked" : "", attrs: { "aria-pressed": String(picked) } });
    button.addEventListener("click", () => {
      if (!rollPhase()) return;
      if (state.rollPick.has(die)) state.rollPick.delete(die);
      else state.rollPick.add(die);
      render();
    });
    box.append(button);
  }
}

/** The roll's controls: what the button rolls, said on it. */
export function renderRollControls() {
  const dice = isDice();
  const rolling = rollPhase();
  for (const id of ["roll", "roll-all", "roll-none"]) $(id).classList.toggle("hidden", !rolling);
  for (const id of ["end-turn", "undo", "reset"]) $(id).classList.toggle("hidden", rolling); // the table's edits come after the roll
  $("table-controls").classList.toggle("hidden", rolling);
  if (!dice) return;
  const n = state.rollPick.size;
  $("roll").disabled = !rolling || n === 0;
  $("roll").textContent = n ? t("dice.roll_n", { n }) : t("dice.roll_picked");
  const mine = (state.game.dice || []).length; // a spectator's view has no dice of its own
  $("roll-all").disabled = !rolling || !mine;
  $("roll-all").textContent = t("dice.roll_all_n", { n: mine });
  $("roll-none").disabled = !rolling;
}

/** The other seat's dice, shown (dice are rolled in the open), with their total. */
export function renderOpponents() {
  const box = $("opponent-dice");
  box.classList.toggle("hidden", !isDice());
  if (!isDice()) return;
  const { game, meta } = state;
  box.replaceChildren(...game.players.filter((p, s) => s !== game.seat).map((p) => el("div", { class: "opponent", "data-testid": "opponent-dice" },
    el("strong", { text: t("dice.whose", { who: playerWord(p.name) }) }), el("span", { class: "muted", text: ` (${t("count.dice", { n: p.dice.length })}, ${t("bar.points_left", { n: p.total })}):` }),
    el("div", { class: "rack small-rack" }, ...(p.dice.length ? p.dice.map((d) => dieElement(d.face, d.die, meta)) : [el("span", { class: "empty", text: t("dice.no_dice_left") })])))));
}

/** The dice just rolled tumble once (the CSS respects prefers-reduced-motion). */
export function markRolled(names) {
  state.justRolled = new Set(names);
  setTimeout(() => { state.justRolled = new Set(); }, 900);
}

/** The status line's words for the dice game: how long since a die was played. */
export function diceStatus(game) {
  const rounds = game.passes_to_end / game.players.length;
  if (game.finished) return "";
  if (!game.passes) return t("dice.status", { n: rounds });
  return t("dice.no_die_for", { turns: t("count.turns", { n: game.passes }), n: game.passes_to_end });
}

/** A log line for a roll. */
export function describeRoll(event, who, you) {
  if (!event.dice.length) return t(you ? "log.keep_you" : "log.keep", { who });
  return t(you ? "log.roll_you" : "log.roll", { who, dice: event.dice.join(" "), faces: formatTiles(event.faces) });
}
