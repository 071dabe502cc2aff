// A game room on the play page: the seats this browser holds, the newest view of each, and which
// seat is on screen. The page draws a room's view (docs/rooms.md) with the single-player page's
// view (play-view.js) as it is: both speak the one game view of docs/web.md.

export const room = {
  code: null,
  seats: new Map(), // seat -> token: the seats this browser holds (several: players sharing this screen)
  views: new Map(), // seat (or WATCH) -> the newest view of it pushed or answered
  followers: new Map(), // seat (or WATCH) -> its WebSocket connection
  connection: "connecting", // "live", "reconnecting", "refused"
  view: null, // the view on screen
  shown: null, // the seat whose rack is on screen; null: none (a spectator, or between turns on a shared screen)
  confirmed: null, // on a shared screen: the seat whose player said they hold the device
  passTo: null, // on a shared screen: the seat the device is to be passed to (its rack hidden until they confirm)
  draftKey: null, // what the draft was started on (a new one when it changes)
  tableAtEnd: new Map(), // seat -> the table as its last turn left it (what the others changed since)
  deadline: null, // the mover's deadline, in this browser's clock (ms)
  timerHandle: null,
  refused: null, // why the room cannot be followed (said on the page)
  full: false, // opened by its invite with every seat taken: watched
};

export const WATCH = "watch";

/** More than one seat in this browser: players share the screen, and pass the device between turns. */
export const sharedScreen = () => room.seats.size > 1;

/** The newest view held, of any seat or the spectator's: the room as it is now. */
export function newest() {
  let best = null;
  for (const view of room.views.values()) if (!best || view.version > best.version) best = view;
  return best;
}

/** The tile ``seat`` drew on its last turn, if its last event was a draw it saw (marked on its rack). */
export function drawnBy(view, seat) {
  for (let i = view.log.length - 1; i >= 0; i--) {
    const event = view.log[i];
    if (event.player !== seat) continue;
    return event.type === "draw" && event.tile ? event.tile : null;
  }
  return null;
}
