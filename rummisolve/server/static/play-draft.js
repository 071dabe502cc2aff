// The draft: the human's tentative table for the turn being played, edited tile by tile. The server
// keeps the game and judges the draft only when the turn ends.
import { ruleValue, tileParts } from "./common.js";
import { render, say, showError, state, yourTurn } from "./play-state.js";
import { t } from "./words.js";

export const codes = (melds) => melds.map((m) => m.map((t) => t.code));
export const sameMeld = (a, b) => a.length === b.length && a.every((c, i) => c === b[i]);

export function startDraft() {
  // Xpress: each tile is a die (``die``: its name), on the table (table_dice) as on the rack (dice).
  const { game } = state;
  const tile = (code, fromRack, die) => ({ id: state.nextId++, code, fromRack, ...(die ? { die } : {}) });
  const table = game.table.map((m, i) => m.map((c, k) => tile(c, false, game.table_dice?.[i]?.[k])));
  state.draft = { table, rack: (game.rack || []).map((c, i) => tile(c, true, game.dice?.[i])), start: null, history: [] };
  state.draft.start = snapshot();
  state.selected = new Set();
  state.badMelds = new Map();
}

function snapshot() {
  return JSON.stringify({ table: state.draft.table, rack: state.draft.rack });
}

function restore(text) {
  const saved = JSON.parse(text);
  state.draft.table = saved.table;
  state.draft.rack = saved.rack;
}

export function draftChanged() {
  const now = codes(state.draft.table);
  return now.length !== state.game.table.length || now.some((m, i) => !sameMeld(m, state.game.table[i]));
}

export function findTile(id) {
  const { draft } = state;
  const r = draft.rack.findIndex((t) => t.id === id);
  if (r >= 0) return { where: draft.rack, index: r, tile: draft.rack[r] };
  for (const meld of draft.table) {
    const i = meld.findIndex((t) => t.id === id);
    if (i >= 0) return { where: meld, index: i, tile: meld[i] };
  }
  return null;
}

/** A rule option of the game being played (its rules may name a preset and change some options). */
const ruleOption = (name) => ruleValue(state.meta, state.game.rules, name);

/** The numbers each plain joker of ``meld`` stands for, read from its place in a run (Map id -> number). */
function jokerSlots(meld) {
  const slots = new Map();
  const first = meld.findIndex((t) => !tileParts(t.code).joker);
  if (first < 0) return slots;
  const base = tileParts(meld[first].code).number - first;
  meld.forEach((t, i) => {
    if (t.code === "J") slots.set(t.id, base + i);
  });
  return slots;
}

/**
 * ``meld`` (tiles in the order they were placed) in play order. A run (two or more numbered tiles,
 * one colour, no number twice) is kept in number order wherever a tile was dropped: its numbered
 * tiles by number, each joker that was in the meld before at the number it stood
 * for (``slots``, see jokerSlots; moved to an end if a tile now takes that number), a joker just
 * dropped where it was dropped.
 * Anything else (a group, a meld with Twist's special jokers, wraparound runs) stays as placed.
 */
function arrange(meld, slots = new Map()) {
  const parts = meld.map((t) => tileParts(t.code));
  const numbered = parts.filter((p) => !p.joker);
  const special = meld.some((t, i) => parts[i].joker && t.code !== "J");
  const oneColour = numbered.every((p) => p.colour === numbered[0]?.colour);
  const numbers = numbered.map((p) => p.number);
  const distinct = new Set(numbers).size === numbers.length;
  if (numbered.length < 2 || special || !oneColour || !distinct || ruleOption("wraparound")) return meld;
  const taken = new Set(numbers);
  const keys = meld.map((t, i) => {
    if (!parts[i].joker) return parts[i].number;
    const slot = slots.get(t.id);
    return slot !== undefined && !taken.has(slot) ? slot : null;
  });
  const top = Math.max(...numbers);
  const high = ruleOption("numbers");
  for (let i = 0; i < keys.length; i += 1) {
    if (keys[i] !== null) continue;
    if (slots.has(meld[i].id)) keys[i] = top < high ? top + 0.5 + i / 100 : Math.min(...numbers) - 0.5 - i / 100;
    else keys[i] = (i > 0 ? keys[i - 1] : Math.min(...numbers) - 1) + 0.25; // just dropped: where it was dropped
  }
  return meld.map((t, i) => [keys[i], i, t]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((entry) => entry[2]);
}

/** Move tiles (by id) to a meld (before a tile, or where they fit), a new meld, or back to the rack. */
export function moveTiles(ids, dest) {
  if (!yourTurn() || !ids.length) return;
  const { draft } = state;
  const tiles = ids.map(findTile).filter(Boolean);
  if (dest.kind === "rack") {
    const fixed = tiles.find((f) => !f.tile.fromRack);
    if (fixed) {
      say(t("play.table_tile_stays", { tile: fixed.tile.code }), "bad");
      return;
    }
  }
  const targetMeld = dest.kind === "meld" ? draft.table[dest.index] : null;
  if (dest.kind === "meld" && !targetMeld) return;
  draft.history.push(snapshot());
  const moving = tiles.map((f) => f.tile); // in the order they were selected: a group keeps the order given
  for (const found of [...tiles].sort((a, b) => b.index - a.index)) found.where.splice(found.where.indexOf(found.tile), 1);
  if (dest.kind === "rack") draft.rack.push(...moving);
  else if (dest.kind === "new") draft.table.push(arrange(moving));
  else {
    const before = [...targetMeld];
    const at = dest.before === null || dest.before === undefined ? -1 : targetMeld.findIndex((t) => t.id === dest.before);
    if (at >= 0) targetMeld.splice(at, 0, ...moving);
    else targetMeld.push(...moving);
    const arranged = arrange(targetMeld, jokerSlots(before));
    targetMeld.splice(0, targetMeld.length, ...arranged);
  }
  draft.table = draft.table.filter((m) => m.length);
  afterEdit();
}

function afterEdit() {
  state.selected = new Set();
  state.badMelds = new Map();
  state.lastChanged = new Set();
  say("");
  showError("");
  render();
}

export function splitSelected() {
  const { draft, selected } = state;
  const [id] = [...selected];
  const found = findTile(id);
  if (selected.size !== 1 || !found || found.where === draft.rack || found.index === 0) {
    say(t("play.split_how"), "bad");
    return;
  }
  draft.history.push(snapshot());
  const meld = found.where;
  const i = draft.table.indexOf(meld);
  draft.table.splice(i + 1, 0, meld.splice(found.index));
  afterEdit();
}

export function joinSelected() {
  const { draft } = state;
  const melds = [...new Set([...state.selected].map(findTile).filter((f) => f && f.where !== draft.rack).map((f) => f.where))];
  if (melds.length < 2) {
    say(t("play.join_how"), "bad");
    return;
  }
  draft.history.push(snapshot());
  melds.sort((a, b) => draft.table.indexOf(a) - draft.table.indexOf(b));
  const joined = arrange(melds.flat(), new Map(melds.flatMap((m) => [...jokerSlots(m)])));
  const first = draft.table.indexOf(melds[0]);
  draft.table = draft.table.map((m, i) => (i === first ? joined : m)).filter((m) => m === joined || !melds.includes(m));
  afterEdit();
}

/** Step back one edit. */
export function undoEdit() {
  const { draft } = state;
  if (!draft || !draft.history.length) return;
  restore(draft.history.pop());
  state.selected = new Set();
  state.badMelds = new Map();
  say("");
  showError("");
  render();
}

/** The table and rack as the turn began (itself an edit, so Undo brings the edits back). */
export function resetTurn() {
  state.draft.history.push(snapshot());
  restore(state.draft.start);
  afterEdit();
}

/** Lay out the last hint's table: each of its tiles taken from the table as the turn began, else the rack. */
export function applyHint() {
  const { draft, hintTable } = state;
  if (!hintTable || !yourTurn()) return;
  draft.history.push(snapshot());
  const all = JSON.parse(draft.start);
  const pool = [...all.table.flat(), ...all.rack];
  const take = (code) => {
    const fixed = pool.findIndex((t) => t.code === code && !t.fromRack);
    const index = fixed >= 0 ? fixed : pool.findIndex((t) => t.code === code);
    return pool.splice(index, 1)[0];
  };
  draft.table = hintTable.map((m) => m.map(take));
  draft.rack = pool.filter((t) => t.fromRack);
  afterEdit();
}
