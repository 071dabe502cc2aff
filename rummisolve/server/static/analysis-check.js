// The analysis board's check of the position: every problem in a player's words (POST /check, which
// answers 200 whatever the position, so nothing is logged as a failed request), and which tiles and
// melds are bad, so the editor draws them as bad.
import { colourName, el } from "./common.js";
import { lang, t } from "./words.js";

/** Every problem of the position (the server's words), or one saying the check itself failed. */
export async function positionProblems(position) {
  try {
    const response = await fetch("/check", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(position) });
    const answer = await response.json();
    if (!response.ok) return [{ part: "position", meld: null, slot: null, text: answer.error || `HTTP ${response.status}` }];
    return answer.problems;
  } catch (err) {
    return [{ part: "position", meld: null, slot: null, text: t("check.failed", { error: err.message }) }];
  }
}

/** The codes the rules' tile set has ("Y" is orange's other letter). */
export function knownCodes(tileSet) {
  const codes = new Set((tileSet ? tileSet.tiles : []).map((t) => t.code));
  return { has: (code) => codes.has(code) || codes.has(code.replace(/^Y/, "O")), ready: Boolean(tileSet) };
}

/** Whether the tile at ``slot`` of ``meld`` (``null``: the rack) is bad: no tile of the rules, or named by a problem. */
export function isBadTile(code, meld, slot, known, problems) {
  if (known.ready && !known.has(code)) return true;
  const part = meld === null ? "rack" : "table";
  return problems.some((p) => p.part === part && p.slot === slot && (meld === null || p.meld === meld));
}

/** The problem of table meld ``i`` as a whole (not of one of its tiles), or undefined. */
export function meldProblem(i, problems) {
  return problems.find((p) => p.part === "table" && p.meld === i && p.slot === null);
}

/** A problem in the page's language: the server words it in English (kept for English); the other
 * languages word it from its part, meld and slot, and a copy count from the English sentence. */
export function problemWords(problem) {
  if (lang === "en") return problem.text;
  const { part, meld, slot } = problem;
  if (part === "table" && meld !== null && slot === null) return `${t("board.meld_n", { n: meld + 1 })}: ${t("reason.invalid_meld")}`;
  if (part === "table" && slot !== null) return t("check.bad_table_tile", { n: meld + 1, s: slot + 1 });
  if (part === "rack" && slot !== null) return t("check.bad_rack_tile", { s: slot + 1 });
  const copies = /^(\S+) is there (\d+) times .* has (\d+) /.exec(problem.text);
  if (copies) return t("check.too_many", { tile: copies[1], n: Number(copies[2]), max: Number(copies[3]) });
  return t(part === "rules" ? "check.bad_rules" : "check.bad_position");
}

/** Show the problems as a list in ``box`` (empty: nothing shown). */
export function showProblems(box, problems) {
  box.replaceChildren();
  box.className = `message${problems.length ? " bad" : ""}`;
  if (!problems.length) return;
  if (problems.length === 1) {
    box.textContent = problemWords(problems[0]);
    return;
  }
  box.append(t("check.problems", { n: problems.length }), el("ul", { "data-testid": "problems" },
    ...problems.map((p) => el("li", { "data-testid": "problem", text: problemWords(p) }))));
}

/** "K black, B blue, O orange, R red; J joker": the colours (and jokers) of the rules in use. */
export function colourWords(tileSet, meta) {
  if (!tileSet) return "";
  const letters = [...new Set(tileSet.tiles.filter((t) => t.colour).map((t) => t.colour))];
  const colours = letters.map((letter) => `${letter} ${colourName(letter, meta)}`).join(", ");
  const jokers = tileSet.tiles.filter((tile) => !tile.colour).map((tile) => tile.code);
  const highest = Math.max(0, ...tileSet.tiles.map((tile) => tile.number || 0));
  return jokers.length ? t("check.colours_jokers", { colours, jokers: jokers.join(" "), highest }) : t("check.colours", { colours, highest });
}
