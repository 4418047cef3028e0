// A static server for the browser build's folder (build-web/site), as tools/web/serve.py serves it: with the
// cross-origin isolation headers (the page loads the threaded build) or without (the one-thread build).
// Used by browser_test.js and bench/web_lab_speed.js.
'use strict';
const fs = require('fs');
const path = require('path');
const http = require('http');

const TYPES = {'.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.txt': 'text/plain'};
const ISOLATION = {'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp'};

// Serves `site` on a free port of 127.0.0.1; resolves to the listening server (its base address: baseOf(server)).
function serve(site, {isolated = false} = {}) {
  const headers = isolated ? ISOLATION : {};
  const server = http.createServer((req, res) => {
    const file = path.join(site, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(site) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      const index = path.join(file, 'index.html');
      if (file.startsWith(site) && fs.existsSync(index)) {
        res.writeHead(200, {'Content-Type': 'text/html', ...headers});
        return res.end(fs.readFileSync(index));
      }
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, {'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', ...headers});
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function baseOf(server) { return `http://127.0.0.1:${server.address().port}/`; }

module.exports = {serve, baseOf};
