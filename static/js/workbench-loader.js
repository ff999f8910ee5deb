// The workbench — the scripts of cards and the drawer (cards.js,
// elicitation.js, drawer.js, logs.js, run.js and caps.js, joined into one
// file) and the stylesheet of the drawer and of a call's card — is not
// needed until a drawer or a card opens, so the page does not load it up
// front: this script loads both when a person points at or focuses
// something that opens a drawer or a card, and holds the first request for
// a drawer or a card (htmx:confirm) until they have arrived, so their
// scripts see the first one arrive exactly as if they had been loaded with
// the page, and nothing shows unstyled. The stylesheet is added after the
// page's, so its rules come last (static/bundles.go says what that asks of
// them). #drawer-slot's data-workbench-js and data-workbench-css name the
// files. window.switchboardWorkbench() starts the load and returns a
// promise of it, for a script (calls.js) that wants to know when a card it
// loads will find its scripts and styles. No inline script, no eval.
(function () {
  'use strict';

  var slot = document.getElementById('drawer-slot');
  var js = slot && slot.getAttribute('data-workbench-js');
  var css = slot && slot.getAttribute('data-workbench-css');
  if (!js) return;
  var OPENER = '[hx-target="#drawer-slot"], .call-toggle';
  var HOLDS = '.call-card-slot';
  var loading = null;
  var ready = false;
  var done = { js: false, css: !css };

  // add appends el to the head and resolves once it has loaded; a failed
  // element is removed so a later attempt adds it afresh.
  function add(el, what) {
    return new Promise(function (resolve, reject) {
      el.onload = function () { done[what] = true; resolve(); };
      el.onerror = function () { el.remove(); reject(new Error('workbench ' + what + ' failed to load')); };
      document.head.appendChild(el);
    });
  }

  // load adds the workbench's script and stylesheet once each; what failed
  // may be tried again.
  function load() {
    if (ready) return Promise.resolve();
    if (loading) return loading;
    var parts = [];
    if (!done.css) {
      var l = document.createElement('link');
      l.rel = 'stylesheet';
      l.href = css;
      parts.push(add(l, 'css'));
    }
    if (!done.js) {
      var s = document.createElement('script');
      s.src = js;
      parts.push(add(s, 'js'));
    }
    loading = Promise.all(parts).then(function () { ready = true; }, function (err) {
      loading = null;
      throw err;
    });
    return loading;
  }
  window.switchboardWorkbench = load;

  document.addEventListener('htmx:confirm', function (e) {
    if (ready) return;
    var t = e.detail.target;
    if (!t || (t !== slot && !slot.contains(t) && !(t.closest && t.closest(HOLDS)))) return;
    e.preventDefault();
    // Without the workbench the drawer or card still opens, only less helpful.
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
