// The page's service worker: after one visit the page loads, and the wheel runs, with the
// network off. Every file of the site is put in a cache when it is installed (the list and
// the version are written in by host_tools/web/build.py); a request goes to the network first
// (a rebuilt or republished site is what the page gets) and to the cache when the network
// does not answer.

const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `chromawheel-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES.map((name) => new Request(name, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("chromawheel-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    try {
      const response = await fetch(request);
      if (response.ok && response.type === "basic") {
        const cache = await caches.open(CACHE);
        const url = new URL(request.url);
        // The page with any ?script= is one page: keep it under its plain address.
        if (request.mode === "navigate") url.search = "";
        await cache.put(url.href, response.clone());
      }
      return response;
    } catch (err) {
      const cache = await caches.open(CACHE);
      const found = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
      if (found) return found;
      if (request.mode === "navigate") {
        const page = await cache.match("./");
        if (page) return page;
      }
      throw err;
    }
  })());
});
