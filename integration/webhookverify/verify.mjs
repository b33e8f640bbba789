// Verifies recorded Herald webhook requests with the official Standard Webhooks library.
// stdin: {"secret": "whsec_…", "requests": [{"headers": {name: value}, "body": "…"}]}
// stdout: one line per request, "ok <type>" or "fail <error>".
import { Webhook } from "standardwebhooks";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { secret, requests } = JSON.parse(input);
const wh = new Webhook(secret);
for (const r of requests) {
  try {
    const event = wh.verify(r.body, r.headers);
    console.log("ok " + event.type);
  } catch (e) {
    console.log("fail " + (e && e.message ? e.message : String(e)));
  }
}
