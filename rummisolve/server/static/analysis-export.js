// The analysis board's exports: the move shown as an SVG file and as a PNG, drawn by POST /render.
import { $ } from "./common.js";
import { lang } from "./words.js";

/** Point the export links at pictures of ``move``, a result for ``position``. */
export async function exportLinks(move, position) {
  const svgLink = $("export-svg");
  const pngLink = $("export-png");
  const body = { status: move.status, table: move.table, played: move.played, value: move.value, kept: move.kept, objective: move.objective, position: { ...position }, steps: move.steps };
  for (const key of ["time_limit", "dice", "reroll"]) delete body.position[key]; // a picture takes the position alone
  const response = await fetch(`/render?lang=${lang}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) return;
  const svg = await response.text();
  if (svgLink.dataset.url) URL.revokeObjectURL(svgLink.dataset.url);
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  svgLink.href = svgLink.dataset.url = url;
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth * 2;
    canvas.height = image.naturalHeight * 2;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    pngLink.href = canvas.toDataURL("image/png");
  };
  image.src = url;
}
