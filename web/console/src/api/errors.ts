// Errors of the API as the screens show them (no DOM, no network: unit-tested).

/** ApiError is an error answer of the API: its status and its messages. */
export class ApiError extends Error {
  constructor(
    public status: number,
    public messages: string[],
  ) {
    super(messages.join("; ") || `request failed (${status})`);
  }
}

/**
 * fieldErrors files each message under the field it names (its first word, as the API
 * writes "email must be an email address"); the rest go under "".
 */
export function fieldErrors(err: unknown, fields: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const messages = err instanceof ApiError ? err.messages : err instanceof Error ? [err.message] : [];
  if (err instanceof ApiError && messages.length === 0) messages.push(err.message);
  for (const m of messages) {
    const f = fields.find((f) => m === f || m.startsWith(f + " ") || m.startsWith(f + ":") || m.startsWith(f + "["));
    (out[f ?? ""] ??= []).push(m);
  }
  return out;
}
