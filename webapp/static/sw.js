// rulekb service worker (plain JavaScript, no build step). The server prepends three constants:
// VERSION (build stamp + code version), PRECACHE_URL (what to store) and OFFLINE_URL.
//
// install:  store the app shell (all or nothing), then every rule, concept and termbase page the
//           precache list names, in its order, until the size budget is spent; a record of what
//           was stored goes to /offline/status.json in the same cache.
// activate: delete the caches of other versions, take over open pages.
// fetch:    searches go to the network first (the answer is kept: the last 50 searches and
//           other pages seen stay available offline), else the kept answer, else the offline
//           page, whose script searches the client index; every other page and asset comes from
//           the cache first and is refreshed in the background; a page that is not stored falls
//           back to the network, then to a kept copy, then to the offline page.
/* global VERSION, PRECACHE_URL, OFFLINE_URL */
"use strict";

var CACHE = "rulekb-" + VERSION;
var RUNTIME = "rulekb-runtime-" + VERSION;
var RECENT = 50;
var PARALLEL = 6;
var MATCH = { ignoreVary: true };

function isSearch(url) {
  return url.pathname === "/search" || (url.pathname === "/" && url.searchParams.has("q"));
}

async function storePages(cache, urls, budget, used) {
  var stored = 0, skipped = 0, failed = 0, next = 0;
  async function worker() {
    while (next < urls.length) {
      var url = urls[next++];
      if (used >= budget) { skipped++; continue; }
      try {
        var response = await fetch(url, { credentials: "same-origin" });
        if (!response.ok) { failed++; continue; }
        var size = (await response.clone().arrayBuffer()).byteLength;
        if (used + size > budget) { skipped++; continue; }
        used += size;
        await cache.put(url, response);
        stored++;
      } catch (e) {
        failed++;
      }
    }
  }
  var workers = [];
  for (var i = 0; i < PARALLEL; i++) workers.push(worker());
  await Promise.all(workers);
  return { stored: stored, skipped: skipped, failed: failed, bytes: used };
}

async function precache() {
  var list = await (await fetch(PRECACHE_URL, { cache: "no-store" })).json();
  var cache = await caches.open(CACHE);
  var used = 0;
  for (var url of list.shell) {  // the shell is all or nothing: a failure fails the install
    var response = await fetch(url, { credentials: "same-origin", cache: "no-cache" });
    if (!response.ok) throw new Error("precache: " + url + " answered " + response.status);
    used += (await response.clone().arrayBuffer()).byteLength;
    await cache.put(url, response);
  }
  var result = await storePages(cache, list.pages, list.budget, used);
  if (result.failed > list.pages.length / 10) {
    await caches.delete(CACHE);
    throw new Error("precache: " + result.failed + " of " + list.pages.length + " pages failed");
  }
  var status = {
    version: VERSION, shell: list.shell.length, pages: list.pages.length, stored: result.stored,
    skipped: result.skipped, failed: result.failed, bytes: result.bytes, budget: list.budget,
    finished: new Date().toISOString()
  };
  await cache.put("/offline/status.json", new Response(JSON.stringify(status), {
    headers: { "Content-Type": "application/json" }
  }));
}

self.addEventListener("install", function (event) {
  event.waitUntil(precache().then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil((async function () {
    var keys = await caches.keys();
    await Promise.all(keys.filter(function (key) {
      return key.indexOf("rulekb-") === 0 && key !== CACHE && key !== RUNTIME;
    }).map(function (key) { return caches.delete(key); }));
    await self.clients.claim();
  })());
});

async function offlinePage() {
  var cache = await caches.open(CACHE);
  return (await cache.match(OFFLINE_URL, MATCH)) || Response.error();
}

async function remember(request, response) {
  var cache = await caches.open(RUNTIME);
  await cache.put(request.url, response);
  var keys = await cache.keys();
  for (var i = 0; i < keys.length - RECENT; i++) await cache.delete(keys[i]);
}

async function searchFirstOnline(event) {
  var request = event.request;
  try {
    var response = await fetch(request);
    if (response.ok) event.waitUntil(remember(request, response.clone()));
    return response;
  } catch (e) {
    var kept = await (await caches.open(RUNTIME)).match(request.url, MATCH);
    if (kept) return kept;
    return request.mode === "navigate" ? offlinePage() : Response.error();
  }
}

async function cacheFirst(event) {
  var request = event.request;
  var cache = await caches.open(CACHE);
  var hit = await cache.match(request, MATCH);
  var refresh = fetch(request).then(function (response) {
    if (response.ok && response.type === "basic" && !response.redirected) {
      // a stored page is refreshed in place; any other page joins the recent ones (the last 50)
      var kept = hit ? cache.put(request, response.clone()) : remember(request, response.clone());
      return kept.then(function () { return response; });
    }
    return response;
  });
  if (hit) {
    event.waitUntil(refresh.catch(function () { return null; }));
    return hit;
  }
  try {
    return await refresh;
  } catch (e) {
    var kept = await (await caches.open(RUNTIME)).match(request, MATCH);
    if (kept) return kept;
    return request.mode === "navigate" ? offlinePage() : Response.error();
  }
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname === "/sw.js") return;
  if (url.pathname.indexOf("/offline/precache.json") === 0) return;
  if (isSearch(url) || url.pathname.indexOf("/api/") === 0) {
    event.respondWith(searchFirstOnline(event));
    return;
  }
  if (url.pathname.indexOf("/cite/") === 0) return;  // redirects: the network only
  event.respondWith(cacheFirst(event));
});
