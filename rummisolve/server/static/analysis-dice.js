// The analysis board under the Xpress dice edition: which die shows each rack entry (a die whose
// faces include it), the request's ``dice`` and ``reroll`` fields, and the best re-roll's ranking.
import { $, el, ruleValue } from "./common.js";
import { num, t } from "./words.js";

/** Whether ``rules`` are the dice edition's. */
export const diceRules = (meta, rules) => Boolean(ruleValue(meta, rules, "dice"));

/** One die (or "") per rack entry of ``rack``, each still able to show its entry. */
export function fitDice(meta, rack, dice) {
  return rack.map((code, i) => {
    const die = dice[i] || "";
    return die && meta.dice_faces[die] && meta.dice_faces[die].includes(code) ? die : "";
  });
}

/** One select per rack entry: the dice that can show it and are not claimed by another entry. */
export function renderDicePicker(meta, rules, rack, dice, onChange) {
  const on = diceRules(meta, rules);
  $("dice-box").classList.toggle("hidden", !on);
  if (!on) return;
  const box = $("dice-pick");
  box.replaceChildren();
  rack.forEach((code, i) => {
    const select = el("select", { "data-testid": "die-of", "data-entry": i, "aria-label": t("dice.die_of", { n: i + 1, code }) });
    select.append(el("option", { value: "", text: t("dice.which") }));
    for (const [name, faces] of Object.entries(meta.dice_faces)) {
      if (!faces.includes(code) || (dice.includes(name) && dice[i] !== name)) continue;
      select.append(el("option", { value: name, text: `${name} (${faces.join(" ")})` }));
    }
    select.value = dice[i] || "";
    select.addEventListener("change", () => { dice[i] = select.value; onChange(); });
    box.append(el("label", { class: "die-pick" }, el("strong", { text: code }), select));
  });
  if (!rack.length) box.append(el("span", { class: "muted", text: t("dice.faces_first") }));
  const missing = rack.length - dice.filter(Boolean).length;
  $("dice-note").textContent = missing ? t("dice.missing", { n: missing, total: rack.length }) : "";
}

/** The request's dice fields: ``dice`` once every rack entry has its die, ``reroll`` if asked. */
export function diceFields(meta, rules, rack, dice) {
  if (!diceRules(meta, rules) || !rack.length || dice.length !== rack.length || !dice.every(Boolean)) return {};
  return { dice: [...dice], ...($("reroll").checked ? { reroll: true } : {}) };
}

const figure = (option, key) => {
  const value = num(option.expected[key], 2);
  return option.exact || key !== "tiles" ? value : `${value} ± ${num(option.stderr, 2)}`;
};

/** The best re-roll of a result (hidden without one): the advice in words, then the subsets ranked. */
export function renderReroll(result, position, limit = 12) {
  const box = $("reroll-box");
  const reroll = result.reroll;
  box.classList.toggle("hidden", !reroll);
  if (!reroll) return;
  const names = (option) => option.dice.map((i) => `${position.dice[i]} (${position.rack[i]})`);
  const keep = reroll.options.find((o) => !o.dice.length);
  const what = reroll.dice.length ? t("reroll.roll", { dice: names(reroll).join(", ") }) : t("reroll.keep_all");
  $("reroll-best").textContent = t("reroll.best", { what, expected: figure(reroll, "tiles"), keeping: figure(keep, "tiles"), objective: t(`objective.${reroll.objective}`),
    exact: reroll.options.every((o) => o.exact) ? t("reroll.all_exact") : t("reroll.sampled_note"), solves: reroll.solves });
  $("reroll-options").replaceChildren(
    el("tr", {}, ...["#", t("reroll.col_roll"), t("reroll.col_played"), t("reroll.col_points"), t("reroll.col_out"), ""].map((h) => el("th", { text: h }))),
    ...reroll.options.slice(0, limit).map((o, k) => el("tr", { "data-testid": "reroll-option" },
      el("td", { text: String(k + 1) }), el("td", { text: o.dice.length ? names(o).join(", ") : t("reroll.none") }),
      el("td", { text: figure(o, "tiles") }), el("td", { text: figure(o, "value") }), el("td", { text: new Intl.NumberFormat(document.documentElement.lang, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(o.expected.out) }),
      el("td", { class: "muted", text: o.exact ? t("reroll.exact") : t("reroll.sampled") }))),
  );
  $("reroll-more").textContent = reroll.options.length > limit ? t("reroll.more", { n: limit, total: reroll.options.length }) : "";
}
