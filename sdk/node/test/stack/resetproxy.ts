// A TCP proxy whose first connection reaches the server, but whose answer is replaced by a
// TCP reset: a connection that breaks after the server acted. Later connections pass through.
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";

export class ResetProxy {
  readonly #server: Server;
  readonly #upstream: URL;
  /** Connections accepted. */
  connections = 0;
  /** The answer the client never saw (the first connection's), once it arrived. */
  readonly lost: Promise<string>;
  #resolveLost!: (s: string) => void;

  constructor(upstream: string) {
    this.#upstream = new URL(upstream);
    this.lost = new Promise((r) => (this.#resolveLost = r));
    this.#server = createServer((client) => this.#handle(client));
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.#server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.#server.close(() => r()));
  }

  #handle(client: Socket): void {
    const first = ++this.connections === 1;
    const up = connect(Number(this.#upstream.port), this.#upstream.hostname);
    client.on("error", () => up.destroy());
    up.on("error", () => client.destroy());
    client.pipe(up);
    if (!first) {
      up.pipe(client);
      return;
    }
    let answer = Buffer.alloc(0);
    up.on("data", (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      const text = answer.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
      const complete = length ? answer.length >= end + 4 + Number(length[1]) : text.endsWith("0\r\n\r\n");
      if (!complete) return;
      up.destroy();
      client.resetAndDestroy();
      this.#resolveLost(answer.toString("utf8"));
    });
  }
}
