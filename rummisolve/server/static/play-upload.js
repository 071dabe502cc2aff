// A saved game opened from a file (a download of this page, or rummisolve play --save): its rounds
// as replays, read only, with the analysis of its player's turns (POST /replays; nothing is stored).
import { $, el, formatTiles, showMessage } from "./common.js";
import { drawFrame } from "./play-replay.js";
import { has, t } from "./words.js";

/** A mistake the analysis flags (an English phrase from the server) in the page's language. */
const mistakeWords = (m) => (has(`mistake.${m.replace(/\W+/g, "_")}`) ? t(`mistake.${m.replace(/\W+/g, "_")}`) : m);

let opened = null; // {names, seat, rounds: [{round, finished, frames, analysis}], current}

/** Read the chosen file and open it. */
export async function openFile(file) {
  const box = $("upload-message");
  let saved;
  try {
    saved = JSON.parse(await file.text());
  } catch (err) {
    showMessage(box, t("upload.not_saved", { file: file.name, error: err.message }), "bad");
    return;
  }
  const response = await fetch("/replays", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(saved) });
  const data = await response.json();
  if (!response.ok) { showMessage(box, `${file.name}: ${data.error || `HTTP ${response.status}`}`, "bad"); return; }
  showMessage(box, "");
  opened = data;
  const choice = $("opened-round");
  choice.replaceChildren(...data.rounds.map((r) => new Option(t(r.finished ? "upload.round" : "upload.round_not_over", { n: r.round + 1 }), r.round)));
  if (data.current) choice.append(new Option(t("upload.round_seen", { n: data.current.round + 1 }), "current"));
  choice.onchange = () => showRound(choice.value);
  $("opened").classList.remove("hidden");
  showRound(choice.value);
  $("opened").scrollIntoView({ block: "start" });
}

function showRound(which) {
  const round = which === "current" ? opened.current : opened.rounds[Number(which)];
  const slider = $("opened-slider");
  slider.max = String(round.frames.length - 1);
  slider.value = "0";
  const show = () => drawFrame(round.frames, Number(slider.value), opened.names, "opened");
  slider.oninput = show;
  $("opened-prev").onclick = () => { slider.value = String(Math.max(0, Number(slider.value) - 1)); show(); };
  $("opened-next").onclick = () => { slider.value = String(Math.min(round.frames.length - 1, Number(slider.value) + 1)); show(); };
  show();
  renderAnalysis(round.analysis);
}

function renderAnalysis(analysis) {
  const box = $("opened-analysis");
  box.replaceChildren();
  if (!analysis) { box.append(el("p", { class: "muted", text: t("upload.no_analysis") })); return; }
  if (analysis.error) { box.append(el("p", { class: "muted", text: t("upload.analysis_error", { error: analysis.error }) })); return; }
  const s = analysis.summary;
  box.append(el("p", { text: t("upload.summary", { player: analysis.player, turns: t("count.turns", { n: s.turns }), mistakes: t("count.mistakes", { n: s.mistakes }), tiles: t("count.tiles", { n: s.tiles_cost }), points: t("count.points", { n: s.points_cost }) }) }));
  const tiles = (ts) => (ts === null ? t("upload.draw") : formatTiles(ts) || t("alt.nothing"));
  const rows = analysis.turns.map((turn) => el("tr", { "data-testid": "analysis-turn" },
    el("td", { text: String(turn.turn + 1) }), el("td", { text: tiles(turn.played) }), el("td", { text: tiles(turn.best) }),
    el("td", { text: turn.tiles_cost || turn.points_cost ? `${t("count.tiles", { n: turn.tiles_cost })}, ${t("count.points", { n: turn.points_cost })}` : "—" }),
    el("td", { text: turn.mistakes.map(mistakeWords).join(", ") })));
  box.append(el("table", { class: "analysis", "data-testid": "analysis" },
    el("thead", {}, el("tr", {}, ...["turn", "played", "best", "cost", "mistakes"].map((h) => el("th", { text: t(`upload.col_${h}`) })))),
    el("tbody", {}, ...rows)));
}
