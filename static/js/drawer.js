// Switchboard drawer behaviour: the server drawer is loaded by htmx into
// #drawer-slot. From 1200 px up it docks as a non-modal right column (no
// scrim, no focus trap, the page narrowed beside it); below that it is a
// modal dialog. This script moves focus into it, traps Tab inside it when
// it is modal (and inside the remove confirmation), closes it on Escape,
// the close button or the backdrop and gives focus back to the chip that
// opened it, moves between list items with the arrow keys, keeps stderr
// scrolled to the end, reloads the lists when the event stream's header
// says the state changed. workbench-loader.js loads it with the first
// drawer, not with the page; no inline script, no eval.
(function () {
  'use strict';

  var SLOT = 'drawer-slot';
  var DRAWER = '[data-testid="drawer"]';
  var HEADER = '[data-testid="drawer-header"]';
  var CAPS = '[data-testid="drawer-caps"]';
  var ACTIONS = '[data-testid="drawer-actions"]';
  var CONFIRM = '[data-testid="confirm-dialog"]';
  var FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), ' +
    'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

  // opener is the element that asked for the drawer, and openerServer the
  // server it belongs to, to find its chip again if the event stream
  // replaced the element meanwhile.
  var opener = null;
  var openerServer = null;
  // openSections remembers which capability sections a person opened or
  // closed, so reloading the lists after a reconnect keeps them as left.
  var openSections = {};
  // liveBusy is true while the lists are being reloaded.
  var liveBusy = false;

  // DOCKED is the width from which the drawer is a column beside the page
  // rather than a dialog over it; drawer.css uses the same breakpoint.
  var DOCKED = window.matchMedia ? window.matchMedia('(min-width: 1200px)') : null;
  function docked() { return !!(DOCKED && DOCKED.matches); }

  function slot() { return document.getElementById(SLOT); }
  function drawer() { var s = slot(); return s ? s.querySelector(DRAWER) : null; }
  function confirmDialog() { var d = drawer(); return d ? d.querySelector(CONFIRM) : null; }

  function visible(el) {
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  function focusables(root) {
    var all = root.querySelectorAll(FOCUSABLE);
    var out = [];
    for (var i = 0; i < all.length; i++) {
      // Items of a closed <details> and the inert page are not reachable.
      if (visible(all[i]) && !all[i].closest('[inert]')) out.push(all[i]);
    }
    return out;
  }

  // setInert makes everything but the drawer and the toast unreachable
  // while a modal drawer is open, for screen readers that ignore
  // aria-modal. A docked drawer leaves the page usable: nothing is inert,
  // and the page is narrowed (html.drawer-docked) so nothing hides behind
  // the column.
  function setInert(on) {
    var modal = on && !docked();
    var kids = document.body.children;
    for (var i = 0; i < kids.length; i++) {
      var k = kids[i];
      if (k.id === SLOT || k.id === 'toast' || k.tagName === 'SCRIPT') continue;
      if (modal) k.setAttribute('inert', '');
      else k.removeAttribute('inert');
    }
    var root = document.documentElement;
    root.classList.toggle('drawer-open', modal);
    root.classList.toggle('drawer-docked', on && !modal);
    var d = drawer();
    if (d) d.setAttribute('aria-modal', modal ? 'true' : 'false');
  }

  // Crossing the breakpoint with a drawer open switches it between the
  // column and the dialog.
  if (DOCKED) {
    var onWidth = function () { if (drawer()) setInert(true); };
    if (DOCKED.addEventListener) DOCKED.addEventListener('change', onWidth);
    else if (DOCKED.addListener) DOCKED.addListener(onWidth);
  }

  function serverOf(el) {
    var s = el && el.closest ? el.closest('[data-server]') : null;
    return s ? s.getAttribute('data-server') : null;
  }

  // chipButtonFor finds a server's chip button by name, comparing the
  // attribute rather than building a selector from an untrusted name.
  function chipButtonFor(name) {
    var buttons = document.querySelectorAll('[data-testid="chip-button"]');
    for (var i = 0; i < buttons.length; i++) {
      if (serverOf(buttons[i]) === name) return buttons[i];
    }
    return null;
  }

  function returnFocus() {
    var target = opener && opener.isConnected ? opener : null;
    if (!target && openerServer !== null) target = chipButtonFor(openerServer);
    if (!target) target = document.querySelector('[data-testid="chip-button"]') || document.getElementById('main');
    opener = null;
    openerServer = null;
    if (target) {
      if (!target.hasAttribute('tabindex') && !target.matches(FOCUSABLE)) target.setAttribute('tabindex', '-1');
      target.focus();
    }
  }

  function closeDrawer() {
    var s = slot();
    if (!s) return;
    s.replaceChildren();
    onEmptied();
  }

  // onEmptied runs when the slot lost its drawer, by Escape or by a
  // successful remove emptying it.
  function onEmptied() {
    setInert(false);
    returnFocus();
  }

  function onOpened(elt) {
    var d = drawer();
    if (!d) return;
    if (elt && !d.contains(elt)) {
      opener = elt;
      openerServer = serverOf(elt);
    }
    setInert(true);
    triedStamp = null;
    toolQuery = '';
    prepareNew(d);
    var first = d.querySelector('[data-testid="drawer-close"]') || d.querySelector('.drawer-title');
    if (first) first.focus();
  }

  function closeConfirm() {
    var c = confirmDialog();
    if (!c) return;
    var host = c.parentElement;
    host.replaceChildren();
    var remove = drawer() && drawer().querySelector('[data-testid="action-remove"]');
    if (remove) remove.focus();
  }

  // --- keyboard ------------------------------------------------------------

  function trapTab(e, root) {
    var items = focusables(root);
    if (!items.length) {
      e.preventDefault();
      return;
    }
    var first = items[0], last = items[items.length - 1];
    var inside = root.contains(document.activeElement);
    if (e.shiftKey && (document.activeElement === first || !inside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
      e.preventDefault();
      first.focus();
    }
  }

  // moveInList gives the roving tabindex to another item of the focused
  // list, so Tab leaves the list and the arrows walk it.
  function moveInList(e) {
    var item = e.target.closest ? e.target.closest('[data-roving] > li') : null;
    if (!item || item !== e.target) return false;
    var list = item.parentElement;
    var items = Array.prototype.filter.call(list.children, function (li) { return li.hasAttribute('tabindex') && !li.hidden; });
    var i = items.indexOf(item), next = -1;
    switch (e.key) {
      case 'ArrowDown': next = Math.min(i + 1, items.length - 1); break;
      case 'ArrowUp': next = Math.max(i - 1, 0); break;
      case 'Home': next = 0; break;
      case 'End': next = items.length - 1; break;
      default: return false;
    }
    e.preventDefault();
    if (next === i) return true;
    item.setAttribute('tabindex', '-1');
    items[next].setAttribute('tabindex', '0');
    items[next].focus();
    return true;
  }

  document.addEventListener('keydown', function (e) {
    var d = drawer();
    if (!d) return;
    // A docked drawer is one part of the page: its keys act only while
    // focus is inside it, so Escape elsewhere (a tooltip, a menu) is left
    // to its own element.
    if (docked() && !d.contains(e.target)) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      if (confirmDialog()) closeConfirm();
      else closeDrawer();
      return;
    }
    if (e.key === 'Tab') {
      if (confirmDialog()) trapTab(e, confirmDialog());
      else if (!docked()) trapTab(e, d);
      return;
    }
    if (d.contains(e.target)) moveInList(e);
  });

  document.addEventListener('click', function (e) {
    var t = e.target.closest ? e.target : e.target.parentElement;
    if (!t) return;
    if (t.closest('[data-drawer-close]') && slot() && slot().contains(t)) {
      closeDrawer();
    } else if (t.closest('[data-confirm-cancel]')) {
      closeConfirm();
    } else if (t.closest('[data-toast-dismiss]')) {
      // toast.js empties the toast; focus stays in the drawer.
      var d = drawer();
      if (d) onOpenedFocusBack(d);
    }
  });

  // onOpenedFocusBack keeps focus inside an open drawer after the toast's
  // dismiss button, outside it, took focus and went away.
  function onOpenedFocusBack(d) {
    var first = d.querySelector('[data-testid="drawer-close"]');
    if (first) first.focus();
  }

  // Opening or closing a section is remembered for later reloads.
  document.addEventListener('toggle', function (e) {
    var el = e.target;
    if (el.tagName === 'DETAILS' && el.closest(DRAWER) && el.hasAttribute('data-testid')) {
      openSections[el.getAttribute('data-testid')] = el.open;
    }
  }, true);

  // --- htmx ----------------------------------------------------------------

  // Error answers swap into the toast by toast.js, which the page loads
  // before this script (lazily, with the first drawer).

  // A later action that worked makes an old failure's toast obsolete.
  document.addEventListener('htmx:afterRequest', function (e) {
    var elt = e.detail.elt, xhr = e.detail.xhr;
    if (!xhr || xhr.status >= 400 || !elt || !elt.closest || !elt.closest(DRAWER)) return;
    var toast = document.getElementById('toast');
    if (toast && toast.firstChild) toast.replaceChildren();
  });

  // A header older than the one shown is dropped: a command's answer can
  // arrive after the event stream already sent a newer snapshot.
  document.addEventListener('htmx:oobBeforeSwap', function (e) {
    var target = e.detail.target;
    if (!target || !target.matches || !target.matches(HEADER)) return;
    var frag = e.detail.fragment;
    var next = frag && (frag.matches && frag.matches(HEADER) ? frag : frag.querySelector && frag.querySelector(HEADER));
    if (!next) return;
    var have = Number(target.getAttribute('data-version')) || 0;
    var got = Number(next.getAttribute('data-version')) || 0;
    if (got < have) e.detail.shouldSwap = false;
  });

  // The action row depends on the state alone. The event stream sends it
  // with every snapshot, but one of the state already shown is not swapped
  // (a keyboard user on Restart keeps focus), and one older than the shown
  // one (a live reload that crossed a newer snapshot) is dropped.
  document.addEventListener('htmx:oobBeforeSwap', function (e) {
    var target = e.detail.target;
    if (!target || !target.matches || !target.matches(ACTIONS)) return;
    var frag = e.detail.fragment;
    var next = frag && (frag.matches && frag.matches(ACTIONS) ? frag : frag.querySelector && frag.querySelector(ACTIONS));
    if (!next) return;
    var have = Number(target.getAttribute('data-version')) || 0;
    var got = Number(next.getAttribute('data-version')) || 0;
    if (got < have) {
      e.detail.shouldSwap = false;
    } else if (next.getAttribute('data-state') === target.getAttribute('data-state')) {
      e.detail.shouldSwap = false;
      target.setAttribute('data-version', String(got));
    }
  });

  // A drawer whose server is gone (removed from another page, or from the
  // settings file) closes when the event stream's full state no longer
  // lists it, instead of offering actions on nothing.
  document.addEventListener('htmx:sseMessage', function () {
    var d = drawer();
    if (!d) return;
    var name = d.getAttribute('data-server');
    var chips = document.querySelectorAll('#server-list [data-testid="status-chip"]');
    for (var i = 0; i < chips.length; i++) if (chips[i].getAttribute('data-server') === name) return;
    closeDrawer();
  });

  document.addEventListener('htmx:afterSwap', function (e) {
    var target = e.detail.target;
    if (!target) return;
    if (target.id === SLOT) {
      if (drawer()) onOpened(e.detail.requestConfig && e.detail.requestConfig.elt);
      else onEmptied();
      return;
    }
    if (target.id === 'toast' && confirmDialog()) {
      // A failed remove: the question is answered, the toast says why.
      closeConfirm();
      return;
    }
    var c = target.querySelector && target.querySelector(CONFIRM);
    if (c) {
      var no = c.querySelector('[data-testid="confirm-no"]');
      if (no) no.focus();
      return;
    }
    // A refused settings form: put the person on the field to fix. The
    // event names the form that was replaced; its successor has its id.
    if (target.matches && target.matches('[data-testid="drawer-settings"]')) {
      var form = document.getElementById(target.id) || target;
      var bad = form.querySelector('[aria-invalid="true"]');
      if (bad) bad.focus();
    }
  });

  // reloadLive fetches the lists, actions and stderr again when the
  // header, re-rendered by the event stream, names another state or sync
  // than the lists were rendered from (a reconnect reloads capabilities).
  // Each header stamp is tried once, so a page whose stream is down does
  // not loop on a header older than the server's answer.
  var triedStamp = null;
  function reloadLive() {
    var d = drawer();
    if (!d || liveBusy || !window.htmx) return;
    var header = d.querySelector(HEADER), caps = d.querySelector(CAPS);
    if (!header || !caps) return;
    var stamp = header.getAttribute('data-stamp');
    if (stamp === caps.getAttribute('data-stamp') || stamp === triedStamp) return;
    var url = caps.getAttribute('data-live-url');
    if (!url) return;
    liveBusy = true;
    triedStamp = stamp;
    var done = function () {
      liveBusy = false;
      schedule(); // a snapshot that arrived meanwhile is caught up now
    };
    window.htmx.ajax('GET', url, { target: caps, swap: 'outerHTML' }).then(done, done);
  }

  // --- tool search ---------------------------------------------------------

  // toolQuery is what the person typed in the tool search, kept across
  // reloads of the lists (which replace the box).
  var toolQuery = '';

  // filterTools hides the tool rows that do not match the query (name,
  // title or description, any case) and keeps the list's roving tab stop
  // on a shown row.
  function filterTools(d) {
    var list = d.querySelector('[data-testid="tool-list"]');
    if (!list) return;
    var q = toolQuery.trim().toLowerCase();
    var rows = list.querySelectorAll(':scope > [data-testid="tool-item"]');
    var shown = [], stop = null;
    for (var i = 0; i < rows.length; i++) {
      var hit = q === '' || (rows[i].getAttribute('data-search') || '').indexOf(q) !== -1;
      rows[i].hidden = !hit;
      if (hit) shown.push(rows[i]);
      if (hit && rows[i].getAttribute('tabindex') === '0') stop = rows[i];
    }
    if (!stop && shown.length) {
      for (var j = 0; j < rows.length; j++) if (rows[j].hasAttribute('tabindex')) rows[j].setAttribute('tabindex', '-1');
      shown[0].setAttribute('tabindex', '0');
    }
    var none = d.querySelector('[data-testid="tool-search-none"]');
    if (none) none.hidden = shown.length > 0;
  }

  document.addEventListener('input', function (e) {
    var box = e.target;
    if (!box.matches || !box.matches('[data-tool-search]')) return;
    var d = box.closest(DRAWER);
    if (!d) return;
    toolQuery = box.value;
    filterTools(d);
  });

  // --- a tool's running call on its row ------------------------------------

  // mirrorRuns shows, on each tool's row, the progress numbers of a call
  // of that tool running in this drawer (under the run form or among the
  // recent calls) and Cancel in place of Run; the row's Cancel presses the
  // card's own.
  function mirrorRuns(d) {
    var running = {};
    var cards = d.querySelectorAll('[data-testid="invocation-card"]');
    for (var i = 0; i < cards.length; i++) {
      var st = cards[i].getAttribute('data-status');
      if (st !== 'running' && st !== 'pending') continue;
      var tool = cards[i].getAttribute('data-tool');
      // A card under the run form wins over an older one in the list.
      if (!running[tool] || cards[i].closest('[data-run-card-slot]')) running[tool] = cards[i];
    }
    var rows = d.querySelectorAll('[data-testid="tool-item"]');
    for (var j = 0; j < rows.length; j++) {
      var row = rows[j], card = running[row.getAttribute('data-tool')] || null;
      var progress = row.querySelector('[data-testid="tool-progress"]');
      var run = row.querySelector('[data-testid="tool-run"]');
      var cancel = row.querySelector('[data-testid="tool-cancel"]');
      var text = '';
      if (card) {
        var p = card.querySelector('[data-testid="invocation-progress-text"]');
        text = p ? p.textContent.trim() : '';
        if (!text) {
          var badge = card.querySelector('[data-testid="invocation-badge"]');
          text = badge ? badge.textContent.trim() : '';
        }
      }
      if (progress) {
        if (progress.textContent !== text) progress.textContent = text;
        progress.hidden = !card;
      }
      var canCancel = !!(card && card.querySelector('[data-testid="invocation-cancel"]'));
      if (cancel) {
        cancel.hidden = !canCancel;
        if (canCancel) cancel.setAttribute('data-invocation', card.getAttribute('data-invocation'));
      }
      if (run) {
        // Focus on Run moves to Cancel as it swaps, and back.
        var had = document.activeElement === run || document.activeElement === cancel;
        run.hidden = canCancel;
        if (had) (canCancel ? cancel : run).focus();
      }
      if (card) row.setAttribute('data-running', '');
      else row.removeAttribute('data-running');
    }
  }

  document.addEventListener('click', function (e) {
    var btn = e.target.closest ? e.target.closest('[data-tool-cancel]') : null;
    var d = btn && btn.closest(DRAWER);
    if (!d) return;
    var id = btn.getAttribute('data-invocation');
    var cards = d.querySelectorAll('[data-testid="invocation-card"]');
    for (var i = 0; i < cards.length; i++) {
      if (cards[i].getAttribute('data-invocation') !== id) continue;
      var stop = cards[i].querySelector('[data-testid="invocation-cancel"]');
      if (stop) stop.click();
      return;
    }
  });

  // seen holds the elements already prepared, so the checks that run on
  // every change (a relative time ticking included) touch only new ones:
  // stderr a person scrolled up stays where it is.
  var seen = new WeakSet();
  function prepareNew(d) {
    var box = d.querySelector('[data-tool-search]');
    if (box && !seen.has(box)) {
      seen.add(box);
      if (toolQuery !== '') {
        box.value = toolQuery;
        filterTools(d);
      }
    }
    var ds = d.querySelectorAll('details[data-testid]');
    for (var i = 0; i < ds.length; i++) {
      if (seen.has(ds[i])) continue;
      seen.add(ds[i]);
      var key = ds[i].getAttribute('data-testid');
      if (Object.prototype.hasOwnProperty.call(openSections, key)) ds[i].open = openSections[key];
    }
    var pres = d.querySelectorAll('[data-testid="stderr"]');
    for (var j = 0; j < pres.length; j++) {
      if (seen.has(pres[j])) continue;
      seen.add(pres[j]);
      pres[j].scrollTop = pres[j].scrollHeight;
    }
  }

  var scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    Promise.resolve().then(function () {
      scheduled = false;
      var d = drawer();
      if (!d) return;
      prepareNew(d);
      reloadLive();
      mirrorRuns(d);
    });
  }

  function start() {
    var s = slot();
    if (!s) return;
    // Whatever changes the drawer (the event stream, a command's answer,
    // a reload) passes here, so the checks do not depend on which htmx
    // event fired where.
    new MutationObserver(schedule).observe(s, { childList: true, subtree: true });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
