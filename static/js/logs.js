// Switchboard log lists: the event stream puts a server's new log messages
// at the top of its drawer's list (views.LogAppend) rather than sending the
// whole list again. This script then keeps the list as the server would
// render it: each message once (a drawer opened while an update was on its
// way holds some twice), newest first, and no more than the data-cap
// entries the server keeps. Loaded with defer after htmx; no inline
// script, no eval.
(function () {
  'use strict';

  var LIST = 'ol.log-list';
  // pending holds the lists already due for tidying: htmx reports each
  // inserted entry on its own, and one pass per burst is enough.
  var pending = typeof WeakSet === 'function' ? new WeakSet() : null;

  function seqOf(li) { return Number(li.getAttribute('data-seq')) || 0; }

  function tidy(list) {
    var items = Array.prototype.slice.call(list.children);
    var seen = {};
    var kept = [];
    var sorted = true;
    for (var i = 0; i < items.length; i++) {
      var seq = seqOf(items[i]);
      if (seen[seq]) {
        list.removeChild(items[i]);
        continue;
      }
      seen[seq] = true;
      if (kept.length && seqOf(kept[kept.length - 1]) < seq) { sorted = false; }
      kept.push(items[i]);
    }
    if (!sorted) {
      kept.sort(function (a, b) { return seqOf(b) - seqOf(a); });
      for (var j = 0; j < kept.length; j++) { list.appendChild(kept[j]); }
    }
    var cap = Number(list.getAttribute('data-cap')) || kept.length;
    for (var k = cap; k < kept.length; k++) { list.removeChild(kept[k]); }
  }

  document.addEventListener('htmx:oobAfterSwap', function (e) {
    var list = e.detail && e.detail.target;
    if (!list || !list.matches || !list.matches(LIST)) { return; }
    if (!pending) {
      tidy(list);
      return;
    }
    if (pending.has(list)) { return; }
    pending.add(list);
    Promise.resolve().then(function () {
      pending.delete(list);
      tidy(list);
    });
  });
})();
