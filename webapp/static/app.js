// rulekb: small enhancements; every page works without this file.
// 1. Terms: on a touch screen the first tap on a term opens its explanation, the second follows the link.
// 2. Copy buttons: copy the permalink (or any [data-copy] target) to the clipboard.
// 3. The calculator shows only the fields of the editions chosen.
(function () {
  "use strict";

  function closeAll(except) {
    document.querySelectorAll(".term.open").forEach(function (el) {
      if (el !== except) {
        el.classList.remove("open");
        var link = el.querySelector(".term-link");
        if (link) link.setAttribute("aria-expanded", "false");
      }
    });
  }

  // With a mouse the explanation shows on hover, so a click follows the link at once.
  var finePointer = window.matchMedia && window.matchMedia("(hover: hover) and (pointer: fine)").matches;

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".term-link");
    if (link && finePointer && event.pointerType !== "touch") return;
    if (link) {
      var term = link.parentElement;
      if (!term.classList.contains("open")) {
        event.preventDefault();
        closeAll(term);
        term.classList.add("open");
        link.setAttribute("aria-expanded", "true");
        return;
      }
      return; // second tap: follow the link to the concept
    }
    if (!(event.target.closest && event.target.closest(".term-tip"))) closeAll(null);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") closeAll(null);
  });

  function copyText(text, button) {
    function done(ok) {
      var label = button.getAttribute("data-label") || button.textContent;
      button.setAttribute("data-label", label);
      button.textContent = ok ? "Скопировано" : "Выделите и скопируйте";
      setTimeout(function () { button.textContent = label; }, 1800);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
    } else {
      var field = document.createElement("textarea");
      field.value = text;
      field.setAttribute("readonly", "");
      field.className = "visually-hidden";
      document.body.appendChild(field);
      field.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(field);
      done(ok);
    }
  }

  document.querySelectorAll("button.copy[data-copy]").forEach(function (button) {
    var target = document.querySelector(button.getAttribute("data-copy"));
    if (!target) return;
    // A relative permalink (no BASE_URL configured) becomes absolute on this page's own address.
    if (target.value && target.value.charAt(0) === "/") target.value = new URL(target.value, location.href).href;
    button.hidden = false;
    button.addEventListener("click", function () {
      copyText(target.value || target.textContent, button);
    });
  });

  // 3. Calculator: show only the fields of the editions chosen (all are shown without the script).
  var form = document.querySelector(".calc-form");
  if (form) {
    var chosen = function () {
      return ["f-edition", "f-compare"].map(function (id) {
        var el = document.getElementById(id);
        return el ? el.value : "";
      }).filter(Boolean);
    };
    var update = function () {
      var editions = chosen();
      form.querySelectorAll("[data-editions]").forEach(function (el) {
        var own = el.getAttribute("data-editions").split(" ");
        var relevant = own.some(function (e) { return editions.indexOf(e) !== -1; });
        el.classList.toggle("irrelevant", !relevant);
      });
    };
    form.addEventListener("change", function (event) {
      if (event.target.id === "f-edition" || event.target.id === "f-compare") update();
    });
    update();
  }

  document.querySelectorAll("input[readonly]").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
  });
})();
