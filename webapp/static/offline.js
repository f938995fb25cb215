// rulekb offline: registers the service worker, says plainly when the phone is offline, and on the
// offline page searches the client index (build/search-index.json) the worker has stored.
// The folding of words follows the rules shipped in the index (kb/search/offline.py), so the
// browser keys words exactly as the build did.
(function () {
  "use strict";

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* the site works without it */ });
  }

  var NOTICE_HEAD = "Нет сети";
  var NOTICE = " — страницы открываются из копии в телефоне. Поиск без сети ищет по названиям и началу правил, " +
    "понятиям со сленгом и частым вопросам: без полного текста и карточки ответа, результаты грубее.";

  function showNotice(offline) {
    var main = document.getElementById("main");
    if (!main) return;
    var notice = document.getElementById("offline-notice");
    if (offline && !notice) {
      notice = document.createElement("p");
      notice.id = "offline-notice";
      notice.className = "notice offline-notice";
      notice.setAttribute("role", "status");
      notice.appendChild(document.createElement("strong")).textContent = NOTICE_HEAD;
      notice.appendChild(document.createTextNode(NOTICE));
      main.insertBefore(notice, main.firstChild);
    } else if (notice) {
      notice.hidden = !offline;
    }
  }

  var page = document.getElementById("offline-page");
  showNotice(!navigator.onLine || !!page);
  window.addEventListener("offline", function () { showNotice(true); });
  window.addEventListener("online", function () { showNotice(!!page); });

  // ---- folding (mirrors kb/search/offline.py) --------------------------------------------------
  function folder(rules) {
    var irregular = rules.en_irregular, suffixes = rules.en_suffixes;
    function stemEn(word) {
      if (Object.prototype.hasOwnProperty.call(irregular, word)) word = irregular[word];
      for (var i = 0; i < suffixes.length; i++) {
        var suffix = suffixes[i][0], keep = suffixes[i][1];
        if (word.endsWith(suffix) && word.length - suffix.length >= keep && !word.endsWith("ss")) {
          word = word.slice(0, word.length - suffix.length) + (suffix === "ies" ? "y" : "");
          break;
        }
      }
      if (word.endsWith("e") && word.length >= 5) word = word.slice(0, -1);
      return word;
    }
    function foldWord(word) {
      word = word.toLowerCase().replace(/ё/g, "е");
      if (!/[а-я]/.test(word)) return /^[a-z]+$/.test(word) ? stemEn(word) : word.replace(/д/g, "d");
      if (/^[0-9]/.test(word)) return word.replace(/д/g, "d");
      var i, ending;
      for (i = 0; i < rules.reflexive.length; i++) {
        ending = rules.reflexive[i];
        if (word.endsWith(ending) && word.length - ending.length >= rules.min_stem + 1) {
          word = word.slice(0, word.length - ending.length);
          break;
        }
      }
      for (i = 0; i < rules.endings.length; i++) {
        ending = rules.endings[i];
        if (word.endsWith(ending) && word.length - ending.length >= rules.min_stem) {
          return word.slice(0, word.length - ending.length);
        }
      }
      return word;
    }
    function termsOf(text) {
      var found = text.toLowerCase().replace(/ё/g, "е").match(/[0-9]*[dд][0-9]+|[0-9]+\+?|[a-zа-я]+/g) || [];
      return found.map(foldWord);
    }
    return { foldWord: foldWord, termsOf: termsOf };
  }

  // ---- search -----------------------------------------------------------------------------------
  function lookup(postings, term, allTerms) {
    if (postings[term]) return [postings[term], 1];
    if (term.length < 4) return [null, 0];
    var best = null;
    for (var i = 0; i < allTerms.length; i++) {  // a word typed in part: the shortest term it begins
      if (allTerms[i].indexOf(term) === 0 && (best === null || allTerms[i].length < best.length)) best = allTerms[i];
    }
    return best ? [postings[best], 0.7] : [null, 0];
  }

  function rank(postings, terms, edition, editionOf) {
    var keys = Object.keys(postings), scores = {}, matched = {};
    terms.forEach(function (term) {
      var found = lookup(postings, term, keys), list = found[0];
      if (!list) return;
      for (var i = 0; i < list.length; i += 2) {
        var doc = list[i];
        if (edition && editionOf && editionOf(doc) !== edition) continue;
        scores[doc] = (scores[doc] || 0) + list[i + 1] * found[1];
        matched[doc] = (matched[doc] || 0) + 1;
      }
    });
    return Object.keys(scores).map(function (doc) {
      return [Number(doc), scores[doc] * (1 + matched[doc]), matched[doc]];
    }).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
  }

  function search(index, fold, question, edition) {
    var terms = fold.termsOf(question).filter(function (t, i, all) { return all.indexOf(t) === i; });
    var docEdition = function (doc) { return index.docs[doc][2]; };
    return {
      terms: terms,
      hits: rank(index.postings, terms, edition, docEdition).slice(0, 10),
      concepts: rank(index.concept_postings, terms, null, null).filter(function (c) {
        return c[2] === terms.length || c[2] >= 2;
      }).slice(0, 4),
      faq: rank(index.faq_postings, terms, edition, function (f) { return index.faq[f][2]; }).filter(function (f) {
        return terms.length > 0 && f[2] / terms.length >= 0.6;
      }).slice(0, 1)
    };
  }

  // the termbase's search box offline: the concepts whose names, renderings, aliases or slang match
  function searchTerms(index, fold, question) {
    var terms = fold.termsOf(question).filter(function (t, i, all) { return all.indexOf(t) === i; });
    return rank(index.concept_postings, terms, null, null).filter(function (c) {
      return c[2] === terms.length;
    }).slice(0, 20);
  }

  // ---- rendering (text only: textContent everywhere) -------------------------------------------
  var LABELS = { "10": "10-я редакция", "6": "6-я редакция", "7": "7-я редакция", "kt": "Kill Team" };

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function badge(edition) {
    return el("span", { "class": "badge ed-" + edition }, LABELS[edition] || edition);
  }

  function ruleUrl(id) {
    return "/rules/" + id.split("/").map(encodeURIComponent).join("/");
  }

  function breadcrumb(index, doc) {
    var parts = [], parent = index.docs[doc][3], guard = 0;
    while (parent >= 0 && guard++ < 20) {
      parts.unshift(index.docs[parent][1]);
      parent = index.docs[parent][3];
    }
    return parts.slice(1).join(" › ");
  }

  function render(target, index, question, found) {
    target.textContent = "";
    target.appendChild(el("h2", { "class": "results-head" }, "Без сети: «" + question + "»"));
    if (found.faq.length) {
      var entry = index.faq[found.faq[0][0]];
      var card = el("section", { "class": "answer card offline-faq", "aria-label": "Частый вопрос" });
      var head = el("h2", {}, "Частый вопрос: " + entry[0] + " ");
      if (entry[2]) head.appendChild(badge(entry[2]));
      card.appendChild(head);
      card.appendChild(el("p", {}, entry[1]));
      target.appendChild(card);
    }
    if (found.concepts.length) {
      var line = el("p", { "class": "concepts" }, "Понятия: ");
      found.concepts.forEach(function (c) {
        var concept = index.concepts[c[0]];
        line.appendChild(el("a", { "class": "chip", href: "/concepts/" + encodeURIComponent(concept[0]) }, concept[1] || concept[0]));
      });
      target.appendChild(line);
    }
    if (!found.hits.length) {
      var none = el("section", { "class": "nothing card" });
      none.appendChild(el("h2", {}, "Ничего не нашлось без сети"));
      none.appendChild(el("p", {}, "В сохранённом указателе нет слов «" + question + "». Попробуйте другое слово " +
        "(«чардж», «овервотч», «ld») или повторите, когда появится сеть: онлайн ищется весь текст правил."));
      target.appendChild(none);
      return;
    }
    var list = el("ol", { "class": "results offline-results" });
    found.hits.forEach(function (hit) {
      var doc = index.docs[hit[0]];
      var item = el("li", { "class": "hit" });
      item.appendChild(el("a", { "class": "hit-title", href: ruleUrl(doc[0]) }, doc[1] || doc[0]));
      var meta = el("div", { "class": "hit-meta" });
      meta.appendChild(badge(doc[2]));
      meta.appendChild(document.createTextNode(" "));
      meta.appendChild(el("span", { "class": "crumbs" }, breadcrumb(index, hit[0])));
      item.appendChild(meta);
      if (doc[4]) item.appendChild(el("p", { "class": "snippet" }, doc[4]));
      list.appendChild(item);
    });
    target.appendChild(list);
  }

  function renderTerms(target, index, question, found) {
    target.textContent = "";
    target.appendChild(el("h2", { "class": "results-head" }, "Термины без сети: «" + question + "»"));
    if (found.length) {
      var list = el("ul", { "class": "concept-list offline-terms" });
      found.forEach(function (c) {
        var concept = index.concepts[c[0]], item = el("li");
        item.appendChild(el("a", { href: "/concepts/" + encodeURIComponent(concept[0]) }, concept[1] || concept[0]));
        if (concept[2]) item.appendChild(document.createTextNode(" — «" + concept[2] + "»"));
        list.appendChild(item);
      });
      target.appendChild(list);
    } else {
      target.appendChild(el("p", {}, "В сохранённом указателе нет термина «" + question + "»."));
    }
    var whole = el("p", {}, "Переводы по книгам — на странице понятия; вся таблица терминов тоже сохранена: ");
    whole.appendChild(el("a", { href: "/terms?page=all" }, "вся таблица на одной странице"));
    whole.appendChild(document.createTextNode(" (поиск по странице)."));
    target.appendChild(whole);
  }

  // ---- the offline page ---------------------------------------------------------------------------
  window.rulekbOffline = { folder: folder, search: search };
  if (!page) return;
  var params = new URLSearchParams(location.search);
  var question = (params.get("q") || "").trim();
  var edition = params.get("edition") || "";
  var isSearch = location.pathname === "/search" || location.pathname === "/";
  var isTerms = location.pathname === "/terms" && params.has("q");  // the termbase's search box
  var input = document.getElementById("q");
  if (input) input.value = question;
  var select = document.getElementById("edition");
  if (select && edition) select.value = edition;
  if (!isSearch && !isTerms && location.pathname !== "/offline") {
    page.querySelector(".offline-missing").hidden = false;
    return;
  }
  if (!question) return;
  var results = document.getElementById("offline-results");
  results.textContent = "Ищу в сохранённом указателе…";
  fetch(page.getAttribute("data-index")).then(function (response) {
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  }).then(function (index) {
    var fold = folder(index.fold);
    if (isTerms) renderTerms(results, index, question, searchTerms(index, fold, question));
    else render(results, index, question, search(index, fold, question, edition));
    page.setAttribute("data-searched", "1");
  }).catch(function () {
    results.textContent = "Указатель для поиска без сети ещё не сохранён: откройте сайт один раз при сети.";
    page.setAttribute("data-searched", "0");
  });
})();
