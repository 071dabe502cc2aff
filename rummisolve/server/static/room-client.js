// The game rooms' client: the protocol's requests (docs/rooms.md), each {ok, status, data}; the
// seats' tokens kept in this browser (localStorage, one entry per room); and the WebSocket that
// pushes a seat's (or a spectator's) view after every change of the room, reconnected when it drops.
import { api } from "./common.js";

const bearer = (token) => ({ authorization: `Bearer ${token}` });
const path = (code) => `/rooms/${encodeURIComponent(code)}`;

/** POST /rooms: a new room ({rules, seats, name, timer, seat}). */
export const createRoom = (body) => api("/rooms", body);

/** POST /rooms/{code}/join: the next free human seat ({name}), or the free one named ({name, seat}). */
export const joinRoom = (code, body) => api(`${path(code)}/join`, body);

/** GET /rooms/{code}: the seat's view (with its token), else the spectator's. */
export const getRoom = (code, token) => api(path(code), undefined, "GET", token ? bearer(token) : {});

/** POST /rooms/{code}/turn: a play ({table, discard?}), a draw ({draw, source}) or a discard, with the version seen. */
export const postTurn = (code, token, body) => api(`${path(code)}/turn`, body, "POST", bearer(token));

/** POST /rooms/{code}/next-round once the round is over. */
export const postNextRound = (code, token, version) => api(`${path(code)}/next-round`, { version }, "POST", bearer(token));

/** POST /rooms/{code}/seats/{seat}: the creator hands a seat nobody took (or whose player left) to an AI. */
export const handSeat = (code, token, seat, kind, version) => api(`${path(code)}/seats/${seat}`, { kind, version }, "POST", bearer(token));

// -- the tokens this browser holds ------------------------------------------------------------------

const KEY = (code) => `rummisolve.room.${code.toUpperCase()}`;

/** The seats this browser holds in room ``code``: Map seat -> token (a token is the seat: never shown to others). */
export function storedSeats(code) {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY(code)) || "{}");
    return new Map(Object.entries(saved.tokens || {}).map(([seat, token]) => [Number(seat), token]));
  } catch {
    return new Map();
  }
}

export function storeSeat(code, seat, token) {
  const seats = storedSeats(code);
  seats.set(seat, token);
  localStorage.setItem(KEY(code), JSON.stringify({ tokens: Object.fromEntries(seats), at: Date.now() }));
}

/** The rooms this browser holds a seat in, the newest first: [{code, seats: [seat], at}]. */
export function storedRooms() {
  const rooms = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key.startsWith("rummisolve.room.")) continue;
    const code = key.slice("rummisolve.room.".length);
    let at = 0;
    try { at = JSON.parse(localStorage.getItem(key)).at || 0; } catch { /* an entry of an older page: no time */ }
    rooms.push({ code, seats: [...storedSeats(code).keys()], at });
  }
  return rooms.filter((r) => r.seats.length).sort((a, b) => b.at - a.at);
}

/** Forget a token the room no longer knows (refused with 403). */
export function forgetSeat(code, seat) {
  const seats = storedSeats(code);
  seats.delete(seat);
  if (seats.size) localStorage.setItem(KEY(code), JSON.stringify({ tokens: Object.fromEntries(seats), at: Date.now() }));
  else localStorage.removeItem(KEY(code));
}

/** The name this browser last played under (the forms fill it in). */
export const lastName = () => localStorage.getItem("rummisolve.name") || "";
export const keepName = (name) => { if (name) localStorage.setItem("rummisolve.name", name); };

// -- the WebSocket ----------------------------------------------------------------------------------

/**
 * Follow room ``code`` as ``token``'s seat (``null``: a spectator): ``onView(view)`` for every view
 * pushed, ``onState(state, detail)`` as the connection goes ("live", "reconnecting", "refused").
 * A dropped connection is opened again (after 0.5 s, then longer, at most 5 s); a refused one
 * (the room is gone, the token is no seat's) is not. Returns {close()}.
 */
export function follow(code, token, onView, onState) {
  let socket = null;
  let delay = 500;
  let closed = false;
  let refusal = null;
  const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path(code)}/ws${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  const open = () => {
    socket = new WebSocket(url);
    socket.onopen = () => { delay = 500; onState("live"); };
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.error) refusal = data.error;
      else onView(data);
    };
    socket.onclose = (event) => {
      if (closed) return;
      if (event.code >= 4000 || event.code === 1008) { onState("refused", { code: event.code, error: refusal || event.reason }); return; }
      onState("reconnecting");
      setTimeout(() => { if (!closed) open(); }, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  open();
  return {
    close() {
      closed = true;
      if (socket && socket.readyState === WebSocket.OPEN) socket.close();
    },
  };
}
