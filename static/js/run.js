// Switchboard run form behaviour: the dialog a tool's Run button loads
// over the drawer. This script moves focus in (to the first field, or the
// first refused one), keeps Tab inside the dialog, closes it on Escape,
// Cancel or its close button and gives focus back to the Run button,
// switches the Form / Raw JSON tabs with the arrow keys and keeps the two
// in sync, and removes a started call's marker. Loaded with defer after
// htmx; no inline script, no eval.
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

  function dialog() { return document.querySelector(DIALOG); }

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
      if (k === d || k.matches(DIALOG)) continue;
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
    var done = document.querySelectorAll('[data-run-done]');
    for (var i = 0; i < done.length; i++) {
      var host = done[i].parentElement;
      done[i].remove();
      if (host) {
        for (var j = 0; j < host.children.length; j++) host.children[j].removeAttribute('inert');
      }
      returnFocus();
    }
  }

  // A second Run click replaces the open dialog instead of stacking one
  // more, and remembers which button to return to.
  document.addEventListener('htmx:beforeRequest', function (e) {
    var elt = e.detail.elt;
    if (!elt || !elt.matches || !elt.matches('[data-testid="tool-run"]')) return;
    var d = dialog();
    if (d) { setInert(d, false); d.remove(); }
    opener = elt;
    openerTool = elt.getAttribute('data-tool');
  });

  // A refused submit answers 422 with the dialog again: swap it in.
  document.addEventListener('htmx:beforeSwap', function (e) {
    var xhr = e.detail.xhr;
    var elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (xhr && xhr.status === 422 && elt && elt.closest && elt.closest(DIALOG)) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
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
