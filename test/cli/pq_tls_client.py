#!/usr/bin/env python3
"""TLS clients for test/cli/pq_tls.sh (python3's ssl module: the system
libssl, configured only through OPENSSL_CONF):

  pq_tls_client.py port                     print a free loopback port
  pq_tls_client.py get PORT                 HTTPS GET / on 127.0.0.1:PORT, print the body
  pq_tls_client.py load PORT N              N concurrent handshakes + GET, all must succeed
  pq_tls_client.py badshare PORT ID HEX     a hand-built TLS 1.3 ClientHello offering only
                                            group ID with key share HEX: print the server's
                                            answer ("alert <level> <description>", "closed")
"""
import os
import socket
import ssl
import struct
import sys
import threading

TIMEOUT = 20


def context():
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    return ctx


def get(port, ctx=None):
    ctx = ctx or context()
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as raw:
        with ctx.wrap_socket(raw) as s:
            s.sendall(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
    return data.decode("latin-1")


def load(port, n):
    ctx = context()
    errors = []

    def one():
        try:
            body = get(port, ctx)
            if "200" not in body.split("\n", 1)[0] and "<HTML>" not in body:
                errors.append("unexpected answer: " + body[:80])
        except Exception as e:  # noqa: BLE001 -- every failure is reported
            errors.append(repr(e))

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 3)
    if errors or any(t.is_alive() for t in threads):
        print(f"{len(errors)} of {n} failed: {errors[:3]}")
        return 1
    print(f"{n} handshakes ok")
    return 0


def ext(t, body):
    return struct.pack(">HH", t, len(body)) + body


def client_hello(group, share):
    """A minimal TLS 1.3 ClientHello: one cipher suite, one group, one share."""
    exts = ext(43, b"\x02\x03\x04")  # supported_versions: TLS 1.3
    exts += ext(10, struct.pack(">HH", 2, group))  # supported_groups
    exts += ext(13, struct.pack(">H", 8) + bytes.fromhex("0403080404010503"))  # signature_algorithms
    ks = struct.pack(">HH", group, len(share)) + share
    exts += ext(51, struct.pack(">H", len(ks)) + ks)  # key_share
    body = b"\x03\x03" + os.urandom(32) + b"\x20" + os.urandom(32)
    body += b"\x00\x02\x13\x01" + b"\x01\x00"  # TLS_AES_128_GCM_SHA256, no compression
    body += struct.pack(">H", len(exts)) + exts
    hs = b"\x01" + struct.pack(">I", len(body))[1:] + body
    return b"\x16\x03\x01" + struct.pack(">H", len(hs)) + hs


def badshare(port, group, share):
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:
        s.sendall(client_hello(group, share))
        data = b""
        try:
            while len(data) < 7:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    if len(data) >= 7 and data[0] == 21:
        return f"alert {data[5]} {data[6]}"
    if len(data) >= 6 and data[0] == 22 and data[5] == 2:
        return "server_hello"
    return "closed" if not data else "other " + data[:8].hex()


def main(argv):
    if argv[1] == "port":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            print(s.getsockname()[1])
        return 0
    port = int(argv[2])
    if argv[1] == "get":
        sys.stdout.write(get(port))
        return 0
    if argv[1] == "load":
        return load(port, int(argv[3]))
    if argv[1] == "badshare":
        print(badshare(port, int(argv[3], 0), bytes.fromhex(argv[4])))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
