// Opens the <details> a link points at (a failure's evidence is folded by default), so following
// a matrix cell, or loading the page with #id, shows the evidence and puts the keyboard on it.
(function () {
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    if (!target) return;
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === "DETAILS") el.open = true;
    }
    var summary = target.tagName === "DETAILS" ? target.querySelector("summary") : null;
    (summary || target).focus();
  }
  window.addEventListener("hashchange", reveal);
  // Following a link to the hash already in the address bar fires no hashchange.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest('a[href^="#"]')) setTimeout(reveal, 0);
  });
  document.addEventListener("DOMContentLoaded", function () {
    reveal();
    document.querySelectorAll("button[data-open]").forEach(function (button) {
      button.addEventListener("click", function () {
        var open = button.getAttribute("data-open") === "true";
        document.querySelectorAll(button.getAttribute("data-target")).forEach(function (d) { d.open = open; });
      });
    });
  });
})();
