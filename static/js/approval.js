// approval.js: the project server approval dialog, swapped into
// #approval-slot by the page event stream. When a dialog appears (or
// shows another server) focus moves to Reject, the safe answer. Tab is
// trapped inside. "Decide later", and Escape, never decide: they hide the
// dialog in this page and give focus back to where it was, while the
// server stays blocked. The same server with the same config fingerprint
// stays hidden however often the stream sends it again; a changed config
// or a reload asks again. The key handlers run in the
// capture phase so the drawer's Escape and Tab handling never sees keys
// meant for the dialog. When the dialog shown for a server is replaced by
// one with another config fingerprint (the file changed), its note saying
// so is revealed; a refused decision (409) swaps in the new dialog itself.
// Whenever a dialog follows one with another fingerprint (another
// server's, or the same server's changed config), its buttons are disabled
// for GUARD_MS, so a click or Enter meant for the old config can never
// answer the new one; focus waits on the dialog's body meanwhile and moves
// to Reject when the buttons come back.
(function () {
  'use strict';

  var GUARD_MS = 1000;
  var shown = '';
  var shownPrint = '';
  var guardUntil = 0;
  var guardTimer = 0;
  var guardMovedFocus = false;
  // later holds server + "\n" + fingerprint of each dialog put off in this
  // page; opener is what had focus before a dialog took it.
  var later = {};
  var opener = null;

  function rawDialog() {
    return document.querySelector('#approval-slot [data-testid="approval-dialog"]');
  }

  function laterKey(d) {
    return (d.getAttribute('data-server') || '') + '\n' + (d.getAttribute('data-fingerprint') || '');
  }

  // dialog is the dialog on show, or null when there is none or the
  // person put it off.
  function dialog() {
    var d = rawDialog();
    return d && !d.hidden ? d : null;
  }

  // hide hides d and its backdrop without answering.
  function hide(d) {
    d.hidden = true;
    var backdrop = document.querySelector('#approval-slot [data-testid="approval-backdrop"]');
    if (backdrop) backdrop.hidden = true;
  }

  // postpone puts d off until its config changes, and gives focus back to
  // where it was, or to the server's chip in the server list.
  function postpone(d) {
    later[laterKey(d)] = true;
    var name = d.getAttribute('data-server') || '';
    hide(d);
    shown = '';
    var back = opener && opener.isConnected && opener !== document.body ? opener : null;
    if (!back) {
      back = Array.prototype.find.call(document.querySelectorAll('#server-list [data-testid="status-chip"]'), function (c) {
        return c.getAttribute('data-server') === name;
      });
      back = back && (back.querySelector('button') || back);
    }
    opener = null;
    if (back && back.focus) back.focus();
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

  function body(d) {
    return d.querySelector('[data-testid="approval-body"]');
  }

  // answers are the dialog's decision buttons, disabled or not.
  function answers(d) {
    return d.querySelectorAll('[data-testid="approval-approve"], [data-testid="approval-reject"]');
  }

  // focusFirst puts focus on Reject, or on the body while the buttons are
  // held back. Focus coming from outside the dialog is remembered, to be
  // given back when the person puts the dialog off.
  function focusFirst(d) {
    var active = document.activeElement;
    if (active && active !== document.body && !d.contains(active)) opener = active;
    var reject = d.querySelector('[data-testid="approval-reject"]');
    var first = (reject && !reject.disabled ? reject : null) || body(d);
    if (first) first.focus();
  }

  // holdAnswers disables the decision buttons of d until guardUntil; a
  // dialog swapped in again meanwhile is held for the time that is left.
  function holdAnswers(d) {
    Array.prototype.forEach.call(answers(d), function (b) {
      b.disabled = true;
      b.setAttribute('aria-disabled', 'true');
    });
    if (d.contains(document.activeElement) && document.activeElement !== body(d)) return;
    var b = body(d);
    if (b) {
      b.focus();
      guardMovedFocus = true;
    }
  }

  function releaseAnswers() {
    guardTimer = 0;
    var d = dialog();
    if (!d) return;
    var wait = guardUntil - Date.now();
    if (wait > 0) {
      guardTimer = window.setTimeout(releaseAnswers, wait);
      return;
    }
    Array.prototype.forEach.call(answers(d), function (b) {
      b.disabled = false;
      b.removeAttribute('aria-disabled');
    });
    var moved = guardMovedFocus;
    guardMovedFocus = false;
    var active = document.activeElement;
    if (!d.contains(active) || (moved && active === body(d))) focusFirst(d);
  }

  // onSlotChanged focuses the first button of a dialog that is new or asks
  // about another server; an unchanged dialog keeps the person's focus.
  function onSlotChanged() {
    var d = rawDialog();
    if (d && later[laterKey(d)]) hide(d);
    d = dialog();
    var key = d ? d.getAttribute('data-server') || '' : '';
    if (!d) {
      // shownPrint stays: a dialog coming right after this one (the next
      // pending server, say) is held too, against a double click.
      shown = '';
      return;
    }
    var print = d.getAttribute('data-fingerprint') || '';
    if (shownPrint && print !== shownPrint) {
      guardUntil = Date.now() + GUARD_MS;
      if (key === shown) {
        var note = d.querySelector('[data-testid="approval-changed"]');
        if (note) note.hidden = false;
      }
    }
    shownPrint = print;
    var held = Date.now() < guardUntil;
    if (held) {
      holdAnswers(d);
      if (!guardTimer) guardTimer = window.setTimeout(releaseAnswers, guardUntil - Date.now());
    }
    if (key === shown && d.contains(document.activeElement)) return;
    shown = key;
    focusFirst(d);
  }

  window.addEventListener('keydown', function (e) {
    var d = dialog();
    if (!d) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopImmediatePropagation();
      postpone(d);
      return;
    }
    var items = focusables(d);
    if (e.key !== 'Tab' || items.length === 0) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    var i = items.indexOf(document.activeElement);
    var next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
    items[next].focus();
  }, true);

  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('#approval-slot [data-testid="approval-later"]');
    var d = dialog();
    if (b && d && d.contains(b)) postpone(d);
  });

  // A click elsewhere on the page must not leave focus behind the modal.
  document.addEventListener('focusin', function (e) {
    var d = dialog();
    var toast = document.getElementById('toast');
    if (!d || d.contains(e.target) || (toast && toast.contains(e.target))) return;
    focusFirst(d);
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
