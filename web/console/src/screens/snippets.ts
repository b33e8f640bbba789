// The "send your first notification" snippets (pure). The curl command is unit-tested by
// running it (test/unit/snippets.test.ts); every snippet, as this function writes it, is
// run against a real stack with Herald's own SDKs by integration/sdk/snippets_test.go,
// which checks that each send reaches the user's inbox.

/** SnippetLanguage names one language of the Get started screen. */
export type SnippetLanguage = "curl" | "go" | "node" | "python";

/** Snippet is one way to send the first notification, as the Get started screen shows it. */
export interface Snippet {
  /** The tab's name. */
  label: string;
  /** The terminal command that installs the SDK (none for curl). */
  install?: string;
  /** The file the program is saved as (none for curl, which is typed in a terminal). */
  file?: string;
  /** The program, or the command for curl. */
  code: string;
  /** The terminal command that runs the saved file (none for curl). */
  run?: string;
}

/** The order of the Get started screen's tabs. */
export const snippetLanguages: readonly SnippetLanguage[] = ["curl", "go", "node", "python"];

/** The Go SDK's module path (sdk/go/go.mod). */
export const goModule = "github.com/heraldhq/herald/sdk/go";

const title = "Welcome to Herald";
const message = "Your first notification";
const recipient = "first-user";

/** str is a double-quoted string literal, valid in Go, JavaScript and Python alike. */
const str = (s: string) => JSON.stringify(s);

/**
 * snippets returns the ways to send one in-app notification to first-user: a curl command
 * and programs using the Go, Node.js and Python SDKs. secret is the app's API secret, or
 * the placeholder "$HERALD_API_SECRET" when the viewer may not see it: then each program
 * leaves the secret to the SDK, which reads HERALD_API_SECRET from the environment (and
 * curl's shell expands the placeholder).
 */
export function snippets(origin: string, apiKey: string, secret: string): Record<SnippetLanguage, Snippet> {
  const hidden = secret.startsWith("$");
  const body = {
    notification: { title, message },
    sendTo: { recipients: [recipient] },
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

  const go = [
    `package main`,
    ``,
    `import (`,
    `\t"context"`,
    `\t"fmt"`,
    `\t"log"`,
    ``,
    `\therald "${goModule}"`,
    `)`,
    ``,
    `func main() {`,
    `\tc, err := herald.NewClient(`,
    `\t\therald.WithBaseURL(${str(origin)}),`,
    `\t\therald.WithAPIKey(${str(apiKey)}),`,
    hidden ? `\t\t// The API secret: from HERALD_API_SECRET.` : `\t\therald.WithAPISecret(${str(secret)}),`,
    `\t)`,
    `\tif err != nil {`,
    `\t\tlog.Fatal(err)`,
    `\t}`,
    `\tres, err := c.Send(context.Background(), herald.SendRequest{`,
    `\t\tNotification: &herald.SendRequestNotification{`,
    `\t\t\tTitle:   ${str(title)},`,
    `\t\t\tMessage: ${str(message)},`,
    `\t\t},`,
    `\t\tSendTo: &herald.SendRequestSendTo{Recipients: []any{${str(recipient)}}},`,
    `\t})`,
    `\tif err != nil {`,
    `\t\tlog.Fatal(err)`,
    `\t}`,
    `\tfmt.Println("accepted", res.RequestID)`,
    `}`,
  ].join("\n");

  const node = [
    `// Node 18+`,
    `import { Herald } from "@heraldhq/node";`,
    ``,
    `const herald = new Herald({`,
    `  baseUrl: ${str(origin)},`,
    `  apiKey: ${str(apiKey)},`,
    hidden ? `  // The API secret: from HERALD_API_SECRET.` : `  apiSecret: ${str(secret)},`,
    `});`,
    `const { requestId } = await herald.send({`,
    `  notification: { title: ${str(title)}, message: ${str(message)} },`,
    `  sendTo: { recipients: [${str(recipient)}] },`,
    `});`,
    `console.log("accepted", requestId);`,
  ].join("\n");

  const python = [
    `import herald`,
    ``,
    `client = herald.Client(`,
    `    base_url=${str(origin)},`,
    `    api_key=${str(apiKey)},`,
    hidden ? `    # The API secret: from HERALD_API_SECRET.` : `    api_secret=${str(secret)},`,
    `)`,
    `res = client.send(`,
    `    {"title": ${str(title)}, "message": ${str(message)}},`,
    `    recipients=[${str(recipient)}],`,
    `)`,
    `print("accepted", res["requestId"])`,
  ].join("\n");

  return {
    curl: { label: "curl", code: curl },
    go: {
      label: "Go",
      install: `go mod init first-send && go get ${goModule}`,
      file: "main.go",
      code: go,
      run: "go run .",
    },
    node: { label: "Node.js", install: "npm install @heraldhq/node", file: "send.mjs", code: node, run: "node send.mjs" },
    python: { label: "Python", install: "pip install herald-sdk", file: "send.py", code: python, run: "python3 send.py" },
  };
}
