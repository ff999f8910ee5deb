// The toast: error answers from any part of the page (a command's HX-Retarget
// "#toast", or a drawer form refused with 422 and sent again) are swapped in,
// which htmx 2 would not do for a 4xx or 5xx, and its dismiss button empties
// it. Part of the page's own script, since a failure can come before any
// drawer (and its lazily loaded script) was opened. No inline script, no eval.
(function () {
  'use strict';

  document.addEventListener('htmx:beforeSwap', function (e) {
    var xhr = e.detail.xhr;
    if (!xhr || xhr.status < 400) return;
    var retarget = xhr.getResponseHeader('HX-Retarget');
    var elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    var fromDrawer = elt && elt.closest && elt.closest('[data-testid="drawer"]');
    if (retarget === '#toast' || (xhr.status === 422 && fromDrawer)) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  document.addEventListener('click', function (e) {
    var t = e.target.closest ? e.target : e.target.parentElement;
    if (!t || !t.closest('[data-toast-dismiss]')) return;
    var toast = document.getElementById('toast');
    if (toast) toast.replaceChildren();
  });
})();
