// Call the rummisolve HTTP service from Node.js (18 or later; no dependencies).
//
// Start the service first (pip install 'rummisolve[server]', then `rummisolve serve`), then:
//
//     node examples/client.js [http://127.0.0.1:8000]
//
// It solves a position, checks the answer with the referee, and saves a picture of it as SVG.

"use strict";

const fs = require("node:fs");

const URL_BASE = process.argv[2] || "http://127.0.0.1:8000";

// POST a JSON body; resolve to { status, body, contentType }. A 4xx is not an exception.
async function post(path, body) {
  const response = await fetch(URL_BASE + path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.text(), contentType: response.headers.get("content-type") || "" };
}

async function solve(position) {
  const { status, body } = await post("/solve", position);
  const result = JSON.parse(body);
  if (status !== 200) throw new Error(result.error);
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
  fs.writeFileSync("move.svg", picture.body);
  console.log("picture saved to move.svg");

  // Bad input is answered with a 4xx and a message naming the bad part.
  const bad = await post("/solve", { rack: ["R4", "X9"] });
  console.log(bad.status, JSON.parse(bad.body).error);
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
