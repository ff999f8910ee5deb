// The drawer's workbench (drawer.js, logs.js, run.js and caps.js, joined
// into one file) is not needed until a drawer opens, so the page does not
// load it up front: this script loads it when a person points at or
// focuses something that opens a drawer, and holds the first request for
// the drawer (htmx:confirm) until it has arrived, so the drawer's script
// sees the drawer arrive exactly as if it had been loaded with the page.
// #drawer-slot's data-workbench-js names the file. No inline script, no eval.
(function () {
  'use strict';

  var slot = document.getElementById('drawer-slot');
  var src = slot && slot.getAttribute('data-workbench-js');
  if (!src) return;
  var OPENER = '[hx-target="#drawer-slot"]';
  var loading = null;
  var ready = false;

  // load adds the workbench's script once; a failed load may be tried again.
  function load() {
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = function () { ready = true; resolve(); };
      s.onerror = function () { s.remove(); loading = null; reject(new Error('workbench script failed to load')); };
      document.head.appendChild(s);
    });
    return loading;
  }

  document.addEventListener('htmx:confirm', function (e) {
    if (ready) return;
    var t = e.detail.target;
    if (!t || (t !== slot && !slot.contains(t))) return;
    e.preventDefault();
    // Without its script the drawer still opens, only less helpful.
    var go = function () { e.detail.issueRequest(true); };
    load().then(go, go);
  });

  function intent(e) {
    var t = e.target;
    if (!ready && t && t.closest && t.closest(OPENER)) load().catch(function () {});
  }
  document.addEventListener('pointerover', intent, { passive: true });
  document.addEventListener('focusin', intent);
})();
