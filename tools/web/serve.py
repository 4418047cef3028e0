#!/usr/bin/python3
"""Serves the browser build's folder (build-web/site) as `python3 -m http.server` does, with the two headers that
make the page cross-origin isolated, so the browser gives it SharedArrayBuffer and it loads the threaded build
(web/peviz-page.js). Python's standard library only.
  python3 tools/web/serve.py [--port 8080] [--bind 127.0.0.1] [--plain] SITE
--plain leaves the headers out (the page then loads the one-thread build, as on a host that cannot send them)."""
import argparse
import functools
import http.server

ISOLATION_HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript"}
    isolated = True

    def end_headers(self):
        if self.isolated:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        super().end_headers()


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
          f"{'' if args.plain else ' (cross-origin isolated)'}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
