// Call the rummisolve HTTP service from Node.js (18 or later; no dependencies).
//
// Start the service first (pip install 'rummisolve[server]', then `rummisolve serve`), then:
//
//     node examples/client.js [http://127.0.0.1:8000] [PICTURE]
//
// It solves a position, checks the answer with the referee, and saves a picture of it as SVG in
// PICTURE (default: rummisolve-move.svg in the system's temporary folder, not the current one).
// A busy server answers 503 with a Retry-After header: the client waits that long and retries.

"use strict";

const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const URL_BASE = process.argv[2] || "http://127.0.0.1:8000";
const PICTURE = process.argv[3] || path.join(os.tmpdir(), "rummisolve-move.svg");

class Unreachable extends Error {}

// POST a JSON body; resolve to { status, body, contentType, retryAfter }. A 4xx is not an exception;
// no server answering is (Unreachable).
async function post(path, body) {
  let response;
  try {
    response = await fetch(URL_BASE + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    const code = err.cause && err.cause.code;
    const reason = code === "ECONNREFUSED" ? "connection refused" : (err.cause && err.cause.message) || err.message;
    throw new Unreachable(`cannot reach the rummisolve service at ${URL_BASE}: ${reason} (start it with: rummisolve serve)`);
  }
  return {
    status: response.status,
    body: await response.text(),
    contentType: response.headers.get("content-type") || "",
    retryAfter: response.headers.get("retry-after"),
  };
}

// The result for a position; a busy server (503) is asked again after its Retry-After.
async function solve(position, tries = 3) {
  let answer;
  for (let attempt = 1; attempt <= tries; attempt++) {
    answer = await post("/solve", position);
    if (answer.status !== 503 || attempt === tries) break;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(Number(answer.retryAfter) || 1, 30)));
  }
  const result = JSON.parse(answer.body);
  if (answer.status !== 200) throw new Error(result.error);
  return result;
}

async function main() {
  const position = {
    table: [["R1", "R2", "R3"], ["K7", "B7", "O7"]],
    rack: ["R4", "R7", "J", "K12"],
    opened: true,
    objective: "tiles", // or "value"
    time_limit: 5, // seconds; the server clamps it to its own cap
  };
  const result = await solve(position);
  console.log(`${result.status}: play ${result.played.join(" ") || "nothing"} (${result.value} points)`);
  for (const meld of result.table) console.log("   ", meld.join(" "));

  // The referee agrees (it would list reasons if the table were illegal).
  const { table, rack, opened } = position;
  const verdict = JSON.parse((await post("/verify", { position: { table, rack, opened }, table: result.table })).body);
  console.log("legal:", verdict.legal);

  // A picture of the move: the new table with the played tiles highlighted.
  const picture = await post("/render", { ...result, position: { table, rack, opened } });
  if (picture.status !== 200 || !picture.contentType.startsWith("image/svg+xml")) throw new Error(picture.body);
  fs.writeFileSync(PICTURE, picture.body);
  console.log(`picture saved to ${PICTURE}`);

  // Bad input is answered with a 4xx and a message naming the bad part.
  const bad = await post("/solve", { rack: ["R4", "X9"] });
  console.log(bad.status, JSON.parse(bad.body).error);
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
