#!/usr/bin/python3
"""Serves the browser build's folder (build-web/site) as `python3 -m http.server` does, with the two headers that
make the page cross-origin isolated, so the browser gives it SharedArrayBuffer and it loads the threaded build
(web/peviz-page.js), and gzip-compressed to a browser that accepts it. Python's standard library only.
  python3 tools/web/serve.py [--port 8080] [--bind 127.0.0.1] [--plain] SITE
--plain leaves the headers out (the page then loads the one-thread build, as on a host that cannot send them).
Every file but the already-compressed kinds (.png, .gz) goes out gzip level 9 when the request's Accept-Encoding
names gzip (compressed once per file and modification time, kept in memory); tests/web/serve_test.py measures the
first view through it."""
import argparse
import email.utils
import functools
import gzip
import http.server
import os
import threading

ISOLATION_HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}
NOT_COMPRESSED = (".png", ".gz", ".br", ".zip")


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript"}
    isolated = True
    compressed = {}  # path -> (mtime_ns, gzip bytes)
    lock = threading.Lock()

    def end_headers(self):
        if self.isolated:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        super().end_headers()

    def accepts_gzip(self):
        codings = self.headers.get("Accept-Encoding", "")
        return any(c.split(";")[0].strip() == "gzip" for c in codings.split(","))

    def gzip_of(self, path, mtime_ns):
        with self.lock:
            kept = self.compressed.get(path)
        if kept and kept[0] == mtime_ns:
            return kept[1]
        with open(path, "rb") as f:
            body = gzip.compress(f.read(), compresslevel=9, mtime=0)
        with self.lock:
            self.compressed[path] = (mtime_ns, body)
        return body

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if os.path.isdir(path) or not os.path.isfile(path) or path.endswith(NOT_COMPRESSED) or not self.accepts_gzip():
            return super().send_head()
        stat = os.stat(path)
        body = self.gzip_of(path, stat.st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", email.utils.formatdate(stat.st_mtime, usegmt=True))
        self.end_headers()
        self.gzip_body = body
        return None

    def do_GET(self):
        self.gzip_body = None
        head = self.send_head()
        if self.gzip_body is not None:
            self.wfile.write(self.gzip_body)
        elif head:
            try:
                self.copyfile(head, self.wfile)
            finally:
                head.close()

    def do_HEAD(self):
        self.gzip_body = None
        head = self.send_head()
        if head:
            head.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--plain", action="store_true", help="no isolation headers (the one-thread build)")
    args = parser.parse_args()
    handler = type("Handler", (IsolatedHandler,), {"isolated": not args.plain})
    server = http.server.ThreadingHTTPServer((args.bind, args.port), functools.partial(handler, directory=args.site))
    print(f"serve.py: {args.site} at http://{args.bind}:{args.port}/"
          f"{'' if args.plain else ' (cross-origin isolated)'}, gzip to browsers that accept it", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
