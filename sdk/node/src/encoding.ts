// Byte helpers on web standards only (TextEncoder, btoa, atob, WebCrypto), so the package
// runs in Node 18+ and in edge runtimes alike.

const utf8 = new TextEncoder();

/** The UTF-8 bytes of s. */
export function utf8Bytes(s: string): Uint8Array<ArrayBuffer> {
  return utf8.encode(s) as Uint8Array<ArrayBuffer>;
}

/** Standard base64 (with padding). */
export function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** Base64url without padding (JWT). */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes standard base64 (whitespace ignored); throws on other characters. */
export function fromBase64(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/\s+/g, ""));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

let cached: Promise<Crypto> | undefined;

/**
 * The WebCrypto implementation: globalThis.crypto (Node 19+, Deno, Bun, browsers, edge
 * runtimes), or node:crypto's webcrypto on Node 18, loaded only there.
 */
export function webCrypto(): Promise<Crypto> {
  if (!cached) {
    const g = (globalThis as { crypto?: Crypto }).crypto;
    if (g?.subtle) {
      cached = Promise.resolve(g);
    } else {
      // A computed specifier keeps bundlers for edge runtimes from resolving it.
      const mod = "node:" + "crypto";
      cached = import(mod).then((m: { webcrypto?: Crypto }) => {
        if (!m.webcrypto?.subtle) throw new Error("herald: no WebCrypto in this runtime");
        return m.webcrypto;
      });
    }
  }
  return cached;
}

/** A random UUID (version 4), for Idempotency-Key. */
export async function randomUUID(): Promise<string> {
  const c = await webCrypto();
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = utf8Bytes(a);
  const y = utf8Bytes(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** HMAC-SHA256 of data under key. */
export async function hmacSHA256(key: BufferSource, data: BufferSource): Promise<Uint8Array> {
  const c = await webCrypto();
  const k = await c.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await c.subtle.sign("HMAC", k, data));
}
