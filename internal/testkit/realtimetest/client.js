// A socket.io-client driven by a Go test: options come as JSON in argv[2]; every
// happening is printed as one JSON line; the line "close" on stdin closes the socket (as an
// app would, without exiting); closing stdin ends the process. Without a transports option
// the client runs with its defaults: long-polling first, then the upgrade to WebSocket.
const { io } = require("socket.io-client");
const readline = require("readline");

const opts = JSON.parse(process.argv[2]);
const print = (o) => process.stdout.write(JSON.stringify(o) + "\n");

const options = {
  path: opts.path || "/socket.io/",
  query: opts.query || {},
  auth: opts.auth || {},
  reconnection: !!opts.reconnection,
  timeout: 20000,
};
if (opts.transports) options.transports = opts.transports;
const socket = io(opts.url, options);
const transport = () => (socket.io.engine && socket.io.engine.transport ? socket.io.engine.transport.name : null);
socket.io.on("open", () => {
  print({ type: "open", transport: transport() });
  socket.io.engine.on("upgrade", (t) => print({ type: "upgrade", transport: t.name }));
});
socket.io.on("ping", () => print({ type: "ping", transport: transport() }));
socket.on("connect", () => print({ type: "connect", id: socket.id, transport: transport() }));
socket.on("connect_error", (err) => print({ type: "connect_error", message: err.message, data: err.data || null }));
socket.on("disconnect", (reason) => print({ type: "disconnect", reason }));
socket.onAny((name, ...args) => print({ type: "event", name, data: args[0] === undefined ? null : args[0], transport: transport() }));
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "close") {
    socket.close();
    print({ type: "closed" });
  }
});
process.stdin.on("end", () => {
  socket.close();
  process.exit(0);
});
