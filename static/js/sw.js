// Card Table Companion service worker (plain JS, served by companion/views/pwa.py at /sw.js,
// which fills in the version and the shell). Only where the origin is secure (HTTPS, localhost).
//  * install: precache the app shell (styles, scripts, icons) under the current version;
//  * activate: delete every cache of another version;
//  * pages (GET navigations): network first; each page the phone opens is kept, so a table page
//    and its record form open again without the network (the outbox in static/js/outbox.js keeps
//    what is saved there); the live poll and every POST always go to the network;
//  * static files: from the cache, refreshed in the background.
"use strict";
var VERSION = "__VERSION__";
var SHELL = __SHELL__;
var STATIC = "ctc-static-" + VERSION, PAGES = "ctc-pages-" + VERSION;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (c) { return c.addAll(SHELL); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("ctc-") === 0 && k !== STATIC && k !== PAGES; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function page(request) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES).then(function (c) { c.put(request, copy); });
    }
    return response;
  }, function () {
    return caches.open(PAGES).then(function (c) {
      return c.match(request).then(function (hit) { return hit || c.match(request, { ignoreSearch: true }); });
    }).then(function (hit) {
      if (!hit) return Response.error();
      // marked, so the page says it is the copy this phone kept (static/js/outbox.js)
      return hit.text().then(function (html) {
        return new Response(html.replace("<body>", '<body data-offline-copy="1">'),
          { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
      });
    });
  });
}

function asset(request) {
  return caches.open(STATIC).then(function (c) {
    return c.match(request).then(function (hit) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) c.put(request, response.clone());
        return response;
      });
      if (hit) { fresh.catch(function () {}); return hit; }
      return fresh;
    });
  });
}

// A page opened before this worker controlled it: the page asks for it to be kept.
self.addEventListener("message", function (event) {
  var url = event.data && event.data.keep;
  if (typeof url !== "string" || new URL(url).origin !== self.location.origin) return;
  event.waitUntil(caches.open(PAGES).then(function (c) {
    return c.match(url).then(function (hit) {
      if (hit) return;
      return fetch(url, { credentials: "same-origin" }).then(function (r) { if (r.ok) return c.put(url, r); });
    });
  }).catch(function () {}));
});

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") { event.respondWith(page(request)); return; }
  if (url.pathname.indexOf("/static/") === 0) event.respondWith(asset(request));
});
