// calls.js runs the page's compact call list (views/calls.templ): a row's
// button opens the call's card under it, new rows arriving on the page
// stream never move what the person is reading (the rows below the top
// are pinned, and a "N new calls" button offers the new ones), and times
// are shown in the reader's own clock. Everything it needs is in the
// markup; no English here.
(function () {
  'use strict';

  var open = new Set(); // ids of calls whose card is open
  var fresh = 0; // rows that arrived above the reader since they last looked

  function list() { return document.getElementById('calls-list'); }
  function newButton() { return document.querySelector('[data-testid="calls-new"]'); }

  // scrolledPast reports whether the list's top is above the viewport, so
  // the reader is somewhere down in it.
  function scrolledPast() {
    var l = list();
    return !!l && l.getBoundingClientRect().top < 0;
  }

  function slotOf(id) { return document.getElementById('callcard-' + id); }
  function rowOf(id) { return document.getElementById('callrow-' + id); }
  function toggleOf(id) {
    var row = rowOf(id);
    return row && row.querySelector('.call-toggle');
  }

  // workbench resolves once a card's scripts and stylesheet are in the page
  // (workbench-loader.js), whether or not it could be loaded.
  function workbench() {
    var wb = window.switchboardWorkbench;
    return (wb ? wb() : Promise.resolve()).catch(function () {});
  }

  function load(id, url, again) {
    if (!slotOf(id) || !url || !window.htmx) { return; }
    workbench().then(function () {
      // The card may have been closed, or its row redrawn, while its
      // styles were on the way.
      var slot = slotOf(id);
      if (!open.has(id) || !slot) { return; }
      // The slot is the request's source too: htmx keeps one request per
      // source, so cards opened quickly one after another all load.
      window.htmx.ajax('GET', url, { source: slot, target: slot, swap: 'innerHTML' }).then(function () {
        // The call may have changed while the card was on its way, its own
        // event sent before the card could listen: a card behind its row
        // loads once more.
        if (!again && behind(id)) { load(id, url, true); }
      });
    });
  }

  // behind reports whether id's open card shows an older version of the
  // call than its row (a question asked, progress, an end), which happens
  // when the change's own event left before the card was listening.
  function behind(id) {
    var row = rowOf(id), slot = slotOf(id);
    var card = slot && slot.querySelector('[data-testid="invocation-card"]');
    if (!row || !card) { return false; }
    return Number(card.dataset.version || 0) < Number(row.dataset.version || 0);
  }

  function expand(id) {
    var btn = toggleOf(id), slot = slotOf(id);
    if (!btn || !slot) { return; }
    open.add(id);
    btn.setAttribute('aria-expanded', 'true');
    slot.hidden = false;
    if (!slot.firstElementChild) { load(id, btn.dataset.cardUrl); }
  }

  function collapse(id) {
    var btn = toggleOf(id), slot = slotOf(id);
    open.delete(id);
    if (btn) { btn.setAttribute('aria-expanded', 'false'); }
    // Emptying the slot also stops its card listening to the stream.
    if (slot) { slot.hidden = true; slot.textContent = ''; }
  }

  document.addEventListener('click', function (e) {
    var btn = e.target.closest && e.target.closest('.call-toggle');
    if (btn) {
      var id = btn.closest('.call-row').dataset.invocation;
      if (btn.getAttribute('aria-expanded') === 'true') { collapse(id); } else { expand(id); }
      return;
    }
    var nb = e.target.closest && e.target.closest('[data-testid="calls-new"]');
    if (nb) {
      var title = document.getElementById('calls-title');
      if (title) { title.scrollIntoView({ block: 'start' }); }
      seen();
    }
  });

  // seen hides the button and the new rows' highlight once the reader is
  // back at the top of the list.
  function seen() {
    fresh = 0;
    var b = newButton();
    if (b) { b.hidden = true; }
    document.querySelectorAll('.call.call-fresh').forEach(function (li) { li.classList.remove('call-fresh'); });
  }

  // pluralText words n with the template of its plural category: the page
  // holds one per probe count, and the probe in n's category (by the
  // browser's CLDR rules for the page's language) lends its template.
  function pluralText(b, n) {
    var forms = {};
    try { forms = JSON.parse(b.dataset.plural || '{}'); } catch (e) { forms = {}; }
    var rules = new Intl.PluralRules(document.documentElement.lang || undefined);
    var cat = rules.select(n);
    var probe = Object.keys(forms).filter(function (p) { return rules.select(Number(p)) === cat; })[0];
    var t = forms[probe] || forms['100'] || '';
    return t.split(b.dataset.sentinel).join(new Intl.NumberFormat(document.documentElement.lang || undefined).format(n));
  }

  function showNew(n) {
    var b = newButton();
    if (!b) { return; }
    b.textContent = pluralText(b, n);
    b.hidden = false;
  }

  window.addEventListener('scroll', function () {
    if (fresh > 0 && !scrolledPast()) { seen(); }
  }, { passive: true });

  // firstVisible is the row at the top of the viewport, the one to keep
  // still while rows arrive above it.
  function firstVisible(l) {
    var rows = l.querySelectorAll(':scope > .call');
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i].getBoundingClientRect();
      if (r.bottom > 0) { return { el: rows[i], top: r.top }; }
    }
    return null;
  }

  // A new call's row comes as an out-of-band insert at the top of the
  // list. calls.js puts it in itself (htmx reports no new elements for an
  // insert), so it can keep the row being read where it was and count
  // the rows that arrived above the reader.
  document.addEventListener('htmx:oobBeforeSwap', function (e) {
    var d = e.detail, t = d && d.target;
    if (!t || t.id !== 'calls-list' || !d.fragment) { return; }
    // A whole list comes as a document fragment holding it; an insert as
    // the <ol> whose rows go on top.
    if (!d.fragment.dataset || d.fragment.dataset.callsInsert !== 'top') { keepOpen(d.fragment); return; }
    d.shouldSwap = false;
    var past = scrolledPast();
    var a = past ? firstVisible(t) : null;
    var items = Array.prototype.slice.call(d.fragment.children);
    var first = t.firstChild;
    items.forEach(function (li) {
      var old = document.getElementById(li.id);
      if (old) { old.remove(); }
      t.insertBefore(li, first);
      localize(li);
      if (past) { li.classList.add('call-fresh'); }
    });
    if (a) {
      var now = a.el.getBoundingClientRect().top;
      if (now !== a.top) { window.scrollBy(0, now - a.top); }
    }
    if (past) { fresh += items.length; showNew(fresh); }
  });

  // keepOpen moves each open card into the whole list that is about to
  // replace the shown one (the stream reconnected), so what the person
  // typed into a card's question, and their focus, survive the redraw.
  var refocus = null; // what had focus inside a kept card, with its selection

  function keepOpen(fragment) {
    var a = document.activeElement;
    refocus = null;
    if (a && a.closest && a.closest('.call-card')) {
      refocus = { el: a, start: a.selectionStart, end: a.selectionEnd };
    }
    open.forEach(function (id) {
      var old = slotOf(id), slot = fragment.querySelector('#callcard-' + id);
      if (!old || !slot || !old.firstElementChild) { return; }
      while (old.firstChild) { slot.appendChild(old.firstChild); }
    });
  }

  document.addEventListener('htmx:oobAfterSwap', function (e) {
    var el = e.target;
    if (!el || !el.classList) { return; }
    if (el.id === 'calls-list') {
      // A full list after a reconnect: reopen what the reader had open,
      // and reload a kept card that missed changes while the stream was
      // down.
      Array.from(open).forEach(function (id) {
        if (!slotOf(id)) { open.delete(id); return; }
        expand(id);
        var btn = toggleOf(id);
        if (btn && behind(id)) { load(id, btn.dataset.cardUrl); }
      });
      // Moving a node drops its focus; give it back where it was.
      var f = refocus;
      refocus = null;
      if (f && f.el.isConnected && document.activeElement !== f.el) {
        f.el.focus({ preventScroll: true });
        if (f.start != null && f.el.setSelectionRange) {
          try { f.el.setSelectionRange(f.start, f.end); } catch (err) { /* not a text field */ }
        }
      }
    }
    if (el.classList.contains('call-row')) { rowChanged(el); }
  });

  // rowChanged keeps a replaced row's button in step with its open card,
  // reloads a card that missed its own event, and says the new status.
  function rowChanged(row) {
    var id = row.dataset.invocation;
    var slot = slotOf(id);
    if (!open.has(id) || !slot) { return; }
    var btn = row.querySelector('.call-toggle');
    btn.setAttribute('aria-expanded', 'true');
    // The card's own event follows the row's on the stream; a card still
    // behind a moment later missed it.
    setTimeout(function () {
      if (open.has(id) && behind(id)) { load(id, btn.dataset.cardUrl); }
    }, 500);
    var region = document.getElementById('activity-feed-status');
    var badge = row.querySelector('[data-testid="call-row-status"]'), tool = row.querySelector('[data-testid="call-row-tool"]');
    if (region && badge && tool) { region.textContent = tool.textContent + ': ' + badge.textContent.trim(); }
  }

  // localize shows each <time data-local> in the reader's clock: hms for a
  // call's start, hm for a minute; a day other than today adds the date.
  function localize(root) {
    if (!root || !root.querySelectorAll) { return; }
    var times = root.matches && root.matches('time[data-local]') ? [root] : root.querySelectorAll('time[data-local]');
    var today = new Date().toDateString();
    times.forEach(function (t) {
      var d = new Date(t.getAttribute('datetime'));
      if (isNaN(d.getTime())) { return; }
      var o = { hour: '2-digit', minute: '2-digit', hour12: false };
      if (t.dataset.local === 'hms') { o.second = '2-digit'; }
      if (d.toDateString() !== today) { o.month = 'short'; o.day = 'numeric'; }
      t.textContent = d.toLocaleString(document.documentElement.lang || undefined, o);
    });
  }

  document.addEventListener('htmx:load', function (e) { localize(e.target); });
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', function () { localize(document.body); });
  } else {
    localize(document.body);
  }
})();
