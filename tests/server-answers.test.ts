// A server that answers everyone, black box on every host: a kept-alive client's next request after a
// 413 is answered (the 413 says `Connection: close`, or the connection stays usable); a request with two
// Host headers is 400 everywhere; a WebSocket text message that is not UTF-8 is closed with 1007 (RFC 6455
// 8.1); 1,000 connections at once each get an answer (a served request, or a JSON error that closes),
// never a silent close; and 150 stalled heads lock out nobody.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { startHost, api, type Host } from "./helpers/host.js";
import { rawRequest, RawWs } from "./helpers/raw.js";
import { Client, T, frame } from "./helpers/frames.js";
import { baseScene } from "./helpers/scenes.js";

let host: Host;
before(async () => {
  host = await startHost({ panels: 3 });
});
after(async () => {
  await host.stop();
});

/** One request on `agent`: status, headers and body. */
function send(agent: http.Agent, method: string, path: string, body?: Buffer | string, headers = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: host.port, method, path, agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("after a 413 a kept-alive client's next request is answered", async () => {
  const sizes = [40_000, 100_000, 2_000_000]; // streamed and refused; not read at all; far past both
  for (const size of sizes) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = Buffer.alloc(size, 0x20);
      for (let round = 0; round < 5; round++) {
        const refused = await send(agent, "POST", "/api/scenes", big, { "Content-Type": "application/json" });
        assert.equal(refused.status, 413, `${size} B: ${refused.body}`);
        assert.equal(JSON.parse(refused.body).error, "payload_too_large");
        // the very next request, on the same socket unless the 413 said it closes
        const next = await send(agent, "GET", "/api/state");
        assert.equal(next.status, 200, `${size} B, round ${round}: the request after the 413`);
      }
    } finally {
      agent.destroy();
    }
  }
  // on one raw connection: the 413 says it closes, or the request behind it is answered too
  const h = `Host: localhost:${host.port}\r\n`;
  for (const size of sizes.slice(0, 2)) {
    const answers = await new Promise<string>((resolve) => {
      const s = net.connect(host.port, "127.0.0.1");
      let text = "";
      s.on("data", (d) => {
        text += d.toString("latin1");
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 2 && /\r\n\r\n[^]*\r\n\r\n\{[^]*\}$/.test(text)) s.end();
      });
      s.on("error", () => {});
      s.on("close", () => resolve(text));
      s.write(`POST /api/scenes HTTP/1.1\r\n${h}Content-Length: ${size}\r\n\r\n`);
      s.write(Buffer.alloc(size, 0x20));
      s.write(`GET /api/state HTTP/1.1\r\n${h}\r\n`);
    });
    const first = answers.slice(0, answers.indexOf("\r\n\r\n"));
    assert.match(first, /^HTTP\/1\.1 413 /);
    const closes = /\r\nConnection: close/i.test(first);
    const second = /HTTP\/1\.1 200 [^]*"controllerFirmware"/.test(answers);
    assert.ok(closes || second, `${size} B: the 413 neither closes nor is the next request answered:\n${first}`);
  }
});

test("a request with two Host headers is 400, an upgrade too", async () => {
  const cases = [
    `GET /api/state HTTP/1.1\r\nHost: localhost:${host.port}\r\nHost: localhost:${host.port}\r\n\r\n`,
    `GET /api/state HTTP/1.1\r\nHost: localhost:${host.port}\r\nhost: evil.example\r\n\r\n`,
    `POST /api/scenes HTTP/1.1\r\nHost: localhost:${host.port}\r\nHOST: localhost\r\nContent-Length: 2\r\n\r\n{}`,
    `GET /ws HTTP/1.1\r\nHost: localhost:${host.port}\r\nHost: localhost:${host.port}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  ];
  const scenesBefore = (await api(host, "GET", "/api/scenes")).body;
  for (const bytes of cases) {
    const res = await rawRequest(host.port, bytes);
    assert.equal(res.status, 400, bytes);
    assert.match(res.headers["content-type"] ?? "", /^application\/json/);
    assert.deepEqual(res.json, { error: "bad_request" }, bytes);
  }
  assert.deepEqual((await api(host, "GET", "/api/scenes")).body, scenesBefore, "nothing was created");
  assert.equal((await api(host, "GET", "/api/state")).status, 200);
});

test("RFC 6455 8.1: a text message or close reason that is not UTF-8 closes with 1007", async () => {
  const bad: [string, (ws: RawWs) => void][] = [
    ["a lone continuation byte", (ws) => ws.send(1, Buffer.from([0x61, 0x80, 0x62]))],
    ["0xff", (ws) => ws.send(1, Buffer.from([0xff]))],
    ["an overlong slash", (ws) => ws.send(1, Buffer.from([0xc0, 0xaf]))],
    ["a surrogate", (ws) => ws.send(1, Buffer.from([0xed, 0xa0, 0x80]))],
    ["past U+10FFFF", (ws) => ws.send(1, Buffer.from([0xf4, 0x90, 0x80, 0x80]))],
    ["a sequence cut at the end", (ws) => ws.send(1, Buffer.from([0x61, 0xe2, 0x82]))],
    [
      "invalid across fragments",
      (ws) => {
        ws.send(1, Buffer.from([0x61, 0xe2]), { fin: false });
        ws.send(0, Buffer.from([0x28, 0xa1]), { fin: true });
      },
    ],
    ["a close reason", (ws) => ws.send(8, Buffer.from([0x03, 0xe8, 0xff, 0xfe]))],
  ];
  for (const [name, act] of bad) {
    const ws = await RawWs.open(host.port);
    try {
      await ws.waitFor((f) => f.opcode === 2 && f.payload[0] === T.APP_STATE);
      act(ws);
      await ws.waitClosed(5000);
      assert.equal(ws.closeCode, 1007, `${name}: close code`);
    } finally {
      ws.destroy();
    }
  }
  // valid UTF-8, split anywhere across fragments, is still ignored (the protocol is binary): the connection stays
  const ws = await RawWs.open(host.port);
  try {
    await ws.waitFor((f) => f.opcode === 2 && f.payload[0] === T.APP_STATE);
    const text = Buffer.from("héllo wörld €𝄞", "utf8");
    for (let cut = 1; cut < text.length; cut++) {
      ws.send(1, text.subarray(0, cut), { fin: false });
      ws.send(0, text.subarray(cut), { fin: true });
    }
    ws.send(0x9, Buffer.from("€")); // a ping's payload is not text: anything goes
    ws.send(2, frame(T.PING));
    await ws.waitFor((f) => f.opcode === 2 && f.payload[0] === T.PONG);
    assert.equal(ws.closeCode, undefined);
  } finally {
    ws.destroy();
  }
  await Client.pingPong(host.wsUrl);
});

test("1,000 connections at once: each is served (or refused with JSON and Connection: close), none closed silently", async () => {
  const N = 1000;
  const req = `GET /api/state HTTP/1.1\r\nHost: localhost:${host.port}\r\nConnection: close\r\n\r\n`;
  const one = () =>
    new Promise<string>((resolve) => {
      const s = net.connect(host.port, "127.0.0.1");
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => s.destroy(), 60_000);
      s.on("connect", () => s.write(req));
      s.on("data", (d) => chunks.push(d));
      s.on("error", () => {});
      s.on("close", () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString("utf8"));
      });
    });
  const answers = await Promise.all(Array.from({ length: N }, one));
  let served = 0;
  const closing: string[] = []; // answered with a JSON error that closes: 503 busy (or 408 for a head held up)
  const silent: number[] = [];
  answers.forEach((a, i) => {
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(a)?.[1];
    const body = a.slice(a.indexOf("\r\n\r\n") + 4);
    if (status === "200" && JSON.parse(body).controllerFirmware) served++;
    else if (status === "503" || status === "408") {
      assert.match(a, /\r\nConnection: close\r\n/i);
      assert.match(a, /\r\nContent-Type: application\/json/i);
      assert.equal(typeof JSON.parse(body).error, "string");
      closing.push(status);
    } else silent.push(i);
  });
  assert.deepEqual(silent, [], `${silent.length} of ${N} got no answer (${served} served, ${closing.length} refused)`);
  assert.ok(served >= N * 0.9, `${served} of ${N} served (refused: ${closing.join(" ")})`);
  // and the host serves as before
  assert.ok((await api(host, "POST", "/api/scenes", baseScene())).status < 300);
});

test("150 stalled request heads lock out nobody; a stalled one cut short for a newcomer gets 408 JSON", async () => {
  const stalled = Array.from({ length: 150 }, () => {
    const s = net.connect(host.port, "127.0.0.1");
    let answer = "";
    let closedByHost = false;
    s.on("data", (d) => (answer += d.toString("latin1")));
    s.on("error", () => {});
    s.on("end", () => (closedByHost = true));
    s.on("connect", () => s.write(`GET /api/state HTTP/1.1\r\nHost: localhost:${host.port}\r\n`)); // never ends
    return { s, answer: () => answer, closedByHost: () => closedByHost };
  });
  try {
    await new Promise((r) => setTimeout(r, 2500));
    // each a newcomer on a connection of its own: an idle kept-alive connection gives its slot up to a
    // waiting one (a client reusing it may find it closed, which HTTP allows; fetch does not retry)
    const newcomer = new http.Agent({ keepAlive: false });
    for (let i = 0; i < 5; i++) assert.equal((await send(newcomer, "GET", "/api/state")).status, 200);
    await new Promise((r) => setTimeout(r, 300));
    for (const c of stalled)
      if (c.closedByHost()) {
        assert.match(c.answer(), /^HTTP\/1\.1 408 [^]*\r\n\r\n\{"error":"timeout"\}$/);
        assert.match(c.answer(), /\r\nConnection: close\r\n/i);
      }
  } finally {
    for (const c of stalled) c.s.destroy();
  }
});
