// Switchboard run form behaviour: the dialog a tool's Run button (or a
// card's Edit and re-run) loads over the drawer. This script moves focus
// in (to the first field, or the first refused one), keeps Tab inside the
// dialog while the drawer is modal (a docked drawer is part of the page,
// so Tab may leave), closes it on Escape, Cancel or its close button and
// gives focus back to the Run button, switches the Form / Raw JSON tabs
// with the arrow keys and keeps the two in sync, and puts a started
// call's live card under the form: the event stream's insert lands in the
// form's slot, and the card leaves for the drawer's list of recent calls
// when the form closes or runs again. Loaded with defer after htmx; no
// inline script, no eval.
(function () {
  'use strict';

  var DIALOG = '[data-testid="run-form"]';
  var FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), ' +
    'select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

  // opener is the Run button that asked for the open dialog, with its
  // server and tool, to find it again if the drawer's lists were reloaded
  // meanwhile.
  var opener = null;
  var openerTool = null;

  var CARD = '[data-testid="invocation-card"]';
  var SLOT = '[data-run-card-slot]';

  function dialog() { return document.querySelector(DIALOG); }

  // drawerModal reports whether the drawer under the dialog is a modal
  // dialog itself (below 1200 px); drawer.js marks the page so.
  function drawerModal() { return document.documentElement.classList.contains('drawer-open'); }

  // cardsOf finds invocation id's cards in root, comparing the attribute
  // rather than building a selector from a value.
  function cardsOf(root, id) {
    var all = root.querySelectorAll(CARD);
    var out = [];
    for (var i = 0; i < all.length; i++) if (all[i].getAttribute('data-invocation') === id) out.push(all[i]);
    return out;
  }

  // recentList is the drawer's list of the server's recent calls, where a
  // card goes once its form is gone.
  function recentList(d) {
    var host = d && d.closest('[data-testid="drawer"]');
    return host ? host.querySelector('[data-testid="drawer-invocations"] .feed-list') : null;
  }

  // releaseCards moves the cards under a form about to go into the
  // drawer's recent calls, newest first, so no call vanishes from view.
  function releaseCards(d) {
    var list = recentList(d);
    var cards = d.querySelectorAll(SLOT + ' > ' + CARD);
    for (var i = 0; i < cards.length; i++) {
      if (list) list.insertBefore(cards[i], list.firstChild);
      else cards[i].remove();
    }
  }

  // adoptCard moves a started call's card into the form's slot when the
  // event stream delivered it before the form's answer arrived.
  function adoptCard(d) {
    var slot = d.querySelector(SLOT);
    if (!slot || slot.querySelector(CARD)) return;
    var host = d.closest('[data-testid="drawer"]') || document;
    var found = cardsOf(host, slot.getAttribute('data-invocation'));
    for (var i = 0; i < found.length; i++) {
      if (!slot.contains(found[i])) {
        slot.insertBefore(found[i], slot.firstChild);
        return;
      }
    }
  }

  // The event stream inserts a new call's card at the top of the
  // drawer's recent calls; the card of a call a form started goes under
  // that form instead. A later replacement finds it there by id.
  document.addEventListener('htmx:oobBeforeSwap', function (e) {
    var frag = e.detail.fragment, target = e.detail.target;
    if (!frag || !target || !frag.querySelector) return;
    var card = frag.querySelector(CARD) || (frag.matches && frag.matches(CARD) ? frag : null);
    if (!card || (target.matches && target.matches(CARD))) return;
    var slots = document.querySelectorAll(SLOT);
    for (var i = 0; i < slots.length; i++) {
      var slot = slots[i];
      if (slot.getAttribute('data-invocation') !== card.getAttribute('data-invocation')) continue;
      var drawerOf = slot.closest('[data-testid="drawer"]');
      if (!drawerOf || !drawerOf.contains(target)) continue;
      var old = slot.querySelectorAll(CARD);
      for (var j = 0; j < old.length; j++) old[j].remove();
      e.detail.target = slot;
      return;
    }
  });

  function visible(el) {
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  function focusables(root) {
    var all = root.querySelectorAll(FOCUSABLE);
    var out = [];
    for (var i = 0; i < all.length; i++) if (visible(all[i])) out.push(all[i]);
    return out;
  }

  // drawerParts are the drawer's own children besides the dialog, made
  // inert while the dialog is open so neither Tab nor a screen reader
  // wanders under it.
  function setInert(d, on) {
    var host = d && d.parentElement;
    if (!host) return;
    for (var i = 0; i < host.children.length; i++) {
      var k = host.children[i];
      if (k === d || k.matches(DIALOG) || k.classList.contains('drawer-backdrop')) continue;
      if (on) k.setAttribute('inert', '');
      else k.removeAttribute('inert');
    }
  }

  // runButtonFor finds a tool's Run button by comparing attributes rather
  // than building a selector from an untrusted name.
  function runButtonFor(tool) {
    var buttons = document.querySelectorAll('[data-testid="tool-run"]');
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].getAttribute('data-tool') === tool) return buttons[i];
    }
    return null;
  }

  function returnFocus() {
    var target = opener && opener.isConnected ? opener : (openerTool !== null ? runButtonFor(openerTool) : null);
    opener = null;
    openerTool = null;
    if (!target) target = document.querySelector('[data-testid="drawer-close"]');
    if (target) target.focus();
  }

  function closeDialog() {
    var d = dialog();
    if (!d) return;
    releaseCards(d);
    setInert(d, false);
    d.remove();
    returnFocus();
  }

  // --- tabs and the two editors --------------------------------------------

  function fields(d) { return d.querySelectorAll('[data-testid="run-field"]'); }

  // fieldValue reads one field as the JSON value the server would build,
  // or undefined when the field is empty; a text it cannot read is kept
  // as a string, so nothing a person typed is lost on a tab switch.
  function fieldValue(f) {
    var kind = f.getAttribute('data-kind');
    if (kind === 'switch') {
      var box = f.querySelector('input[type="checkbox"]');
      if (box.checked) return true;
      var needed = f.getAttribute('data-required') === 'true' || f.getAttribute('data-has-default') === 'true';
      return needed ? false : undefined;
    }
    if (kind === 'radio') {
      var on = f.querySelector('input[type="radio"]:checked');
      return on && on.value !== '' ? JSON.parse(on.value) : undefined;
    }
    var input = f.querySelector('[data-testid="run-input"]');
    var v = input ? input.value : '';
    if (kind === 'text') return v === '' ? undefined : v;
    v = v.trim();
    if (v === '') return undefined;
    if (kind === 'select') return JSON.parse(v);
    if (kind === 'number' || kind === 'integer') {
      var n = Number(v);
      return isFinite(n) ? n : v;
    }
    try { return JSON.parse(v); } catch (e) { return v; }
  }

  function formToRaw(d) {
    var obj = {};
    var fs = fields(d);
    for (var i = 0; i < fs.length; i++) {
      var v = fieldValue(fs[i]);
      if (v !== undefined) obj[fs[i].getAttribute('data-name')] = v;
    }
    d.querySelector('[data-testid="run-raw"]').value = JSON.stringify(obj, null, 2);
  }

  // rawToForm fills the fields from the raw JSON; it reports false, and
  // shows why, when the text is not one JSON object.
  function rawToForm(d) {
    var raw = d.querySelector('[data-testid="run-raw"]');
    var err = d.querySelector('[data-testid="run-raw-error"]');
    var obj;
    try { obj = raw.value.trim() === '' ? {} : JSON.parse(raw.value); } catch (e) { obj = null; }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) {
      raw.setAttribute('aria-invalid', 'true');
      raw.setAttribute('aria-describedby', err.id);
      err.textContent = d.getAttribute('data-raw-error');
      err.hidden = false;
      raw.focus();
      return false;
    }
    raw.removeAttribute('aria-invalid');
    raw.removeAttribute('aria-describedby');
    err.hidden = true;
    var fs = fields(d);
    for (var i = 0; i < fs.length; i++) setField(fs[i], obj[fs[i].getAttribute('data-name')]);
    return true;
  }

  function setField(f, v) {
    var kind = f.getAttribute('data-kind');
    if (kind === 'switch') {
      f.querySelector('input[type="checkbox"]').checked = v === true;
      return;
    }
    var text = v === undefined ? '' : JSON.stringify(v);
    if (kind === 'radio') {
      var radios = f.querySelectorAll('input[type="radio"]');
      for (var i = 0; i < radios.length; i++) radios[i].checked = radios[i].value === text;
      return;
    }
    var input = f.querySelector('[data-testid="run-input"]');
    if (!input) return;
    if (kind === 'text') input.value = typeof v === 'string' ? v : (v === undefined ? '' : text);
    else if (kind === 'number' || kind === 'integer') input.value = v === undefined ? '' : String(v);
    else if (kind === 'json') input.value = v === undefined ? '' : JSON.stringify(v, null, 2);
    else input.value = text;
  }

  function selectTab(d, mode, focus) {
    var current = d.querySelector('[data-run-mode]');
    if (current.value === mode) return;
    if (mode === 'raw') formToRaw(d);
    else if (!rawToForm(d)) return;
    current.value = mode;
    var tabs = d.querySelectorAll('[role="tab"]');
    for (var i = 0; i < tabs.length; i++) {
      var on = tabs[i].getAttribute('data-run-tab') === mode;
      tabs[i].setAttribute('aria-selected', on ? 'true' : 'false');
      tabs[i].setAttribute('tabindex', on ? '0' : '-1');
      document.getElementById(tabs[i].getAttribute('aria-controls')).hidden = !on;
      if (on && focus) tabs[i].focus();
    }
  }

  // --- opening -------------------------------------------------------------

  // prepare runs on every dialog the server sends: a new one, or the same
  // one again with refusals. The tab the person submitted from stays
  // shown: the server answers a refusal on the tab it came from, with the
  // reasons beside what was typed there.
  function prepare(d) {
    if (d.hasAttribute('data-run-ready')) return;
    d.setAttribute('data-run-ready', '');
    setInert(d, true);
    adoptCard(d);
    if (d.querySelector(SLOT)) {
      // The call started: the form stays as sent, focus on Run tool to
      // send again, and the card under it says how the call goes.
      var run = d.querySelector('[data-testid="run-submit"]');
      if (run) { run.focus(); return; }
    }
    var panelShown = d.querySelector('[role="tabpanel"]:not([hidden])');
    var bad = panelShown && panelShown.querySelector('[aria-invalid="true"]');
    if (bad) {
      // A refused radio group: focus its checked (or first) radio.
      if (bad.getAttribute('role') === 'radiogroup') bad = bad.querySelector('input:checked') || bad.querySelector('input');
      bad.focus();
      return;
    }
    var summary = d.querySelector('[data-testid="run-summary"]');
    var first = panelShown && focusables(panelShown)[0];
    if (summary) first = d.querySelector('[role="tab"][aria-selected="true"]');
    (first || d.querySelector('.run-title')).focus();
  }

  function scan() {
    var d = dialog();
    if (d) prepare(d);
  }

  // openFor drops an open dialog before another one loads (a second Run
  // click, or Edit and re-run) and remembers which button to return to.
  function openFor(elt) {
    var d = dialog();
    if (d) { releaseCards(d); setInert(d, false); d.remove(); }
    opener = elt;
    openerTool = elt.getAttribute('data-tool');
  }
  // cards.js asks for this before it loads an Edit and re-run form.
  document.addEventListener('switchboard:run-open', function (e) {
    if (e.detail && e.detail.elt) openFor(e.detail.elt);
  });

  document.addEventListener('htmx:beforeRequest', function (e) {
    var elt = e.detail.elt;
    if (!elt || !elt.matches || !elt.matches('[data-testid="tool-run"]')) return;
    openFor(elt);
  });

  // A refused submit answers 422 with the dialog again: swap it in. A
  // started one answers the dialog again too; the card under the old one
  // goes to the recent calls first.
  document.addEventListener('htmx:beforeSwap', function (e) {
    var xhr = e.detail.xhr;
    var elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    var d = elt && elt.closest && elt.closest(DIALOG);
    if (!xhr || !d) return;
    if (xhr.status === 422) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
    if (e.detail.shouldSwap) releaseCards(d);
  });

  // --- keyboard and clicks -------------------------------------------------

  // The dialog handles its own keys and stops them there, so the drawer
  // underneath neither closes on Escape nor traps Tab in itself.
  document.addEventListener('keydown', function (e) {
    var d = dialog();
    if (!d || !d.contains(e.target)) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopImmediatePropagation();
      closeDialog();
      return;
    }
    if (e.key === 'Tab') {
      e.stopImmediatePropagation();
      if (!drawerModal()) return; // a docked drawer is part of the page
      var items = focusables(d);
      if (!items.length) { e.preventDefault(); return; }
      var first = items[0], last = items[items.length - 1];
      if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
      return;
    }
    var tab = e.target.closest('[role="tab"]');
    if (tab && d.contains(tab)) {
      var next = null;
      // Two tabs that wrap: forward and back both reach the other one, so
      // either arrow is right in either reading direction (Arabic too).
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') next = tab.getAttribute('data-run-tab') === 'form' ? 'raw' : 'form';
      else if (e.key === 'Home') next = 'form';
      else if (e.key === 'End') next = 'raw';
      if (next) {
        e.preventDefault();
        e.stopImmediatePropagation();
        selectTab(d, next, true);
      }
    }
  }, true);

  document.addEventListener('click', function (e) {
    var d = dialog();
    var t = e.target.closest ? e.target : e.target.parentElement;
    if (!d || !t || !d.contains(t)) return;
    if (t.closest('[data-run-close]')) {
      e.stopPropagation();
      closeDialog();
      return;
    }
    var tab = t.closest('[role="tab"]');
    if (tab) selectTab(d, tab.getAttribute('data-run-tab'), true);
  });

  // Before the form posts, the hidden editor is brought up to date, so
  // the server reads what the visible one shows.
  document.addEventListener('submit', function (e) {
    var d = dialog();
    if (!d || !d.contains(e.target)) return;
    if (d.querySelector('[data-run-mode]').value === 'raw') return;
    formToRaw(d);
  }, true);

  function start() {
    new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
    scan();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
