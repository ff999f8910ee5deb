// Switchboard page behaviour: tooltips (hover, keyboard focus, long-press,
// Escape), relative times and countdowns kept current in the page's
// language, the stream-lost notice, and swaps of status chips and server
// rows that keep each chip element (its live region) in place so a screen
// reader hears the new state. Loaded with defer after htmx; no inline script, no eval.
(function () {
  'use strict';

  var lang = document.documentElement.lang || 'en';
  var relFormat = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  var msFormat = new Intl.NumberFormat(lang, {
    style: 'unit', unit: 'millisecond', unitDisplay: 'short', maximumFractionDigits: 1
  });
  var countFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  var LONG_PRESS_MS = 500;
  var CHIP = '[data-testid="status-chip"]';

  // relative turns an epoch-ms instant into "2 seconds ago" / "in 4 seconds",
  // choosing the largest whole unit as the server-rendered fallback does.
  function relative(epochMS) {
    var secs = Math.round((epochMS - Date.now()) / 1000);
    var abs = Math.abs(secs);
    if (abs >= 86400) return relFormat.format(Math.trunc(secs / 86400), 'day');
    if (abs >= 3600) return relFormat.format(Math.trunc(secs / 3600), 'hour');
    if (abs >= 60) return relFormat.format(Math.trunc(secs / 60), 'minute');
    return relFormat.format(secs, 'second');
  }

  function setText(el, text) {
    if (el.textContent !== text) el.textContent = text;
  }

  // tick rewrites every relative time and countdown; text that did not
  // change is left alone so nothing re-lays out needlessly.
  function tick(root) {
    var times = (root || document).querySelectorAll('time[data-time]');
    for (var i = 0; i < times.length; i++) {
      var ms = Number(times[i].getAttribute('data-time'));
      if (ms > 0) setText(times[i], relative(ms));
    }
    // Elapsed counters ("starting · 12 s") count whole seconds since
    // data-since; the server-rendered number is the fallback.
    var since = (root || document).querySelectorAll('[data-since]');
    for (var j = 0; j < since.length; j++) {
      var from = Number(since[j].getAttribute('data-since'));
      if (from > 0) setText(since[j], countFormat.format(Math.max(0, Math.floor((Date.now() - from) / 1000))));
    }
  }

  function formatLatencies(root) {
    var els = (root || document).querySelectorAll('[data-ms]');
    for (var i = 0; i < els.length; i++) {
      var ms = Number(els[i].getAttribute('data-ms'));
      if (!isNaN(ms)) setText(els[i], msFormat.format(ms));
    }
  }

  // --- tooltips -----------------------------------------------------------

  // openId is the tooltip shown by focus or long-press, so a swap that
  // replaces its chip can show it again on the new element.
  var openId = null;

  function chipOf(el) {
    return el && el.closest ? el.closest(CHIP) : null;
  }

  function tooltipOf(chip) {
    return chip ? chip.querySelector(':scope > [role="tooltip"]') : null;
  }

  function show(chip) {
    if (!chip) return;
    hideAll(chip);
    chip.classList.remove('tip-dismissed');
    chip.classList.add('tip-open');
    var tip = tooltipOf(chip);
    if (tip) {
      openId = tip.id;
      tick(tip);
      place(chip, tip);
    }
  }

  function hide(chip) {
    if (!chip) return;
    chip.classList.remove('tip-open');
    var tip = tooltipOf(chip);
    if (tip && tip.id === openId) openId = null;
  }

  function hideAll(except) {
    var open = document.querySelectorAll(CHIP + '.tip-open');
    for (var i = 0; i < open.length; i++) if (open[i] !== except) hide(open[i]);
  }

  // place pins a tooltip to its chip with fixed positioning, so no
  // scrolling header or table clips it, and keeps it inside the viewport:
  // shifted back at the far edge, flipped above at the bottom. The
  // position goes through custom properties (CSSOM, which the CSP allows);
  // on narrow screens the stylesheet ignores them and docks the tooltip to
  // the bottom edge instead. --tip-x is the distance from the start edge
  // (inset-inline-start), so in a right-to-left page it counts from the
  // right and the tooltip lines up with the chip's right side.
  function place(chip, tip) {
    var anchor = chip.getBoundingClientRect();
    var vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    var start = getComputedStyle(tip).direction === 'rtl' ? vw - anchor.right : anchor.left;
    var x = Math.max(8, Math.min(start, vw - 8 - w));
    var top = anchor.bottom + 6;
    if (top + h > vh - 8 && anchor.top - 6 - h >= 8) top = anchor.top - 6 - h;
    tip.style.setProperty('--tip-x', x + 'px');
    tip.style.setProperty('--tip-y', top + 'px');
  }

  function placeOpen() {
    var open = document.querySelectorAll(CHIP + '.tip-open, ' + CHIP + ':hover');
    for (var i = 0; i < open.length; i++) {
      var tip = tooltipOf(open[i]);
      if (tip) place(open[i], tip);
    }
  }
  window.addEventListener('scroll', placeOpen, { passive: true, capture: true });
  window.addEventListener('resize', placeOpen, { passive: true });

  document.addEventListener('mouseover', function (e) {
    var chip = chipOf(e.target);
    if (chip && !chip.classList.contains('tip-dismissed')) {
      var tip = tooltipOf(chip);
      if (tip) place(chip, tip);
      if (tip) tick(tip);
    }
  });

  document.addEventListener('mouseout', function (e) {
    var chip = chipOf(e.target);
    // A dismissed tooltip stays dismissed while the chip keeps keyboard
    // focus (WCAG 1.4.13): only leaving it entirely re-arms it.
    if (chip && !chip.contains(e.relatedTarget) && !chip.contains(document.activeElement)) {
      chip.classList.remove('tip-dismissed');
    }
  });

  document.addEventListener('focusin', function (e) {
    var chip = chipOf(e.target);
    if (!chip) return;
    var visible = true;
    try { visible = e.target.matches(':focus-visible'); } catch (err) { /* older engines: always show */ }
    if (visible) show(chip);
  });

  document.addEventListener('focusout', function (e) {
    var chip = chipOf(e.target);
    if (chip && !chip.contains(e.relatedTarget)) {
      hide(chip);
      chip.classList.remove('tip-dismissed');
    }
  });

  document.addEventListener('keydown', function (e) {
    if (e.key !== 'Escape') return;
    var open = document.querySelectorAll(CHIP + '.tip-open, ' + CHIP + ':hover');
    var any = false;
    for (var i = 0; i < open.length; i++) {
      if (tooltipOf(open[i])) {
        hide(open[i]);
        open[i].classList.add('tip-dismissed');
        any = true;
      }
    }
    // Escape closing a tooltip must not also close a drawer behind it.
    if (any) e.stopPropagation();
  }, true);

  // Long-press on touch: hold a chip for LONG_PRESS_MS to see its tooltip
  // instead of opening the drawer; a tap elsewhere hides it again.
  var press = null;

  document.addEventListener('pointerdown', function (e) {
    var chip = chipOf(e.target);
    if (!chip) {
      hideAll(null);
      return;
    }
    if (e.pointerType !== 'touch') return;
    var x = e.clientX, y = e.clientY;
    press = { chip: chip, x: x, y: y, fired: false, timer: setTimeout(function () {
      if (press) {
        press.fired = true;
        show(chip);
      }
    }, LONG_PRESS_MS) };
  });

  function endPress() {
    if (press && !press.fired) {
      clearTimeout(press.timer);
      press = null;
    }
  }
  document.addEventListener('pointerup', endPress);
  document.addEventListener('pointercancel', endPress);
  document.addEventListener('pointermove', function (e) {
    if (press && !press.fired && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) endPress();
  });

  // The click that ends a long-press showed the tooltip; it must not also
  // open the drawer, so it is swallowed before htmx sees it.
  document.addEventListener('click', function (e) {
    if (press && press.fired) {
      e.preventDefault();
      e.stopPropagation();
      press = null;
    }
  }, true);

  document.addEventListener('contextmenu', function (e) {
    if (chipOf(e.target)) e.preventDefault();
  });

  // --- swaps --------------------------------------------------------------

  // A status chip swapped by the event stream keeps its element: its
  // attributes and children are replaced in place. Replacing the element
  // itself would create a new live region, which screen readers do not
  // announce, and would drop the tooltip's open state. A server-list row
  // is updated the same way, cell by cell, keeping its chip's element.
  var ROW = '[data-testid="server-row"]';

  function copyAttributes(target, next) {
    for (var i = target.attributes.length - 1; i >= 0; i--) {
      var name = target.attributes[i].name;
      if (!next.hasAttribute(name)) target.removeAttribute(name);
    }
    for (var j = 0; j < next.attributes.length; j++) {
      if (target.getAttribute(next.attributes[j].name) !== next.attributes[j].value) {
        target.setAttribute(next.attributes[j].name, next.attributes[j].value);
      }
    }
  }

  // morphChip updates target in place from next and gives focus back to
  // the element of the same id that had it.
  function morphChip(target, next) {
    var focusedId = document.activeElement && target.contains(document.activeElement) ? document.activeElement.id : null;
    var keep = { 'tip-open': target.classList.contains('tip-open'), 'tip-dismissed': target.classList.contains('tip-dismissed') };
    copyAttributes(target, next);
    for (var k in keep) if (keep[k]) target.classList.add(k);
    target.replaceChildren.apply(target, Array.prototype.slice.call(next.childNodes));
    window.htmx.process(target);
    refresh(target);
    if (focusedId) {
      var f = document.getElementById(focusedId);
      if (f) f.focus({ preventScroll: true });
    }
  }

  // morphRow updates a server row cell by cell: the chip's cell keeps the
  // chip element, an unchanged cell is left alone, and a focused Details
  // button is focused again after its cell is replaced.
  function morphRow(target, next) {
    copyAttributes(target, next);
    var cells = target.children, fresh = next.children;
    if (cells.length !== fresh.length) {
      target.replaceChildren.apply(target, Array.prototype.slice.call(fresh));
      window.htmx.process(target);
      refresh(target);
      return;
    }
    for (var i = fresh.length - 1; i >= 0; i--) {
      var cell = cells[i], nc = fresh[i];
      var oldChip = cell.querySelector(CHIP), newChip = nc.querySelector(CHIP);
      if (oldChip && newChip && oldChip.id === newChip.id && oldChip.parentNode === cell) {
        copyAttributes(cell, nc);
        morphChip(oldChip, newChip);
        continue;
      }
      if (cell.outerHTML === nc.outerHTML) continue;
      var hadFocus = cell.contains(document.activeElement);
      target.replaceChild(nc, cell);
      window.htmx.process(nc);
      refresh(nc);
      if (hadFocus) {
        var b = nc.querySelector('button, a, [tabindex]');
        if (b) b.focus({ preventScroll: true });
      }
    }
  }

  document.addEventListener('htmx:oobBeforeSwap', function (e) {
    var target = e.detail.target;
    if (!target || !target.matches) return;
    var next = e.detail.fragment && e.detail.fragment.firstElementChild;
    if (!next || next.id !== target.id) return;
    if (target.matches(CHIP) && next.matches(CHIP)) {
      e.detail.shouldSwap = false;
      morphChip(target, next);
    } else if (target.matches(ROW) && next.matches(ROW)) {
      e.detail.shouldSwap = false;
      morphRow(target, next);
    }
  });

  function refresh(root) {
    tick(root);
    formatLatencies(root);
    if (openId) {
      var tip = document.getElementById(openId);
      var chip = chipOf(tip);
      if (chip && !chip.classList.contains('tip-open')) chip.classList.add('tip-open');
      if (chip && tip) place(chip, tip);
    }
  }

  document.addEventListener('htmx:afterSwap', function (e) { refresh(e.target); });
  document.addEventListener('htmx:oobAfterSwap', function (e) { refresh(e.target); });
  document.addEventListener('htmx:sseMessage', function () { refresh(document); });

  // The stream-lost notice tells a person the page may be stale while the
  // event stream reconnects; the first message after it heals the page.
  function streamLost(lost) {
    var el = document.getElementById('stream-lost');
    if (el) el.hidden = !lost;
  }
  document.addEventListener('htmx:sseError', function () { streamLost(true); });
  document.addEventListener('htmx:sseOpen', function () { streamLost(false); });

  function start() {
    document.documentElement.classList.add('js');
    refresh(document);
    setInterval(function () { tick(document); }, 1000);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
