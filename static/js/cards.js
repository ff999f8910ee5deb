// Tool invocation cards: copy buttons, argument views, "Show more", the
// full-size image overlay, and keeping a person's open/closed choices
// across the live swaps that replace a card on every change.
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

  // announce tells screen readers a card's new status once, through one
  // persistent live region, since a replaced badge is a new node.
  function announce(root) {
    var region = document.getElementById('activity-feed-status');
    if (!region || !root.querySelectorAll) { return; }
    var cards = root.matches && root.matches('[data-testid="invocation-card"]') ? [root] : root.querySelectorAll('[data-testid="invocation-card"]');
    if (cards.length !== 1) { return; }
    var c = cards[0];
    var badge = c.querySelector('[data-testid="invocation-badge"]');
    var tool = c.querySelector('[data-testid="invocation-tool"]');
    if (badge && tool) { region.textContent = tool.textContent + ': ' + badge.textContent.trim(); }
  }

  // trim keeps the page's feed at the newest fifty cards.
  function trim() {
    var list = document.getElementById('activity-feed-list');
    if (!list) { return; }
    var cards = list.querySelectorAll(':scope > [data-testid="invocation-card"]');
    for (var i = 50; i < cards.length; i++) { cards[i].remove(); }
  }

  // mirrorChips copies a server's header chip state to the chips on its
  // cards, so "Tool from" stays live-coloured between card changes.
  function mirrorChips() {
    document.querySelectorAll('#chips [data-testid="status-chip"]').forEach(function (h) {
      var name = h.dataset.server;
      document.querySelectorAll('.inv-origin [data-testid="status-chip"]').forEach(function (c) {
        if (c.dataset.server !== name || c.dataset.state === h.dataset.state) { return; }
        c.dataset.state = h.dataset.state;
        var hd = h.querySelector('[data-testid="chip-dot"]'), cd = c.querySelector('[data-testid="chip-dot"]');
        if (hd && cd) { cd.className = hd.className; cd.setAttribute('aria-label', hd.getAttribute('aria-label')); }
        var hb = h.querySelector('[data-testid="chip-badge"]'), cb = c.querySelector('[data-testid="chip-badge"]');
        if (hb && cb) { cb.textContent = hb.textContent; }
      });
    });
  }

  document.addEventListener('htmx:oobAfterSwap', function (e) {
    restore(e.target);
    announce(e.target);
    trim();
  });
  document.addEventListener('htmx:afterSwap', function (e) { restore(e.target); });
  document.addEventListener('htmx:sseMessage', mirrorChips);

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
