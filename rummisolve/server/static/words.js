// The page's words in its language: the catalog the server put in the page (<script id="words">,
// rummisolve/server/languages.py), plurals by Intl.PluralRules, numbers and times by Intl, and the
// language picker (a cookie remembers the choice; the page reloads in the new language).

const data = JSON.parse(document.getElementById("words").textContent);

/** The page's language code (en, fi, sv, tr, el). */
export const lang = data.lang;
const plurals = new Intl.PluralRules(lang);

/** The text of ``key`` with ``{name}`` filled from ``values``; a plural entry picks its form by
 * ``values.n``. An unknown key is an error in the console and shows as the key. */
export function t(key, values = {}) {
  let entry = data.words[key];
  if (entry === undefined) {
    console.error(`no words for ${key}`);
    return key;
  }
  if (typeof entry === "object") entry = entry[plurals.select(Number(values.n))] ?? entry.other;
  return entry.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in values)) return whole;
    const value = values[name];
    return typeof value === "number" ? num(value) : String(value);
  });
}

/** Whether the catalog has ``key`` (for words chosen by a server's code, as a referee reason's). */
export const has = (key) => key in data.words;

const numberFormats = new Map();
/** ``x`` as the language writes numbers (``digits``: exactly that many decimals). */
export function num(x, digits) {
  const key = digits === undefined ? "" : String(digits);
  if (!numberFormats.has(key)) {
    numberFormats.set(key, new Intl.NumberFormat(lang, digits === undefined ? { maximumFractionDigits: 3 } : { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return numberFormats.get(key).format(x);
}

/** A date and time (a Date, or milliseconds or an ISO string) as the language writes it. */
export function when(value) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
}

/** A list as the language joins it ("a, b and c"). */
export function list(items, type = "conjunction") {
  return new Intl.ListFormat(lang, { style: "long", type }).format(items.map(String));
}

// The words the stylesheet draws (a meld the others changed, a die picked to roll), in the language.
document.documentElement.style.setProperty("--word-changed", JSON.stringify(t("mark.changed")));
document.documentElement.style.setProperty("--word-roll", JSON.stringify(t("mark.roll")));

const picker = document.getElementById("lang-picker");
if (picker) {
  picker.addEventListener("change", () => {
    document.cookie = `lang=${picker.value}; path=/; max-age=31536000; SameSite=Lax`;
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.replace(url.toString());
  });
}

/** ``text`` with its first letter a capital, as the language writes it (Turkish: i → İ). */
export const capital = (text) => (text ? text.charAt(0).toLocaleUpperCase(lang) + text.slice(1) : text);

/** A player's name in the page's language: the server names a game's seats "you" and by the AI's
 * level ("medium", "easy#2"), a room's unnamed seat "player N"; other names are shown as they are. */
export function playerWord(name) {
  const seat = /^player (\d+)$/.exec(name); // a room's seat nobody named
  if (seat) return t("room.player_n", { n: Number(seat[1]) });
  const [base, number] = String(name).split("#");
  const word = base === "you" ? t("play.you") : has(`ai.${base}`) ? t(`ai.${base}`) : base;
  return number === undefined ? word : `${word}#${number}`;
}

/** A referee's reason ({code, message, meld}) in the page's language: English keeps the referee's
 * own message (it names the tiles); the other languages word the reason from its code, and the meld
 * it concerns by its number. */
export function reasonWords(reason) {
  if (lang === "en" || !has(`reason.${reason.code}`)) return reason.message;
  const meld = reason.meld === null || reason.meld === undefined ? "" : ` (${t("board.meld_n", { n: reason.meld + 1 })})`;
  return `${t(`reason.${reason.code}`)}${meld}`;
}

/** A refused request's words for a player: English shows the server's message; the other languages
 * say what happened by the answer's status (the server words its details in English only). */
export function errorWords(status, message) {
  if (lang === "en") return message || `HTTP ${status}`;
  const key = { 400: "error.bad_request", 401: "error.no_seat", 403: "error.no_seat", 404: "error.not_found", 409: "error.conflict", 413: "error.too_big", 422: "error.bad_request", 429: "error.busy", 503: "error.busy" }[status];
  return t(key || (status >= 500 ? "error.server" : "error.refused"));
}
