// A standard EventSource client (npm `eventsource`, which behaves as a
// browser's does) reading `amplifier serve`: it POSTs the run request, and
// posts it again on every reconnect, as a client with a custom fetch does.
// What it sees is printed as JSON lines; it ends when the EventSource is
// closed for good, or after CLIENT_TIMEOUT_MS (default 60 s).
//
// usage: node client.mjs EVENTSOURCE_MODULE URL BODY [CUT_AFTER]
// CUT_AFTER: drop the first connection once a frame of that name arrived,
// as a network would. MARK_RECONNECT: a file created when it reconnects.
const [module, url, body, cutAfter] = process.argv.slice(2);
const { EventSource } = await import(module);
const { writeFileSync } = await import("node:fs");
const print = (line) => process.stdout.write(JSON.stringify(line) + "\n");

let cut = false;
async function postingFetch(input, init) {
  const lastEventId = init.headers["Last-Event-ID"] ?? null;
  if (lastEventId !== null && process.env.MARK_RECONNECT) writeFileSync(process.env.MARK_RECONNECT, lastEventId);
  const headers = { ...init.headers, "Content-Type": "application/json" };
  const response = await fetch(input, { ...init, method: "POST", body, headers });
  print({ kind: "response", status: response.status, lastEventId });
  if (cut || !cutAfter || !response.body) return response;
  const upstream = response.body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const stream = new ReadableStream({
    async pull(controller) {
      const { done, value } = await upstream.read();
      if (done) return controller.close();
      controller.enqueue(value);
      seen += decoder.decode(value, { stream: true });
      if (seen.includes(`event: ${cutAfter}\n`)) {
        cut = true;
        print({ kind: "cut" });
        await upstream.cancel();
        controller.close();
      }
    },
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}

const source = new EventSource(url, { fetch: postingFetch });
const frames = [
  "start", "phase", "plan_update", "handoff", "delta", "tool_call", "tool_result",
  "run_message", "warning", "metrics", "run_error", "complete", "heartbeat",
];
for (const name of frames) {
  source.addEventListener(name, (event) =>
    print({ kind: "frame", event: name, id: event.lastEventId, data: JSON.parse(event.data) }));
}
// A browser's `onerror` and `onmessage` are these listeners.
source.addEventListener("error", (event) =>
  print({ kind: "error", frame: event.data !== undefined, code: event.code ?? null, message: event.message ?? null }));
source.addEventListener("message", (event) => print({ kind: "message", data: event.data }));

const deadline = Date.now() + Number(process.env.CLIENT_TIMEOUT_MS ?? 60000);
const timer = setInterval(() => {
  if (source.readyState === source.CLOSED || Date.now() > deadline) {
    print({ kind: "end", readyState: source.readyState });
    source.close();
    clearInterval(timer);
  }
}, 50);
