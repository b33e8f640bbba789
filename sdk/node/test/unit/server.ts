// A scripted local HTTP server for the unit tests: each request is answered by the next
// handler of the script (the stack tests in integration/sdk use a real Herald).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

export interface Scripted {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** json answers status with body as JSON and extra headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}

/** reset destroys the connection without an answer. */
export const reset: Handler = (_req, res) => {
  res.socket?.resetAndDestroy();
};

/** hang never answers (the client's timeout must fire). */
export const hang: Handler = () => {};

/** serve answers the requests with the handlers in order; the last one repeats. */
export async function serve(...script: Handler[]): Promise<Scripted> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const s: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(s);
      const h = script[Math.min(seen.length - 1, script.length - 1)]!;
      h(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
