// The service worker of the installable app. It does one thing: when a page cannot be
// loaded because the network is gone, it answers with the offline page instead of the
// browser's error. Everything else (the API, the live socket, the app's files) goes to the
// network untouched: the app shows live lifts and must never show stale ones as current.
// Bump VERSION when offline.html, offline.js or the icons change.
const VERSION = 'liftlink-offline-v1';
const OFFLINE_FILES = ['/offline.html', '/offline.js', '/logo.svg', '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(VERSION)
      .then((cache) => cache.addAll(OFFLINE_FILES.map((file) => new Request(file, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== VERSION).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match('/offline.html', { cacheName: VERSION })));
    return;
  }
  // The offline page's own files: from the network when it is there, else the kept copy.
  if (OFFLINE_FILES.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname, { cacheName: VERSION })));
  }
});
