// Header and server list behaviour: the settings popover (aria-expanded,
// focus in and back, a stand-in where the browser has no popover), the
// summary's state filters kept in the page address, the name filter box,
// and the list's order (failing first, then by name) after live updates.
// Loaded with defer; no inline script, no eval.
(function () {
  'use strict';

  var ROW = '[data-testid="server-row"]';
  var FILTER_ABOVE = 10;
  var popoverSupported = typeof HTMLElement !== 'undefined' && Object.prototype.hasOwnProperty.call(HTMLElement.prototype, 'popover');

  function byId(id) { return document.getElementById(id); }

  // --- settings -------------------------------------------------------------

  function settingsButton() { return byId('settings-open'); }
  function settingsPanel() { return byId('settings-panel'); }

  function isOpen(panel) {
    if (!panel) return false;
    if (popoverSupported) {
      try { return panel.matches(':popover-open'); } catch (err) { return false; }
    }
    return panel.classList.contains('open');
  }

  // placeSettings pins the popover under its button, lined up with the
  // button's end edge: --settings-end feeds inset-inline-end, which is the
  // right in English and the left in a right-to-left page.
  function placeSettings(panel, btn) {
    var r = btn.getBoundingClientRect();
    var vw = document.documentElement.clientWidth;
    var end = getComputedStyle(panel).direction === 'rtl' ? r.left : vw - r.right;
    panel.style.setProperty('--settings-top', Math.round(r.bottom + 6) + 'px');
    panel.style.setProperty('--settings-end', Math.max(8, Math.round(end)) + 'px');
  }

  function onOpened(panel, btn) {
    btn.setAttribute('aria-expanded', 'true');
    placeSettings(panel, btn);
    var first = panel.querySelector('select, button, input');
    if (first) first.focus();
  }

  // onClosed gives focus back to the button unless the person moved it
  // elsewhere (a click outside the popover).
  function onClosed(panel, btn) {
    btn.setAttribute('aria-expanded', 'false');
    var a = document.activeElement;
    if (!a || a === document.body || panel.contains(a)) btn.focus();
  }

  function closeFallback(panel, btn) {
    if (!panel.classList.contains('open')) return;
    panel.classList.remove('open');
    onClosed(panel, btn);
  }

  function setUpSettings() {
    var btn = settingsButton(), panel = settingsPanel();
    if (!btn || !panel) return;
    if (popoverSupported) {
      // beforetoggle runs at once, so aria-expanded and the position are
      // right before the popover shows; toggle, queued after it, moves
      // focus once the controls can take it.
      panel.addEventListener('beforetoggle', function (e) {
        btn.setAttribute('aria-expanded', e.newState === 'open' ? 'true' : 'false');
        if (e.newState === 'open') placeSettings(panel, btn);
      });
      panel.addEventListener('toggle', function (e) {
        if (e.newState === 'open') onOpened(panel, btn);
        else onClosed(panel, btn);
      });
      return;
    }
    // No popover in this browser: the button toggles a class, Escape and a
    // click outside close it.
    btn.removeAttribute('popovertarget');
    btn.addEventListener('click', function () {
      if (panel.classList.contains('open')) {
        closeFallback(panel, btn);
      } else {
        panel.classList.add('open');
        onOpened(panel, btn);
      }
    });
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && panel.classList.contains('open')) {
        e.stopPropagation();
        panel.classList.remove('open');
        btn.setAttribute('aria-expanded', 'false');
        btn.focus();
      }
    }, true);
    document.addEventListener('pointerdown', function (e) {
      if (!panel.contains(e.target) && !btn.contains(e.target)) closeFallback(panel, btn);
    });
  }

  window.addEventListener('resize', function () {
    var panel = settingsPanel(), btn = settingsButton();
    if (panel && btn && isOpen(panel)) placeSettings(panel, btn);
  }, { passive: true });

  // --- state filter (header summary) ----------------------------------------

  function section() { return byId('servers'); }

  function currentFilter() {
    var s = section();
    return s ? (s.getAttribute('data-state-filter') || '') : '';
  }

  var FILTER_LINKS = '#header-summary a[data-group], a.filter-clear[data-group]';

  // hrefFor is the page address with the state filter set to group and
  // everything else (the call list's filters) kept.
  function hrefFor(group) {
    var params = new URLSearchParams(window.location.search);
    if (group) params.set('state', group);
    else params.delete('state');
    return '?' + params.toString();
  }

  // keepHrefs points every state link at the page's current address, so
  // opening one in a new tab keeps the call list's filters too; the
  // stream's summary and the call list's own replaceState do not.
  function keepHrefs() {
    var links = document.querySelectorAll(FILTER_LINKS);
    for (var i = 0; i < links.length; i++) {
      var h = hrefFor(links[i].getAttribute('data-group') || '');
      if (links[i].getAttribute('href') !== h) links[i].setAttribute('href', h);
    }
  }

  // markCurrent sets aria-current on the summary link of the filter in
  // force; the stream's summary does not know the page's address.
  function markCurrent() {
    var f = currentFilter();
    var links = document.querySelectorAll('#header-summary a[data-group]');
    for (var i = 0; i < links.length; i++) {
      if (links[i].getAttribute('data-group') === f) links[i].setAttribute('aria-current', 'true');
      else links[i].removeAttribute('aria-current');
    }
    keepHrefs();
  }

  // setFilter narrows the list to group ("" for all) and keeps the choice
  // in the page address beside whatever else it holds (the calls' filters).
  function setFilter(group) {
    var s = section();
    if (!s) return;
    s.setAttribute('data-state-filter', group);
    var q = hrefFor(group);
    window.history.replaceState(window.history.state, '', window.location.pathname + (q === '?' ? '' : q) + window.location.hash);
    markCurrent();
    applyFilters();
  }

  document.addEventListener('click', function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var a = e.target.closest && e.target.closest(FILTER_LINKS);
    if (!a || !section()) return;
    e.preventDefault();
    setFilter(a.getAttribute('data-group') || '');
  });

  // --- name filter and order ------------------------------------------------

  function rows() { return document.querySelectorAll('#server-list ' + ROW); }

  // applyFilters hides the rows whose name and target do not hold the
  // typed text, shows the filter box above FILTER_ABOVE servers (or while
  // it holds text), and says when nothing matches.
  function applyFilters() {
    var input = byId('server-filter'), box = byId('server-filter-box'), empty = byId('server-filter-empty');
    var all = rows();
    var q = input ? input.value.trim().toLowerCase() : '';
    var group = currentFilter();
    var shown = 0;
    for (var i = 0; i < all.length; i++) {
      var r = all[i];
      var target = r.querySelector('[data-testid="row-target"]');
      var hay = ((r.getAttribute('data-server') || '') + ' ' + (target ? target.textContent : '')).toLowerCase();
      var out = q !== '' && hay.indexOf(q) < 0;
      r.classList.toggle('filtered-out', out);
      if (!out && (!group || r.getAttribute('data-group') === group)) shown++;
    }
    if (box) box.hidden = all.length <= FILTER_ABOVE && q === '';
    if (empty) {
      var none = all.length > 0 && shown === 0;
      if (empty.hidden !== !none) empty.hidden = !none;
    }
  }

  function rank(r) { return Number(r.getAttribute('data-rank')) || 0; }
  function name(r) { return r.getAttribute('data-server') || ''; }

  function before(a, b) {
    if (rank(a) !== rank(b)) return rank(a) < rank(b);
    return name(a) < name(b);
  }

  // sortRows moves rows whose state changed to their place: failing
  // first, then by name, as the server renders them. Focus survives the
  // move.
  function sortRows() {
    var body = document.querySelector('#server-list tbody');
    if (!body) return;
    var list = Array.prototype.slice.call(body.querySelectorAll(':scope > ' + ROW));
    var sorted = true;
    for (var i = 1; i < list.length; i++) if (before(list[i], list[i - 1])) { sorted = false; break; }
    if (sorted) return;
    var focused = document.activeElement;
    list.sort(function (a, b) { return before(a, b) ? -1 : (before(b, a) ? 1 : 0); });
    for (var j = 0; j < list.length; j++) body.appendChild(list[j]);
    if (focused && focused !== document.activeElement && focused.isConnected) focused.focus({ preventScroll: true });
  }

  // The summary the stream sends replaces the old one's content in place,
  // so a focused count keeps focus.
  document.addEventListener('htmx:oobBeforeSwap', function (e) {
    var target = e.detail.target;
    if (!target || target.id !== 'header-summary') return;
    var next = e.detail.fragment && e.detail.fragment.firstElementChild;
    if (!next || next.id !== target.id) return;
    e.detail.shouldSwap = false;
    var focusedId = document.activeElement && target.contains(document.activeElement) ? document.activeElement.id : null;
    next.removeAttribute('hx-swap-oob');
    target.replaceChildren.apply(target, Array.prototype.slice.call(next.childNodes));
    markCurrent();
    if (focusedId && byId(focusedId)) byId(focusedId).focus({ preventScroll: true });
  });

  function afterUpdate() {
    sortRows();
    applyFilters();
    markCurrent();
  }

  document.addEventListener('htmx:sseMessage', afterUpdate);
  // The call list changes the address with replaceState, which fires no
  // event: refresh the links before one is used.
  ['pointerover', 'focusin'].forEach(function (type) {
    document.addEventListener(type, function (e) {
      if (e.target && e.target.closest && e.target.closest(FILTER_LINKS)) keepHrefs();
    }, { passive: true });
  });
  document.addEventListener('input', function (e) {
    if (e.target && e.target.id === 'server-filter') applyFilters();
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && e.target && e.target.id === 'server-filter' && e.target.value !== '') {
      e.target.value = '';
      applyFilters();
    }
  });

  function start() {
    setUpSettings();
    afterUpdate();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
