// A service worker for static hosts that cannot send headers (GitHub Pages): it adds the two cross-origin isolation
// headers to every response from the page's own site, so the browser gives the page threads and it loads the
// threaded build. web/peviz-page.js registers it over https (or with ?isolation_worker) and reloads the page once.
'use strict';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;  // other sites' files pass untouched
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;  // a fetch() would throw
  event.respondWith(fetch(request).then((response) => {
    if (response.status === 0) return response;  // opaque: no headers to add
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    return new Response(response.body, {status: response.status, statusText: response.statusText, headers});
  }));
});
