#!/usr/bin/python3
"""tools/web/serve.py serves the browser build gzip-compressed, with the isolation headers: every file decodes to its
bytes, a request without gzip gets the file as it is, and the first view's size through it is printed and held to
1.6 MiB (the browser test's bound). Prints SKIPPED and exits 77 without build-web/site.
  serve_test.py SITE"""
import gzip
import os
import socket
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SERVE = os.path.join(HERE, "..", "..", "tools", "web", "serve.py")
FIRST_VIEW_BOUND = 1638 * 1024
failures = 0


def check(what, ok, detail=""):
    global failures
    failures += 0 if ok else 1
    print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail else ""), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(base, name, gzip_ok):
    request = urllib.request.Request(base + name, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=60) as reply:
        return reply.headers, reply.read()


def wait_for(base):
    for _ in range(200):
        try:
            return fetch(base, "", False)
        except OSError:
            time.sleep(0.05)
    raise SystemExit("serve.py did not answer within 10 s")


def first_view(site, name):
    files = ["", "peviz-page.js", f"{name}.js", f"{name}.wasm", f"{name}.data"]
    return files + ([f"{name}.worker.js"] if name == "peviz-threads" else [])


def main():
    site = sys.argv[1]
    if not os.path.isfile(os.path.join(site, "index.html")):
        print(f"SKIPPED: no browser build in {site} (./setup.sh web --build-only)")
        return 77
    port = free_port()
    server = subprocess.Popen([sys.executable, SERVE, "--port", str(port), site], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        wait_for(base)
        for name in ["peviz", "peviz-threads"]:
            sent = 0
            for f in first_view(site, name):
                headers, body = fetch(base, f, True)
                with open(os.path.join(site, f or "index.html"), "rb") as local:
                    want = local.read()
                if headers.get("Content-Encoding") != "gzip" or gzip.decompress(body) != want:
                    check(f"{f or '/'} comes gzip-compressed and decodes to the file", False, str(headers))
                sent += len(body)
            check(f"the first view of {name}.js through serve.py is at most {FIRST_VIEW_BOUND // 1024} KiB", sent <=
                  FIRST_VIEW_BOUND, f"{sent / 1024:.0f} KiB gzip ({sent / 2**20:.2f} MiB)")
        lab = os.path.join(site, "lab")
        sent = raw = 0
        for f in sorted(os.listdir(lab)):
            headers, body = fetch(base, "lab/" + f, True)
            sent += len(body)
            raw += os.path.getsize(os.path.join(lab, f))
        print(f"info: the Lab's shipped runs through serve.py: {sent / 2**20:.1f} MiB gzip of {raw / 2**20:.1f} MiB")
        headers, body = fetch(base, "peviz.wasm", False)
        with open(os.path.join(site, "peviz.wasm"), "rb") as local:
            check("a request without gzip gets the file as it is",
                  headers.get("Content-Encoding") is None and body == local.read())
        check("the isolation headers come with every reply",
              headers.get("Cross-Origin-Opener-Policy") == "same-origin" and
              headers.get("Cross-Origin-Embedder-Policy") == "require-corp")
    finally:
        server.terminate()
        server.wait()
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
