// The analysis board under the Xpress dice edition: which die shows each rack entry (a die whose
// faces include it), the request's ``dice`` and ``reroll`` fields, and the best re-roll's ranking.
import { $, el, ruleValue } from "./common.js";

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
    const select = el("select", { "data-testid": "die-of", "data-entry": i, "aria-label": `the die showing rack entry ${i + 1} (${code})` });
    select.append(el("option", { value: "", text: "die?" }));
    for (const [name, faces] of Object.entries(meta.dice_faces)) {
      if (!faces.includes(code) || (dice.includes(name) && dice[i] !== name)) continue;
      select.append(el("option", { value: name, text: `${name} (${faces.join(" ")})` }));
    }
    select.value = dice[i] || "";
    select.addEventListener("change", () => { dice[i] = select.value; onChange(); });
    box.append(el("label", { class: "die-pick" }, el("strong", { text: code }), select));
  });
  if (!rack.length) box.append(el("span", { class: "muted", text: "Put the faces your dice show on the rack first." }));
  const missing = rack.length - dice.filter(Boolean).length;
  $("dice-note").textContent = missing ? `${missing} of ${rack.length} entries without a die: the best re-roll needs every one.` : "";
}

/** The request's dice fields: ``dice`` once every rack entry has its die, ``reroll`` if asked. */
export function diceFields(meta, rules, rack, dice) {
  if (!diceRules(meta, rules) || !rack.length || dice.length !== rack.length || !dice.every(Boolean)) return {};
  return { dice: [...dice], ...($("reroll").checked ? { reroll: true } : {}) };
}

const figure = (option, key) => {
  const value = option.expected[key].toFixed(2);
  return option.exact || key !== "tiles" ? value : `${value} ± ${option.stderr.toFixed(2)}`;
};

/** The best re-roll of a result (hidden without one): the advice in words, then the subsets ranked. */
export function renderReroll(result, position, limit = 12) {
  const box = $("reroll-box");
  const reroll = result.reroll;
  box.classList.toggle("hidden", !reroll);
  if (!reroll) return;
  const names = (option) => option.dice.map((i) => `${position.dice[i]} (${position.rack[i]})`);
  const keep = reroll.options.find((o) => !o.dice.length);
  const what = reroll.dice.length ? `Roll ${names(reroll).join(", ")}` : "Keep all the dice";
  $("reroll-best").textContent = `${what}: ${figure(reroll, "tiles")} dice expected to play, against ${figure(keep, "tiles")} keeping all`
    + ` (ranked by ${reroll.objective}; ${reroll.options.every((o) => o.exact) ? "every option exact" : "± where sampled"}, ${reroll.solves} racks solved).`;
  $("reroll-options").replaceChildren(
    el("tr", {}, ...["#", "roll", "dice played", "points shed", "chance to go out", ""].map((h) => el("th", { text: h }))),
    ...reroll.options.slice(0, limit).map((o, k) => el("tr", { "data-testid": "reroll-option" },
      el("td", { text: String(k + 1) }), el("td", { text: o.dice.length ? names(o).join(", ") : "none (keep all)" }),
      el("td", { text: figure(o, "tiles") }), el("td", { text: figure(o, "value") }), el("td", { text: `${(o.expected.out * 100).toFixed(1)}%` }),
      el("td", { class: "muted", text: o.exact ? "exact" : "sampled" }))),
  );
  $("reroll-more").textContent = reroll.options.length > limit ? `The first ${limit} of ${reroll.options.length} subsets.` : "";
}
