// Shared by the analysis board and the play page: the API, tiles, notation and the rules form.
// Everything the pages offer (presets, options, tiles, colours, AI levels) comes from the server;
// their words come from the page's catalog (words.js).
import { t } from "./words.js";

/** The page's element with this id. */
export const $ = (id) => document.getElementById(id);

/** Show a message in its box: the text, and its kind (info, good, bad) as a class while there is text. */
export function showMessage(box, text, kind = "info") {
  box.textContent = text || "";
  box.className = `message ${text ? kind : ""}`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** POST (with a body) or GET a JSON endpoint: {ok, status, data}. Bad input is an answer, not an exception.
 * ``headers``: more request headers (a room seat's Authorization). */
export async function api(path, body, method, headers = {}) {
  const options = { method: method || (body === undefined ? "GET" : "POST"), headers: { ...headers } };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  return { ok: response.ok, status: response.status, data };
}

let metaPromise = null;
/** GET /meta once: presets, options, colours, objectives, statuses, AI levels. */
export function loadMeta() {
  if (!metaPromise) metaPromise = api("/meta").then((r) => r.data);
  return metaPromise;
}

const tileSets = new Map();
/** Every tile of a rule set with its copies (POST /tiles), cached by rules. */
export async function loadTileSet(rules) {
  const key = JSON.stringify(rules);
  if (!tileSets.has(key)) {
    tileSets.set(key, api("/tiles", { rules }).then((r) => {
      if (!r.ok) { tileSets.delete(key); throw new Error(r.data.error); }
      return r.data;
    }));
  }
  return tileSets.get(key);
}

/** A tile's parts from its code: colour letter and number, or a joker (any code without a number). */
export function tileParts(code) {
  const m = /^([A-Z])(\d+)$/.exec(code);
  if (!m) return { joker: true, colour: null, number: null };
  return { joker: false, colour: m[1], number: Number(m[2]) };
}

/** A colour's name in the page's language, from its letter (the letter itself for an unknown one). */
export function colourName(letter, meta) {
  const colour = meta.colours.find((c) => c.letter === letter);
  return colour ? t(`colour.${colour.name}`) : letter;
}

export function tileLabel(code, meta) {
  const parts = tileParts(code);
  if (parts.joker) return code === "J" ? t("tile.joker") : t("tile.special_joker", { code });
  return t("tile.label", { colour: colourName(parts.colour, meta), number: parts.number });
}

const JOKER_CODES = ["J", "JD", "JC", "JM"]; // the joker and Twist's special jokers

/** A tile element: the number in its colour's ink over its colour's mark (so colour is not the only cue);
 * ``bad``: a code that is no tile of the rules in use, drawn as "?" over its code. */
export function tileElement(code, meta, { button = false, extraClass = "", attrs = {}, bad = false } = {}) {
  const parts = tileParts(code);
  const node = el(button ? "button" : "span", {
    class: `tile ${extraClass}`.trim(),
    "data-tile": code,
    "aria-label": tileLabel(code, meta),
    title: code,
    ...(button ? { type: "button" } : {}),
    ...attrs,
  });
  if (bad || (parts.joker && !JOKER_CODES.includes(code))) {
    // not a tile (a typo, or none of the rules in use: X3, R14): shown as such, the error names it
    node.classList.add("unknown");
    node.setAttribute("aria-label", t("tile.not_a_tile", { code }));
    node.append(el("span", { "aria-hidden": "true", text: "?" }), el("span", { class: "code", "aria-hidden": "true", text: code }));
  } else if (parts.joker) {
    node.classList.add("joker");
    node.style.setProperty("--ink-colour", meta.joker_ink);
    node.append(el("span", { class: "face", "aria-hidden": "true", text: "☺" }));
    if (code !== "J") node.append(el("span", { "aria-hidden": "true", text: code.slice(1) }));
  } else {
    const colour = meta.colours.find((c) => c.letter === parts.colour) || { ink: "#333", mark: "circle", name: "" };
    node.style.setProperty("--ink-colour", colour.ink);
    if (colour.name === "white") node.classList.add("white");
    node.append(el("span", { "aria-hidden": "true", text: String(parts.number) }));
    node.append(el("span", { class: `mark ${colour.mark}`, "aria-hidden": "true" }));
  }
  return node;
}

/** Tile codes from notation: "R7 k8, j" -> ["R7", "K8", "J"]. */
export function parseTiles(text) {
  return text.split(/[\s,]+/).map((t) => t.trim().toUpperCase()).filter(Boolean);
}
/** Melds from notation: "R3 R4 R5 | K7 O7 J" -> [["R3","R4","R5"], ["K7","O7","J"]]. */
export function parseTable(text) {
  return text.split(/[|\n;]+/).map(parseTiles).filter((m) => m.length);
}
export const formatTiles = (tiles) => tiles.join(" ");
export const formatTable = (melds) => melds.map(formatTiles).join(" | ");

/** Sort codes by colour then number (jokers last), or by number then colour. */
export function sortTiles(codes, order, meta) {
  const colourIndex = new Map(meta.colours.map((c, i) => [c.letter, i]));
  const key = (code) => {
    const p = tileParts(code);
    if (p.joker) return [1e6, 1e6, code];
    const c = colourIndex.get(p.colour) ?? 99;
    return order === "number" ? [p.number, c, code] : [c, p.number, code];
  };
  return [...codes].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || (ka[2] < kb[2] ? -1 : ka[2] > kb[2] ? 1 : 0);
  });
}

/**
 * The rules chooser: a preset and every option (built from /meta, so new ones appear by themselves).
 * value(): a preset name, or {"preset": ..., option: value} for the options changed from the preset.
 */
export class RulesForm {
  /** ``positionOnly``: show only the options that change a position's moves (the analysis board);
   * the others keep their preset's values. ``games``: only what the game engines play: no dice
   * option to tick on other rules, and the dice edition's preset only with ``dice`` (the play
   * page's games against an AI and game rooms play it, docs/rules.md#xpress). */
  constructor(container, meta, onChange, { positionOnly = false, games = false, dice = false } = {}) {
    this.meta = meta;
    this.onChange = onChange || (() => {});
    this.inputs = new Map();
    const id = `rules-${Math.random().toString(36).slice(2, 8)}`;
    this.preset = el("select", { id: `${id}-preset`, "data-testid": "rules-preset", onchange: () => this.fromPreset() });
    for (const [name, values] of Object.entries(meta.presets)) {
      if (!(games && values.dice && !dice)) this.preset.append(el("option", { value: name, text: t(`preset.${name}`) }));
    }
    const grid = el("div", { class: "options-grid" });
    for (const option of meta.options) {
      const inputId = `${id}-${option.name}`;
      let input;
      if (option.kind === "boolean") {
        input = el("input", { type: "checkbox", id: inputId });
      } else if (option.kind === "choice") {
        input = el("select", { id: inputId });
        for (const choice of option.choices) input.append(el("option", { value: choice, text: t(`choice.${choice}`) }));
      } else {
        input = el("input", { type: "number", id: inputId, min: option.min, max: option.max, step: option.kind === "integer" ? 1 : "any" });
        if (option.optional) input.placeholder = t("rules.off");
      }
      input.dataset.option = option.name;
      input.addEventListener("change", () => this.onChange());
      this.inputs.set(option.name, { input, option });
      if ((positionOnly && !option.affects_position) || (games && option.name === "dice")) continue;
      const helpId = `${inputId}-help`;
      input.setAttribute("aria-describedby", helpId);
      grid.append(el("div", { class: "option", "data-option-row": option.name },
        el("label", { for: inputId }, t(`optname.${option.name}`), input),
        el("small", { class: "option-help", id: helpId, text: t(`opthelp.${option.name}`) })));
    }
    container.append(
      el("div", { class: "row" }, el("label", { for: this.preset.id }, t("rules.rules")), " ", this.preset),
      el("details", {}, el("summary", { text: t("rules.options") }), grid,
        el("p", { class: "muted" }, t("rules.in_words"), " ", el("a", { href: "/help#options" }, t("nav.help")), positionOnly ? ` ${t("rules.position_only")}` : "")),
    );
    this.fromPreset(true);
  }

  fromPreset(quiet) {
    const values = this.meta.presets[this.preset.value];
    for (const [name, { input, option }] of this.inputs) this.put(input, option, values[name]);
    if (!quiet) this.onChange();
  }

  put(input, option, value) {
    if (option.kind === "boolean") input.checked = Boolean(value);
    else input.value = value === null || value === undefined ? "" : String(value);
  }

  read(input, option) {
    if (option.kind === "boolean") return input.checked;
    if (option.kind === "choice") return input.value;
    if (input.value === "") return option.optional ? null : option.default;
    return Number(input.value);
  }

  value() {
    const base = this.meta.presets[this.preset.value];
    const changed = {};
    for (const [name, { input, option }] of this.inputs) {
      const v = this.read(input, option);
      if (v !== base[name]) changed[name] = v;
    }
    return Object.keys(changed).length ? { preset: this.preset.value, ...changed } : this.preset.value;
  }

  /** Show a rules value: a preset name or an object of options (with an optional "preset"). */
  set(rules) {
    const options = typeof rules === "string" ? { preset: rules } : { ...(rules || {}) };
    const preset = options.preset && this.meta.presets[options.preset] ? options.preset : "standard";
    this.preset.value = preset in this.meta.presets ? preset : Object.keys(this.meta.presets)[0];
    this.fromPreset(true);
    for (const [name, value] of Object.entries(options)) {
      const entry = this.inputs.get(name);
      if (entry) this.put(entry.input, entry.option, value);
    }
  }
}

/** The value of rule option ``name`` in ``rules`` (a preset name, or options with an optional "preset"). */
export function ruleValue(meta, rules, name) {
  const preset = meta.presets[typeof rules === "string" ? rules : rules.preset || "standard"] || meta.presets.standard;
  return typeof rules === "object" && name in rules ? rules[name] : preset[name];
}

export function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
