#!/usr/bin/env python3
"""The hybrid KEMs computed independently with python3 `cryptography`
(OpenSSL 4.0 inside: its own ML-KEM, X25519 and ECDH), for hybrid_kem_test:

  hybrid_interop.py check                  exit 0 if cryptography has what is needed, else 77
  hybrid_interop.py encap GROUP PUB        -> "CT SS"      (encapsulate to our public key)
  hybrid_interop.py keygen GROUP           -> "PUB SECRET" (SECRET: ML-KEM seed, classical key)
  hybrid_interop.py decap GROUP SECRET CT  -> "SS"

All values hex. Layouts (draft-ietf-tls-ecdhe-mlkem, OpenSSL 3.5): X25519MLKEM768
= ML-KEM-768 part first, then X25519, in key share, ciphertext and secret;
SecP256r1MLKEM768 / SecP384r1MLKEM1024 = uncompressed EC point (secret: ECDH x)
first, then ML-KEM-768 / ML-KEM-1024. Written from the draft, not from the
provider's code.
"""
import sys

try:
    from cryptography.hazmat.primitives.asymmetric import ec, mlkem, x25519
    from cryptography.hazmat.primitives import serialization
except ImportError:  # no cryptography, or one without ML-KEM
    mlkem = None

# group -> (ML-KEM classes, ek bytes, ct bytes, classical, classical share bytes, ML-KEM first)
GROUPS = {}
if mlkem is not None:
    GROUPS = {
        "X25519MLKEM768": (mlkem.MLKEM768PrivateKey, mlkem.MLKEM768PublicKey, 1184, 1088, "x25519", 32, True),
        "SecP256r1MLKEM768": (mlkem.MLKEM768PrivateKey, mlkem.MLKEM768PublicKey, 1184, 1088, ec.SECP256R1(), 65, False),
        "SecP384r1MLKEM1024": (mlkem.MLKEM1024PrivateKey, mlkem.MLKEM1024PublicKey, 1568, 1568, ec.SECP384R1(), 97, False),
    }


def split(blob, first_len, mlkem_first, mlkem_len):
    """(ML-KEM part, classical part) of a concatenation."""
    if mlkem_first:
        return blob[:mlkem_len], blob[mlkem_len:]
    return blob[first_len:], blob[:first_len]


def join(m, c, mlkem_first):
    return m + c if mlkem_first else c + m


def classical_pub_bytes(curve, key):
    if curve == "x25519":
        return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return key.public_key().public_bytes(serialization.Encoding.X962,
                                         serialization.PublicFormat.UncompressedPoint)


def classical_new(curve):
    return x25519.X25519PrivateKey.generate() if curve == "x25519" else ec.generate_private_key(curve)


def classical_exchange(curve, own, peer_bytes):
    if curve == "x25519":
        return own.exchange(x25519.X25519PublicKey.from_public_bytes(peer_bytes))
    peer = ec.EllipticCurvePublicKey.from_encoded_point(curve, peer_bytes)
    return own.exchange(ec.ECDH(), peer)


def main(argv):
    if argv[1] == "check":
        return 0 if GROUPS else 77
    group = argv[2]
    priv_cls, pub_cls, ek_len, ct_len, curve, cl_len, mfirst = GROUPS[group]
    if argv[1] == "encap":
        pub = bytes.fromhex(argv[3])
        assert len(pub) == ek_len + cl_len, "public key length"
        ek, cl = split(pub, cl_len, mfirst, ek_len)
        ss_m, ct_m = pub_cls.from_public_bytes(ek).encapsulate()
        eph = classical_new(curve)
        ss_c = classical_exchange(curve, eph, cl)
        ct = join(ct_m, classical_pub_bytes(curve, eph), mfirst)
        print(ct.hex(), join(ss_m, ss_c, mfirst).hex())
    elif argv[1] == "keygen":
        m = priv_cls.generate()
        c = classical_new(curve)
        ek = m.public_key().public_bytes_raw()
        pub = join(ek, classical_pub_bytes(curve, c), mfirst)
        secret = m.private_bytes_raw() + c.private_bytes(serialization.Encoding.DER,
                                                         serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption())
        print(pub.hex(), secret.hex())
    elif argv[1] == "decap":
        secret, ct = bytes.fromhex(argv[3]), bytes.fromhex(argv[4])
        m = priv_cls.from_seed_bytes(secret[:64])
        c = serialization.load_der_private_key(secret[64:], password=None)
        assert len(ct) == ct_len + cl_len, "ciphertext length"
        ct_m, ct_c = split(ct, cl_len, mfirst, ct_len)
        print(join(m.decapsulate(ct_m), classical_exchange(curve, c, ct_c), mfirst).hex())
    else:
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
