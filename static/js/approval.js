// approval.js: the project server approval dialog, swapped into
// #approval-slot by the page event stream. When a dialog appears (or
// shows another server) focus moves to its first button, Reject, the safe
// answer. Tab is trapped inside. Escape does not close it and never
// decides: it only brings focus back into the dialog, because the server
// stays blocked until someone answers. The key handlers run in the
// capture phase so the drawer's Escape and Tab handling never sees keys
// meant for the dialog. When the dialog shown for a server is replaced by
// one with another config fingerprint (the file changed), its note saying
// so is revealed; a refused decision (409) swaps in the new dialog itself.
(function () {
  'use strict';

  var shown = '';
  var shownPrint = '';

  function dialog() {
    return document.querySelector('#approval-slot [data-testid="approval-dialog"]');
  }

  function buttons(d) {
    return Array.prototype.filter.call(d.querySelectorAll('button'), function (b) {
      return !b.disabled;
    });
  }

  // focusables are what Tab moves between: the scrollable body (so the
  // keyboard can scroll a long config) and the buttons.
  function focusables(d) {
    var body = d.querySelector('[data-testid="approval-body"]');
    return (body ? [body] : []).concat(buttons(d));
  }

  // onSlotChanged focuses the first button of a dialog that is new or asks
  // about another server; an unchanged dialog keeps the person's focus.
  function onSlotChanged() {
    var d = dialog();
    var key = d ? d.getAttribute('data-server') || '' : '';
    if (!d) {
      shown = '';
      shownPrint = '';
      return;
    }
    var print = d.getAttribute('data-fingerprint') || '';
    if (key === shown && shownPrint && print !== shownPrint) {
      var note = d.querySelector('[data-testid="approval-changed"]');
      if (note) note.hidden = false;
    }
    shownPrint = print;
    if (key === shown && d.contains(document.activeElement)) return;
    shown = key;
    var first = buttons(d)[0];
    if (first) first.focus();
  }

  window.addEventListener('keydown', function (e) {
    var d = dialog();
    if (!d) return;
    var items = buttons(d);
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopImmediatePropagation();
      if (!d.contains(document.activeElement) && items[0]) items[0].focus();
      return;
    }
    items = focusables(d);
    if (e.key !== 'Tab' || items.length === 0) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    var i = items.indexOf(document.activeElement);
    var next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
    items[next].focus();
  }, true);

  // A click elsewhere on the page must not leave focus behind the modal.
  document.addEventListener('focusin', function (e) {
    var d = dialog();
    var toast = document.getElementById('toast');
    if (!d || d.contains(e.target) || (toast && toast.contains(e.target))) return;
    var first = buttons(d)[0];
    if (first) first.focus();
  });

  // A decision about a config that changed answers 409 with the dialog
  // for the new one, retargeted at the slot; htmx would not swap a 4xx.
  document.addEventListener('htmx:beforeSwap', function (e) {
    var xhr = e.detail.xhr;
    if (xhr && xhr.status === 409 && xhr.getResponseHeader('HX-Retarget') === '#approval-slot') {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  document.addEventListener('htmx:oobAfterSwap', onSlotChanged);
  document.addEventListener('htmx:afterSettle', function (e) {
    var t = e.target, target = e.detail && e.detail.target;
    if ((t && t.id === 'approval-slot') || (target && target.id === 'approval-slot')) onSlotChanged();
  });
  document.addEventListener('DOMContentLoaded', onSlotChanged);
  if (document.readyState !== 'loading') onSlotChanged();
})();
