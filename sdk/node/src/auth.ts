import { HeraldError } from "./errors.js";
import { base64, base64url, fromBase64, hmacSHA256, utf8Bytes, webCrypto } from "./encoding.js";

/**
 * A WebCrypto CryptoKey, described by its shape so that projects without the DOM lib (a
 * Node backend with only @types/node) can name it.
 */
export interface WebCryptoKey {
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: object;
  readonly usages: readonly string[];
}

/** An RSA private key: PEM text (PKCS #1 or PKCS #8, as the console hands it out) or a key from importPrivateKey. */
export type SigningKey = string | WebCryptoKey;

const rs256 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

/**
 * Imports an RSA private key in PEM for RS256 signing. The console hands out PKCS #1
 * ("BEGIN RSA PRIVATE KEY"); PKCS #8 ("BEGIN PRIVATE KEY") works too. Import once and
 * reuse the CryptoKey: importing costs more than signing.
 */
export async function importPrivateKey(pem: string): Promise<WebCryptoKey> {
  const m = /-----BEGIN (RSA )?PRIVATE KEY-----([\s\S]+?)-----END (RSA )?PRIVATE KEY-----/.exec(pem);
  if (!m || m[1] !== m[3]) throw new HeraldError("herald: the private key is not an RSA private key in PEM");
  let der: Uint8Array<ArrayBuffer>;
  try {
    der = fromBase64(m[2]!);
  } catch {
    throw new HeraldError("herald: the private key's PEM body is not base64");
  }
  if (m[1]) der = pkcs1ToPkcs8(der);
  const c = await webCrypto();
  try {
    return await c.subtle.importKey("pkcs8", der, rs256, false, ["sign"]);
  } catch (e) {
    throw new HeraldError("herald: the private key is not a valid RSA key", { cause: e });
  }
}

/** The options of signUserToken. */
export interface UserTokenOptions {
  /** The app's private key (console → app → secure mode). */
  privateKey: SigningKey;
  /** The user identifier (the token's sub). */
  user: string;
  /** The app's API key (the apiKey claim, naming the app when no key header is sent). */
  apiKey?: string;
  /** Lifetime in seconds (exp = now + expiresIn); must be positive. Keep it short and sign anew. */
  expiresIn: number;
  /** The signing time (default now); for tests. */
  now?: Date;
}

/**
 * Signs a user JWT for secure mode: RS256 with the app's private key, claims sub (the user),
 * apiKey, iat and exp. Herald refuses a token without exp unless the app allows long-lived
 * tokens, so expiresIn is required.
 */
export async function signUserToken(o: UserTokenOptions): Promise<string> {
  if (!o.user) throw new HeraldError("herald: a user token needs a user identifier");
  if (!(o.expiresIn > 0)) throw new HeraldError("herald: a user token needs a positive lifetime (exp)");
  const key = typeof o.privateKey === "string" ? await importPrivateKey(o.privateKey) : o.privateKey;
  const now = Math.floor((o.now ?? new Date()).getTime() / 1000);
  const claims: Record<string, unknown> = { sub: o.user, iat: now, exp: now + Math.ceil(o.expiresIn) };
  if (o.apiKey) claims.apiKey = o.apiKey;
  const signing =
    base64url(utf8Bytes(JSON.stringify({ alg: "RS256", typ: "JWT" }))) + "." + base64url(utf8Bytes(JSON.stringify(claims)));
  const c = await webCrypto();
  const sig = await c.subtle.sign(rs256, key as CryptoKey, utf8Bytes(signing));
  return signing + "." + base64url(new Uint8Array(sig));
}

/**
 * The deprecated HMAC user signature (the …USER-SIGNATURE header) for apps that turn HMAC
 * on: base64(HMAC-SHA256(API secret, user identifier)). Prefer secure mode (signUserToken).
 */
export async function userSignature(apiSecret: string, userIdentifier: string): Promise<string> {
  return base64(await hmacSHA256(utf8Bytes(apiSecret), utf8Bytes(userIdentifier)));
}

// rsaEncryption AlgorithmIdentifier: SEQUENCE { OID 1.2.840.113549.1.1.1, NULL }.
const rsaAlgorithm = [0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00];

/** Wraps a PKCS #1 RSAPrivateKey in a PKCS #8 PrivateKeyInfo (WebCrypto imports only the latter). */
function pkcs1ToPkcs8(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  const octet = [0x04, ...derLength(pkcs1.length)];
  const bodyLen = 3 + rsaAlgorithm.length + octet.length + pkcs1.length;
  const head = [0x30, ...derLength(bodyLen), 0x02, 0x01, 0x00, ...rsaAlgorithm, ...octet];
  const out = new Uint8Array(head.length + pkcs1.length);
  out.set(head);
  out.set(pkcs1, head.length);
  return out;
}

function derLength(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return [0x80 | bytes.length, ...bytes];
}
