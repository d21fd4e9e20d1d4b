// memgate review UI: keyboard shortcuts and bulk select. No inline scripts (CSP).
"use strict";

(function () {
  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("tr.row"));
  }

  function focused() {
    var el = document.activeElement;
    return el && el.classList && el.classList.contains("row") ? el : null;
  }

  function typing(event) {
    var t = event.target;
    return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT");
  }

  function move(step) {
    var all = rows();
    if (!all.length) return;
    var index = all.indexOf(focused());
    var next = index < 0 ? 0 : Math.min(all.length - 1, Math.max(0, index + step));
    all[next].focus();
  }

  function toggle(row) {
    var box = row.querySelector("input[type=checkbox]");
    if (box) {
      box.checked = !box.checked;
      row.classList.toggle("selected", box.checked);
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (typing(event)) {
      if (event.key === "Escape") {
        var row = event.target.closest("tr.row");
        if (row) row.focus();
      }
      return;
    }
    var current = focused();
    switch (event.key) {
      case "j": move(1); break;
      case "k": move(-1); break;
      case "x": if (current) toggle(current); break;
      case "a":
        if (current) current.querySelector("form.approve button").click();
        break;
      case "r":
        if (current) {
          current.querySelector("form.reject input[name=reason]").focus();
          event.preventDefault();
        }
        break;
      case "o":
      case "Enter":
        if (current) current.querySelector("a.open").click();
        break;
      default: return;
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var all = document.getElementById("select-all");
    if (all) {
      all.addEventListener("change", function () {
        rows().forEach(function (row) {
          var box = row.querySelector("input[type=checkbox]");
          if (box) {
            box.checked = all.checked;
            row.classList.toggle("selected", all.checked);
          }
        });
      });
    }
    rows().forEach(function (row) {
      var box = row.querySelector("input[type=checkbox]");
      if (box) {
        box.addEventListener("change", function () { row.classList.toggle("selected", box.checked); });
      }
    });
    var first = rows()[0];
    if (first && !document.querySelector(".notice.error")) first.focus();
  });
})();
