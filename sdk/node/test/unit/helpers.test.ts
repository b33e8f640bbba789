import assert from "node:assert/strict";
import { createHmac, createVerify, generateKeyPairSync } from "node:crypto";
import { describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { importPrivateKey, pages, signUserToken, signWebhook, userSignature, verifyWebhook, WebhookVerificationError } from "@heraldhq/node";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const pkcs1 = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
const pkcs8 = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

function decode(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>;
}

describe("signUserToken", () => {
  for (const [name, pem] of [["PKCS #1 (as the console hands it out)", pkcs1], ["PKCS #8", pkcs8]] as const) {
    it(`signs RS256 with sub, apiKey, iat and exp from a ${name} key`, async () => {
      const now = new Date("2030-01-01T00:00:00Z");
      const tok = await signUserToken({ privateKey: pem, apiKey: "app-key", user: "alice", expiresIn: 300, now });
      const [h, p, s] = tok.split(".");
      assert.deepEqual(decode(h!), { alg: "RS256", typ: "JWT" });
      assert.deepEqual(decode(p!), { sub: "alice", apiKey: "app-key", iat: 1893456000, exp: 1893456300 });
      const ok = createVerify("RSA-SHA256").update(`${h}.${p}`).verify(publicKey, Buffer.from(s!, "base64url"));
      assert.ok(ok, "the signature verifies with the public key");
    });
  }

  it("refuses a token without a lifetime or a user, and a key that is not RSA PEM", async () => {
    await assert.rejects(signUserToken({ privateKey: pkcs8, user: "a", expiresIn: 0 }), /lifetime/);
    await assert.rejects(signUserToken({ privateKey: pkcs8, user: "", expiresIn: 60 }), /user/);
    await assert.rejects(importPrivateKey("not a key"), /PEM/);
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    await assert.rejects(importPrivateKey(ec), /RSA/);
  });

  it("accepts an imported CryptoKey", async () => {
    const key = await importPrivateKey(pkcs1);
    const tok = await signUserToken({ privateKey: key, user: "bob", expiresIn: 60 });
    assert.equal(decode(tok.split(".")[1]!).sub, "bob");
  });
});

describe("userSignature", () => {
  it("is base64(HMAC-SHA256(secret, user))", async () => {
    const want = createHmac("sha256", "s3cret").update("alice").digest("base64");
    assert.equal(await userSignature("s3cret", "alice"), want);
  });
});

describe("webhooks (Standard Webhooks)", () => {
  const secret = "whsec_" + Buffer.from("a 32 byte secret for the tests!!").toString("base64");
  const payload = JSON.stringify({ type: "message.delivered", data: { id: 1, text: "héllo" } });
  const id = "msg_2abc";

  it("matches the specification's published test vector", async () => {
    const vector = {
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
      payload: '{"test": 2432232314}',
      signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };
    assert.equal(await signWebhook(vector.secret, vector.id, vector.timestamp, vector.payload), vector.signature);
    const headers = { "webhook-id": vector.id, "webhook-timestamp": String(vector.timestamp), "webhook-signature": vector.signature };
    assert.deepEqual(await verifyWebhook(vector.secret, vector.payload, headers, { now: new Date(vector.timestamp * 1000) }), { test: 2432232314 });
  });

  it("verifies what the standardwebhooks package signs", async () => {
    const wh = new Webhook(secret);
    const at = new Date();
    const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": wh.sign(id, at, payload) };
    assert.deepEqual(await verifyWebhook(secret, payload, headers), JSON.parse(payload));
    // As bytes, and from a fetch Headers object.
    assert.deepEqual(await verifyWebhook(secret, new TextEncoder().encode(payload), new Headers(headers)), JSON.parse(payload));
  });

  it("signs what the standardwebhooks package verifies", async () => {
    const at = new Date();
    const sig = await signWebhook(secret, id, at, payload);
    const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": sig };
    assert.deepEqual(new Webhook(secret).verify(payload, headers), JSON.parse(payload));
  });

  it("accepts one matching signature among several (key rotation)", async () => {
    const at = new Date();
    const good = await signWebhook(secret, id, at, payload);
    const other = await signWebhook("whsec_" + Buffer.from("another secret").toString("base64"), id, at, payload);
    const headers = { "Webhook-Id": id, "Webhook-Timestamp": String(Math.floor(at.getTime() / 1000)), "Webhook-Signature": `v2,abc ${other} ${good}` };
    await verifyWebhook(secret, payload, headers);
  });

  it("refuses a changed payload, another secret, a stale or future timestamp, missing headers", async () => {
    const at = new Date();
    const ts = String(Math.floor(at.getTime() / 1000));
    const sig = await signWebhook(secret, id, at, payload);
    const h = { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": sig };
    const refuse = (p: Promise<unknown>, re: RegExp) => assert.rejects(p, (e: unknown) => e instanceof WebhookVerificationError && re.test(e.message));
    await refuse(verifyWebhook(secret, payload + " ", h), /no webhook signature/);
    await refuse(verifyWebhook("whsec_" + Buffer.from("wrong").toString("base64"), payload, h), /no webhook signature/);
    await refuse(verifyWebhook(secret, payload, { ...h, "webhook-id": "msg_other" }), /no webhook signature/);
    await refuse(verifyWebhook(secret, payload, h, { now: new Date(at.getTime() + 301_000) }), /too old/);
    await refuse(verifyWebhook(secret, payload, h, { now: new Date(at.getTime() - 301_000) }), /future/);
    await verifyWebhook(secret, payload, h, { now: new Date(at.getTime() + 299_000) });
    await refuse(verifyWebhook(secret, payload, { "webhook-id": id, "webhook-timestamp": ts }), /lacks/);
    await refuse(verifyWebhook(secret, payload, { ...h, "webhook-timestamp": "soon" }), /number/);
    await refuse(verifyWebhook("whsec_!!", payload, h), /base64/);
    // A stale webhook signed by the official package is refused by both.
    const old = new Date(Date.now() - 600_000);
    const oldH = { "webhook-id": id, "webhook-timestamp": String(Math.floor(old.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, old, payload) };
    assert.throws(() => new Webhook(secret).verify(payload, oldH));
    await refuse(verifyWebhook(secret, payload, oldH), /too old/);
  });
});

describe("pages", () => {
  it("walks pages until one says no more, fetching lazily", async () => {
    const fetched: number[] = [];
    const it = pages(async (i) => {
      fetched.push(i);
      return { items: [i * 2, i * 2 + 1], more: i < 2 };
    });
    const got: number[] = [];
    for await (const n of it) {
      got.push(n);
      if (n === 2) break;
    }
    assert.deepEqual(got, [0, 1, 2]);
    assert.deepEqual(fetched, [0, 1], "the third page was never fetched");
    const all: number[] = [];
    for await (const n of pages(async (i) => ({ items: [i], more: i < 4 }))) all.push(n);
    assert.deepEqual(all, [0, 1, 2, 3, 4]);
  });
});
