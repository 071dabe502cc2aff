// A saved game opened from a file (a download of this page, or rummisolve play --save): its rounds
// as replays, read only, with the analysis of its player's turns (POST /replays; nothing is stored).
import { $, el, formatTiles, showMessage } from "./common.js";
import { drawFrame } from "./play-replay.js";

let opened = null; // {names, seat, rounds: [{round, finished, frames, analysis}], current}

/** Read the chosen file and open it. */
export async function openFile(file) {
  const box = $("upload-message");
  let saved;
  try {
    saved = JSON.parse(await file.text());
  } catch (err) {
    showMessage(box, `${file.name} is not a saved game: ${err.message}`, "bad");
    return;
  }
  const response = await fetch("/replays", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(saved) });
  const data = await response.json();
  if (!response.ok) { showMessage(box, `${file.name}: ${data.error || `HTTP ${response.status}`}`, "bad"); return; }
  showMessage(box, "");
  opened = data;
  const choice = $("opened-round");
  choice.replaceChildren(...data.rounds.map((r) => new Option(`round ${r.round + 1}${r.finished ? "" : " (not over)"}`, r.round)));
  if (data.current) choice.append(new Option(`round ${data.current.round + 1} (as you saw it)`, "current"));
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
  if (!analysis) { box.append(el("p", { class: "muted", text: "This round is shown as you saw it: it has no analysis." })); return; }
  if (analysis.error) { box.append(el("p", { class: "muted", text: `No analysis: ${analysis.error}` })); return; }
  const s = analysis.summary;
  box.append(el("p", { text: `${analysis.player}: ${s.turns} turns, ${s.mistakes} mistakes; ${s.tiles_cost} tiles and ${s.points_cost} points fewer than the best moves.` }));
  const tiles = (ts) => (ts === null ? "draw" : formatTiles(ts) || "nothing");
  const rows = analysis.turns.map((t) => el("tr", { "data-testid": "analysis-turn" },
    el("td", { text: String(t.turn + 1) }), el("td", { text: tiles(t.played) }), el("td", { text: tiles(t.best) }),
    el("td", { text: t.tiles_cost || t.points_cost ? `${t.tiles_cost} tiles, ${t.points_cost} points` : "—" }),
    el("td", { text: t.mistakes.join(", ") })));
  box.append(el("table", { class: "analysis", "data-testid": "analysis" },
    el("thead", {}, el("tr", {}, ...["turn", "played", "best", "cost", "mistakes"].map((h) => el("th", { text: h })))),
    el("tbody", {}, ...rows)));
}
