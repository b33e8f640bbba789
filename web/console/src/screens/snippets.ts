// The "send your first notification" snippets (pure: unit-tested by running them).

/** snippets returns a curl command and a Node.js program that send one notification. */
export function snippets(origin: string, apiKey: string, secret: string) {
  const body = {
    notification: { title: "Welcome to Herald", message: "Your first notification" },
    sendTo: { recipients: ["first-user"] },
  };
  // Double quotes: a placeholder such as $HERALD_API_SECRET expands in the shell.
  const json = JSON.stringify(body, null, 2).replace(/'/g, "'\\''");
  const curl = [
    `curl -X POST ${origin}/v3/notifications \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H "X-SERVICE-API-KEY: ${apiKey}" \\`,
    `  -H "X-SERVICE-API-SECRET: ${secret}" \\`,
    `  -d '${json}'`,
  ].join("\n");
  const node = [
    `// Node 18+ (fetch is built in)`,
    `const res = await fetch("${origin}/v3/notifications", {`,
    `  method: "POST",`,
    `  headers: {`,
    `    "Content-Type": "application/json",`,
    `    "X-SERVICE-API-KEY": "${apiKey}",`,
    `    "X-SERVICE-API-SECRET": ${secret.startsWith("$") ? "process.env.HERALD_API_SECRET" : `"${secret}"`},`,
    `  },`,
    `  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, "\n  ")}),`,
    `});`,
    `console.log(res.status, await res.json()); // 202 { requestId: "…" }`,
  ].join("\n");
  return { curl, node };
}
