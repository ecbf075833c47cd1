// Live updates for the table page: redraw the board when the table changes (no build step).
(function () {
  "use strict";
  var source = null;
  var opened = false;

  function board() { return document.getElementById("board"); }

  function refresh() {
    var b = board();
    if (b && window.htmx) {
      window.htmx.ajax("GET", b.dataset.refresh, { target: "#board", swap: "outerHTML" });
    }
  }

  function connect() {
    var url = document.body.dataset.stream;
    if (!url || !window.EventSource) { return; }
    source = new EventSource(url);
    source.addEventListener("step", function (e) {
      var b = board();
      var msg = JSON.parse(e.data);
      if (b && String(msg.version) !== b.dataset.version) { refresh(); }
    });
    source.addEventListener("sync", refresh);
    source.addEventListener("hello", function (e) {
      var b = board();
      var msg = JSON.parse(e.data);
      // after a reconnection, catch up with whatever was missed
      if (opened && b && String(msg.version) !== b.dataset.version) { refresh(); }
      opened = true;
      document.body.classList.add("live");
    });
    source.onerror = function () { document.body.classList.remove("live"); };
  }

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") {
      var b = board();
      if (b && window.htmx) { window.htmx.ajax("GET", b.dataset.cancel, { target: "#board", swap: "outerHTML" }); }
    }
  });
  window.addEventListener("pagehide", function () { if (source) { source.close(); } });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", connect);
  } else {
    connect();
  }
})();
