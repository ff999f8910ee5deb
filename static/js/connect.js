// connect.js: the Connect page's copy buttons and dates. A button names
// the element whose text it copies (data-copy-target); "Copied" is
// announced in the button's status region and the button is marked for a
// moment. Dates arrive as <time> in UTC, written in the page's language;
// they are shown in the reader's own time zone.
(function () {
  'use strict';

  document.addEventListener('click', function (e) {
    var btn = e.target.closest('[data-copy-target]');
    if (!btn) { return; }
    var src = document.getElementById(btn.dataset.copyTarget);
    if (!src) { return; }
    copy(src.textContent).then(function () {
      var status = document.querySelector('[data-copy-status="' + btn.dataset.copyTarget + '"]');
      if (status) { status.textContent = btn.dataset.copied || ''; }
      btn.setAttribute('data-done', '');
      setTimeout(function () {
        btn.removeAttribute('data-done');
        if (status) { status.textContent = ''; }
      }, 2000);
    });
  });

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallback(text); });
    }
    return fallback(text);
  }

  // fallback serves webviews without the async clipboard.
  function fallback(text) {
    var ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand('copy'); } finally { ta.remove(); }
    return Promise.resolve();
  }

  // localTimes writes each date of the page (a session's start, a token's
  // creation and last use) in the reader's zone, in the page's language.
  function localTimes(root) {
    if (!root || !root.querySelectorAll) { return; }
    var f = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
    root.querySelectorAll('time[data-local="datetime"]').forEach(function (t) {
      var d = new Date(t.getAttribute('datetime'));
      if (!isNaN(d.getTime())) { t.textContent = f.format(d); }
    });
  }

  document.addEventListener('htmx:load', function (e) { localTimes(e.target); });
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', function () { localTimes(document.body); });
  } else {
    localTimes(document.body);
  }
})();
