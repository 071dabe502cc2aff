// The help page: the rule options in words, read from the server (GET /meta), so every option shows.
import { $, el, loadMeta } from "./common.js";
import { list, t } from "./words.js";

/** An option's default in words: off, yes/no, a choice's name, or the number. */
function defaultWords(option) {
  if (option.default === null) return t("rules.off");
  if (option.kind === "boolean") return t(option.default ? "help.yes" : "help.no");
  if (option.kind === "choice") return t(`choice.${option.default}`);
  return String(option.default);
}

async function main() {
  const meta = await loadMeta();
  $("presets").textContent = list(Object.keys(meta.presets).map((name) => t(`preset.${name}`)));
  const options = $("option-list");
  for (const option of meta.options) {
    options.append(
      el("dt", { id: `option-${option.name}`, "data-option": option.name }, el("strong", { text: t(`optname.${option.name}`) }), " ", el("code", { text: option.name }),
        ` (${t("help.default", { value: defaultWords(option) })})${option.affects_position ? "" : ` · ${t("help.game_only")}`}`),
      el("dd", { text: t(`opthelp.${option.name}`) }),
    );
  }
  document.body.dataset.ready = "true";
}

main();
