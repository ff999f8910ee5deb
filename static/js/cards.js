// Tool invocation cards: copy buttons, argument views, "Show more", the
// full-size image overlay, Edit and re-run (the run form, filled, in the
// server's drawer), start times in the reader's zone, a running call's
// elapsed seconds beside its progress numbers, and keeping a person's
// open/closed choices across the live swaps that replace a card on every
// change.
(function () {
  'use strict';

  // touched remembers, per card id and section, the open state a person
  // chose; the server's default (result open on success) wins otherwise.
  var touched = new Map();

  function key(details) {
    var card = details.closest('[data-testid="invocation-card"]');
    return card && card.id ? card.id + '/' + details.dataset.part : null;
  }

  document.addEventListener('click', function (e) {
    var head = e.target.closest('.inv-card [data-args-head]');
    // The header opens and closes the arguments, from its tool-name button
    // or anywhere on it that is not another control (Retry, a link).
    if (head && (e.target.closest('[data-args-head-toggle]') || !e.target.closest('a, button, input, select, textarea, summary'))) {
      toggleFromHead(head);
      return;
    }
    var summary = e.target.closest('.inv-card details[data-part] > summary');
    if (summary) {
      var d = summary.parentElement;
      var k = key(d);
      // The click toggles after this handler; record the state to come.
      if (k) { touched.set(k, !d.open); }
      return;
    }
    var edit = e.target.closest('[data-edit-url]');
    if (edit) { editRerun(edit); return; }
    var copy = e.target.closest('[data-copy-url]');
    if (copy) { copyFrom(copy); return; }
    var toggle = e.target.closest('[data-args-toggle]');
    if (toggle) { toggleArgs(toggle); return; }
    var expand = e.target.closest('[data-expand]');
    if (expand) { expandNear(expand); return; }
    var img = e.target.closest('[data-image-open]');
    if (img) { openOverlay(img); }
  });

  function toggleFromHead(head) {
    var card = head.closest('[data-testid="invocation-card"]');
    var d = card && card.querySelector('details[data-part="args"]');
    if (!d) { return; }
    var k = key(d);
    if (k) { touched.set(k, !d.open); }
    d.open = !d.open;
  }

  // A details element says when it opens or closes, however that came
  // about (its summary, the header, a restore after a swap); the header's
  // button then tells assistive technology the new state.
  document.addEventListener('toggle', function (e) {
    var d = e.target;
    if (!d.matches || !d.matches('.inv-card details[data-part="args"]')) { return; }
    var card = d.closest('[data-testid="invocation-card"]');
    var btn = card && card.querySelector('[data-args-head-toggle]');
    if (btn) { btn.setAttribute('aria-expanded', String(d.open)); }
  }, true);

  function restore(root) {
    touched.forEach(function (open, k) {
      var i = k.lastIndexOf('/');
      var card = document.getElementById(k.slice(0, i));
      if (!card || !root.contains(card) && root !== card) { return; }
      var d = card.querySelector('details[data-part="' + k.slice(i + 1) + '"]');
      if (d) { d.open = open; }
    });
  }

  // announce tells screen readers a card's new status once, through the
  // call list's persistent live region (#activity-feed-status, kept by
  // the list), since a replaced badge is a new node.
  function announce(root) {
    var region = document.getElementById('activity-feed-status');
    if (!region || !root.querySelectorAll) { return; }
    var cards = root.matches && root.matches('[data-testid="invocation-card"]') ? [root] : root.querySelectorAll('[data-testid="invocation-card"]');
    if (cards.length !== 1) { return; }
    var c = cards[0];
    // A card opened in the call list is said by its row (calls.js).
    if (c.closest('[data-testid="calls-list"]')) { return; }
    var badge = c.querySelector('[data-testid="invocation-badge"]');
    var tool = c.querySelector('[data-testid="invocation-tool"]');
    if (badge && tool) { region.textContent = tool.textContent + ': ' + badge.textContent.trim(); }
  }

  document.addEventListener('htmx:oobAfterSwap', function (e) {
    restore(e.target);
    announce(e.target);
  });
  document.addEventListener('htmx:afterSwap', function (e) { restore(e.target); });

  // --- Edit and re-run -----------------------------------------------------

  // pendingEdit is an Edit and re-run waiting for its server's drawer to
  // open: the button, its server and the form's URL.
  var pendingEdit = null;

  function openDrawer() { return document.querySelector('#drawer-slot [data-testid="drawer"]'); }

  // chipFor finds a server's chip button by comparing the attribute
  // rather than building a selector from an untrusted name.
  function chipFor(server) {
    var buttons = document.querySelectorAll('[data-testid="chip-button"]');
    for (var i = 0; i < buttons.length; i++) {
      var s = buttons[i].closest('[data-server]');
      if (s && s.getAttribute('data-server') === server) { return buttons[i]; }
    }
    return null;
  }

  function loadForm(btn, url, d) {
    if (!window.htmx) { return; }
    document.dispatchEvent(new CustomEvent('switchboard:run-open', { detail: { elt: btn } }));
    window.htmx.ajax('GET', url, { target: d, swap: 'beforeend' });
  }

  // editRerun opens the run form filled with a finished call's arguments
  // in its server's drawer, opening that drawer first when another one
  // (or none) is open.
  function editRerun(btn) {
    var server = btn.dataset.server, url = btn.dataset.editUrl;
    var d = openDrawer();
    if (d && d.getAttribute('data-server') === server) {
      pendingEdit = null;
      loadForm(btn, url, d);
      return;
    }
    var chip = chipFor(server);
    if (!chip) { return; }
    pendingEdit = { btn: btn, server: server, url: url };
    chip.click();
  }

  document.addEventListener('htmx:afterSwap', function (e) {
    if (!pendingEdit || !e.detail.target || e.detail.target.id !== 'drawer-slot') { return; }
    var d = openDrawer(), p = pendingEdit;
    pendingEdit = null;
    if (d && d.getAttribute('data-server') === p.server) { loadForm(p.btn, p.url, d); }
  });

  // --- times ---------------------------------------------------------------

  // localTimes writes each card's start time in the reader's own zone,
  // as HH:MM:SS; the server wrote it in its zone.
  var timeFormat = null;
  var localized = new WeakSet();
  function localTimes(root) {
    var times = root.querySelectorAll('time[data-started-ms]');
    if (!times.length) { return; }
    if (!timeFormat) {
      try {
        timeFormat = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
          { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
      } catch (err) { return; }
    }
    for (var i = 0; i < times.length; i++) {
      if (localized.has(times[i])) { continue; }
      localized.add(times[i]);
      var ms = Number(times[i].getAttribute('data-started-ms'));
      if (ms) { times[i].textContent = timeFormat.format(new Date(ms)); }
    }
  }

  // elapsedFormat writes seconds with one decimal as the page's language
  // does ("4.1" in English, "4,1" in German, "٤٫١" in Arabic), as the
  // server writes durations.
  var secsFormat = null;
  function elapsedFormat() {
    if (!secsFormat) {
      try {
        secsFormat = new Intl.NumberFormat(document.documentElement.lang || undefined,
          { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      } catch (err) {
        secsFormat = { format: function (n) { return n.toFixed(1); } };
      }
    }
    return secsFormat;
  }

  // tickElapsed appends a running call's elapsed seconds to its progress
  // numbers ("2 / 5 · 40 % · 4.1 s"), counted from its start time. The
  // server's part of the text is kept in data-base, so each tick rewrites
  // the whole text and a swapped card starts again from the server's.
  function tickElapsed() {
    var texts = document.querySelectorAll('.inv-card[data-status="running"] [data-testid="invocation-progress-text"]');
    for (var i = 0; i < texts.length; i++) {
      var el = texts[i];
      var card = el.closest('.inv-card');
      var t = card.querySelector('time[data-started-ms]');
      if (!t) { continue; }
      if (!el.hasAttribute('data-base')) { el.setAttribute('data-base', el.textContent.trim()); }
      var secs = Math.max(0, (Date.now() - Number(t.getAttribute('data-started-ms'))) / 1000);
      var elapsed = (el.getAttribute('data-elapsed-format') || '{s} s').replace('{s}', elapsedFormat().format(secs));
      var base = el.getAttribute('data-base');
      var next = base ? base + ' · ' + elapsed : elapsed;
      if (el.textContent !== next) { el.textContent = next; }
    }
    return texts.length;
  }

  // The clock runs only while some call runs.
  var ticker = null;
  function schedule() {
    localTimes(document);
    if (tickElapsed() > 0) {
      if (!ticker) { ticker = setInterval(function () { if (tickElapsed() === 0) { clearInterval(ticker); ticker = null; } }, 250); }
    }
  }
  document.addEventListener('htmx:oobAfterSwap', schedule);
  document.addEventListener('htmx:afterSwap', schedule);
  if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', schedule); } else { schedule(); }

  function copyFrom(btn) {
    fetch(btn.dataset.copyUrl, { credentials: 'same-origin' }).then(function (r) {
      if (!r.ok) { throw new Error('copy ' + r.status); }
      return r.text();
    }).then(function (text) {
      return writeClipboard(text);
    }).then(function () {
      var label = btn.textContent;
      btn.textContent = btn.dataset.copied || label;
      setTimeout(function () { btn.textContent = label; }, 1500);
    }).catch(function () { /* the button stays as it was */ });
  }

  function writeClipboard(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return Promise.resolve(fallbackCopy(text));
  }

  // fallbackCopy serves webviews without the async clipboard.
  function fallbackCopy(text) {
    var ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.className = 'sr-only';
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand('copy'); } finally { ta.remove(); }
  }

  function toggleArgs(btn) {
    var box = btn.closest('details');
    var raw = box.querySelector('[data-args-raw]'), form = box.querySelector('[data-args-form]');
    var expand = box.querySelector('[data-testid="invocation-args-expand"]');
    var showForm = btn.getAttribute('aria-pressed') !== 'true';
    raw.hidden = showForm;
    if (expand) { expand.hidden = showForm; }
    form.hidden = !showForm;
    btn.setAttribute('aria-pressed', String(showForm));
    var alt = btn.dataset.alt;
    btn.dataset.alt = btn.textContent;
    btn.textContent = alt;
  }

  function expandNear(btn) {
    var target = btn.previousElementSibling;
    if (!target) { return; }
    var open = btn.getAttribute('aria-expanded') !== 'true';
    target.classList.toggle('expanded', open);
    btn.setAttribute('aria-expanded', String(open));
    var less = btn.dataset.less;
    btn.dataset.less = btn.textContent;
    btn.textContent = less;
  }

  function openOverlay(btn) {
    var img = btn.querySelector('img');
    if (!img) { return; }
    var overlay = document.createElement('div');
    overlay.className = 'image-overlay';
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', btn.dataset.overlayLabel || '');
    overlay.dataset.testid = 'image-overlay';
    var big = document.createElement('img');
    big.src = img.src;
    big.alt = img.alt;
    var close = document.createElement('button');
    close.type = 'button';
    close.textContent = btn.dataset.closeLabel || '×';
    overlay.appendChild(big);
    overlay.appendChild(close);
    function done() {
      overlay.remove();
      document.removeEventListener('keydown', onKey, true);
      btn.focus();
    }
    function onKey(e) {
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); done(); }
      if (e.key === 'Tab') { e.preventDefault(); close.focus(); }
    }
    close.addEventListener('click', done);
    overlay.addEventListener('click', function (e) { if (e.target === overlay) { done(); } });
    document.addEventListener('keydown', onKey, true);
    document.body.appendChild(overlay);
    close.focus();
  }
})();
