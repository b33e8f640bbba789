"""RSA private keys and RS256 (RSASSA-PKCS1-v1_5 with SHA-256) in pure Python.

The standard library has no RSA, so this reads a PEM private key (PKCS #1 "RSA PRIVATE
KEY" or PKCS #8 "PRIVATE KEY", unencrypted) with a minimal DER reader and signs with
Python integers. Signing uses the CRT parameters, RSA blinding (a random r, so the time of
pow() does not follow the message) and checks the signature against the public key before
returning it (a miscomputed CRT signature would leak the key).
"""

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import List, Tuple, Union

from ._errors import KeyFormatError

# DigestInfo prefix of SHA-256 (RFC 8017 §9.2, note 1).
_SHA256_PREFIX = bytes.fromhex("3031300d060960864801650304020105000420")
# OID 1.2.840.113549.1.1.1 (rsaEncryption), DER content bytes.
_RSA_OID = bytes.fromhex("2a864886f70d010101")


@dataclass(frozen=True)
class RSAPrivateKey:
    """An RSA private key (PKCS #1 fields). repr() hides the private parts."""

    n: int
    e: int
    d: int
    p: int
    q: int
    dp: int
    dq: int
    qinv: int

    @property
    def size(self) -> int:
        """The modulus length in bytes."""
        return (self.n.bit_length() + 7) // 8

    def __repr__(self) -> str:
        return "RSAPrivateKey(bits=%d, e=%d)" % (self.n.bit_length(), self.e)

    def sign_rs256(self, message: bytes) -> bytes:
        """The RSASSA-PKCS1-v1_5 SHA-256 signature of message."""
        k = self.size
        t = _SHA256_PREFIX + hashlib.sha256(message).digest()
        if k < len(t) + 11:
            raise ValueError("herald: the RSA key is too short for SHA-256 signatures")
        em = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
        m = int.from_bytes(em, "big")
        # Blinding: sign m*r^e, then divide by r.
        while True:
            r = secrets.randbelow(self.n - 2) + 2
            try:
                r_inv = pow(r, -1, self.n)
                break
            except ValueError:  # r shares a factor with n: (astronomically unlikely) retry
                continue
        c = (m * pow(r, self.e, self.n)) % self.n
        m1 = pow(c, self.dp, self.p)
        m2 = pow(c, self.dq, self.q)
        h = (self.qinv * (m1 - m2)) % self.p
        s = ((m2 + h * self.q) * r_inv) % self.n
        if pow(s, self.e, self.n) != m:
            raise ValueError("herald: RSA signature check failed (inconsistent key)")
        return s.to_bytes(k, "big")


# -- DER ------------------------------------------------------------------------------


def _tlv(data: bytes, pos: int) -> Tuple[int, bytes, int]:
    """Read one DER element at pos: (tag, content, next position)."""
    if pos + 2 > len(data):
        raise KeyFormatError("herald: truncated DER")
    tag = data[pos]
    length = data[pos + 1]
    pos += 2
    if length & 0x80:
        n = length & 0x7F
        if n == 0 or n > 4 or pos + n > len(data):
            raise KeyFormatError("herald: bad DER length")
        length = int.from_bytes(data[pos:pos + n], "big")
        pos += n
    if pos + length > len(data):
        raise KeyFormatError("herald: truncated DER")
    return tag, data[pos:pos + length], pos + length


def _sequence(data: bytes) -> List[Tuple[int, bytes]]:
    """The elements of a DER SEQUENCE that is all of data."""
    tag, content, end = _tlv(data, 0)
    if tag != 0x30 or end != len(data):
        raise KeyFormatError("herald: expected a DER SEQUENCE")
    out = []
    pos = 0
    while pos < len(content):
        t, c, pos = _tlv(content, pos)
        out.append((t, c))
    return out


def _integer(el: Tuple[int, bytes]) -> int:
    tag, content = el
    if tag != 0x02 or not content:
        raise KeyFormatError("herald: expected a DER INTEGER")
    return int.from_bytes(content, "big", signed=True)


def _pkcs1(der: bytes) -> RSAPrivateKey:
    els = _sequence(der)
    if len(els) < 9:
        raise KeyFormatError("herald: not a PKCS #1 RSA private key")
    version, n, e, d, p, q, dp, dq, qinv = (_integer(x) for x in els[:9])
    if version not in (0, 1) or min(n, e, d, p, q) <= 0:
        raise KeyFormatError("herald: not a PKCS #1 RSA private key")
    if version == 1:
        raise KeyFormatError("herald: multi-prime RSA keys are not supported")
    if p * q != n:
        raise KeyFormatError("herald: inconsistent RSA key (p*q != n)")
    return RSAPrivateKey(n=n, e=e, d=d, p=p, q=q, dp=dp, dq=dq, qinv=qinv)


def _pkcs8(der: bytes) -> RSAPrivateKey:
    els = _sequence(der)
    if len(els) < 3 or _integer(els[0]) not in (0, 1) or els[1][0] != 0x30 or els[2][0] != 0x04:
        raise KeyFormatError("herald: not a PKCS #8 private key")
    alg = _sequence(bytes([0x30]) + _der_len(len(els[1][1])) + els[1][1])
    if not alg or alg[0][0] != 0x06 or alg[0][1] != _RSA_OID:
        raise KeyFormatError("herald: the private key is not an RSA key")
    return _pkcs1(els[2][1])


def _der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


_PEM = re.compile(r"-----BEGIN ([A-Z0-9 ]+)-----\s*(.*?)\s*-----END \1-----", re.S)


def parse_private_key(pem: Union[str, bytes]) -> RSAPrivateKey:
    """Read an RSA private key in PEM: PKCS #1 ("RSA PRIVATE KEY", as the console hands it
    out) or PKCS #8 ("PRIVATE KEY"), unencrypted."""
    if isinstance(pem, bytes):
        pem = pem.decode("ascii", "replace")
    m = _PEM.search(pem)
    if not m:
        raise KeyFormatError("herald: the private key is not PEM")
    label, body = m.group(1), m.group(2)
    if "Proc-Type" in body or label == "ENCRYPTED PRIVATE KEY":
        raise KeyFormatError("herald: encrypted private keys are not supported; decrypt it first")
    try:
        der = base64.b64decode("".join(body.split()), validate=True)
    except ValueError as e:
        raise KeyFormatError("herald: the PEM body is not base64") from e
    if label == "RSA PRIVATE KEY":
        return _pkcs1(der)
    if label == "PRIVATE KEY":
        return _pkcs8(der)
    raise KeyFormatError("herald: PEM block %r is not a private key" % label)
