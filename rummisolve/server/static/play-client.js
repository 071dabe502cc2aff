// The game client: the page's requests to the game API (/games/...), each {ok, status, data}.
// The browser sends the game's token by itself (an HttpOnly cookie), so no request here names it.
import { api } from "./common.js";

/** POST /games: a new game ({players, rules, seed?}). */
export const newGame = (body) => api("/games", body);

/** GET /games: the games of this browser, with the store's counts and limits. */
export const listGames = () => api("/games");

/** GET /games/{id}: a game's state as its human sees it. */
export const getGame = (id) => api(`/games/${id}`);

export const deleteGame = (id) => api(`/games/${id}`, undefined, "DELETE");

/** POST /games/{id}/{action}: play, draw, discard, advance, hint, undo, timeout, next-round. */
export const postAction = (id, action, body) => api(`/games/${id}/${action}`, body ?? {});

/** GET /games/{id}/replay: the round's frames, turn by turn. */
export const getReplay = (id) => api(`/games/${id}/replay`);

/** The download of the saved game. */
export const savedPath = (id) => `/games/${id}/saved`;
