import base64
import json
import unittest

import herald
from herald._rsa import RSAPrivateKey

# RFC 7515 (JSON Web Signature), Appendix A.2: the RSA key and the RS256 signature of the
# example JWS. PKCS #1 v1.5 signatures are deterministic, so signing the same input with the
# same key must reproduce the RFC's signature byte for byte.
RFC_N = ("ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-"
         "SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-"
         "UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2et"
         "hFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ")
RFC_D = ("Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui39"
         "5IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcop"
         "V_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQ"
         "yGWSeWjnczT0QU91p1DhOVRuOopznQ")
RFC_P = ("4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7"
         "ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc")
RFC_Q = ("uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wD"
         "mpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc")
RFC_SIGNING_INPUT = ("eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS"
                     "9pc19yb290Ijp0cnVlfQ")
RFC_SIGNATURE = ("cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJd"
                 "bF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN"
                 "9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXL"
                 "IhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw")


def b64url_int(s: str) -> int:
    return int.from_bytes(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)), "big")


def b64url_dec(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


# A minimal DER writer, independent of the SDK's reader, to build the PEM files.
def der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + der_len(len(content)) + content


def der_int(v: int) -> bytes:
    return der(0x02, v.to_bytes(v.bit_length() // 8 + 1, "big"))


def pem(label: str, body: bytes) -> str:
    b = base64.b64encode(body).decode()
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    return "-----BEGIN %s-----\n%s\n-----END %s-----\n" % (label, "\n".join(lines), label)


def rfc_key_pems():
    n, d, p, q, e = (b64url_int(RFC_N), b64url_int(RFC_D), b64url_int(RFC_P), b64url_int(RFC_Q), 65537)
    fields = [0, n, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p)]
    pkcs1 = der(0x30, b"".join(der_int(v) for v in fields))
    alg = der(0x30, der(0x06, bytes.fromhex("2a864886f70d010101")) + der(0x05, b""))
    pkcs8 = der(0x30, der_int(0) + alg + der(0x04, pkcs1))
    return pem("RSA PRIVATE KEY", pkcs1), pem("PRIVATE KEY", pkcs8), n, e


class RS256(unittest.TestCase):
    def test_reproduces_the_rfc_7515_signature_from_pkcs1_and_pkcs8(self):
        pkcs1, pkcs8, n, e = rfc_key_pems()
        for label, text in (("PKCS #1", pkcs1), ("PKCS #8", pkcs8)):
            with self.subTest(label):
                key = herald.parse_private_key(text)
                self.assertEqual((key.n, key.e), (n, e))
                sig = key.sign_rs256(RFC_SIGNING_INPUT.encode())
                self.assertEqual(base64.urlsafe_b64encode(sig).rstrip(b"=").decode(), RFC_SIGNATURE)
                # Bytes and a PEM with surrounding text work too.
                self.assertEqual(herald.parse_private_key(("note\n" + text).encode()).n, n)

    def test_user_token_claims_and_signature(self):
        pkcs1, _, n, e = rfc_key_pems()
        tok = herald.sign_user_token(pkcs1, "pk_live", "alice", ttl=300, now=1_700_000_000)
        h, c, s = tok.split(".")
        self.assertEqual(json.loads(b64url_dec(h)), {"alg": "RS256", "typ": "JWT"})
        self.assertEqual(json.loads(b64url_dec(c)),
                         {"sub": "alice", "iat": 1_700_000_000, "exp": 1_700_000_300, "apiKey": "pk_live"})
        # Verify with the public key: s^e mod n is the PKCS #1 v1.5 encoding of SHA-256(h.c).
        import hashlib

        em = pow(int.from_bytes(b64url_dec(s), "big"), e, n).to_bytes(256, "big")
        digest = hashlib.sha256((h + "." + c).encode()).digest()
        self.assertTrue(em.startswith(b"\x00\x01\xff"))
        self.assertTrue(em.endswith(bytes.fromhex("3031300d060960864801650304020105000420") + digest))

    def test_user_token_needs_an_expiry_and_a_user(self):
        pkcs1, _, _, _ = rfc_key_pems()
        with self.assertRaises(ValueError):
            herald.sign_user_token(pkcs1, "k", "alice", ttl=0)
        with self.assertRaises(ValueError):
            herald.sign_user_token(pkcs1, "k", "", ttl=60)

    def test_bad_keys_are_refused(self):
        pkcs1, pkcs8, _, _ = rfc_key_pems()
        bad = [
            "not a key",
            pem("PUBLIC KEY", b"\x30\x00"),
            pem("RSA PRIVATE KEY", b"\x30\x03\x02\x01\x00"),  # too few fields
            pem("RSA PRIVATE KEY", b"\x30\x85\x00"),  # bad length
            pem("PRIVATE KEY", der(0x30, der_int(0) + der(0x30, der(0x06, b"\x2a\x86\x48\xce\x3d\x02\x01"))
                                    + der(0x04, b"\x30\x00"))),  # an EC key
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n",
            pkcs1.replace("A", "B", 1)[:-40] + "\n-----END RSA PRIVATE KEY-----\n",  # truncated
        ]
        for text in bad:
            with self.subTest(text=text[:40]):
                with self.assertRaises(herald.KeyFormatError):
                    herald.parse_private_key(text)

    def test_repr_hides_the_private_key(self):
        pkcs1, _, _, _ = rfc_key_pems()
        key = herald.parse_private_key(pkcs1)
        self.assertIsInstance(key, RSAPrivateKey)
        self.assertNotIn(str(key.d), repr(key))
        self.assertEqual(repr(key), "RSAPrivateKey(bits=2048, e=65537)")

    def test_user_signature(self):
        # The Go SDK's value for the same inputs (sdk/go client_test.go).
        self.assertEqual(herald.user_signature("secret", "alice"), "Q2DGe8gQJRFARFeNfE6ODwL9DK6Z8i1gM5Do+dyYiPg=")


if __name__ == "__main__":
    unittest.main()
