// The help page: the rule options in words, read from the server (GET /meta), so every option shows.
import { $, el, loadMeta } from "./common.js";

async function main() {
  const meta = await loadMeta();
  $("presets").textContent = Object.keys(meta.presets).join(", ");
  const list = $("option-list");
  for (const option of meta.options) {
    list.append(
      el("dt", { id: `option-${option.name}`, "data-option": option.name }, el("code", { text: option.name }),
        ` (default: ${option.default === null ? "off" : option.default})${option.affects_position ? "" : " · a game's, not a position's"}`),
      el("dd", { text: option.help }),
    );
  }
  document.body.dataset.ready = "true";
}

main();
