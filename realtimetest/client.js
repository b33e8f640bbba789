// A socket.io-client driven by a Go test: options come as JSON in argv[2]; every
// happening is printed as one JSON line; closing stdin ends the process.
const { io } = require("socket.io-client");

const opts = JSON.parse(process.argv[2]);
const print = (o) => process.stdout.write(JSON.stringify(o) + "\n");

const socket = io(opts.url, {
  path: opts.path || "/socket.io/",
  transports: opts.transports || ["websocket"],
  query: opts.query || {},
  auth: opts.auth || {},
  reconnection: !!opts.reconnection,
  timeout: 20000,
});
socket.on("connect", () => print({ type: "connect", id: socket.id }));
socket.on("connect_error", (err) => print({ type: "connect_error", message: err.message, data: err.data || null }));
socket.on("disconnect", (reason) => print({ type: "disconnect", reason }));
socket.onAny((name, ...args) => print({ type: "event", name, data: args[0] === undefined ? null : args[0] }));
process.stdin.on("data", () => {});
process.stdin.on("end", () => {
  socket.close();
  process.exit(0);
});
