// connect.js: the Connect page's copy buttons. A button names the element
// whose text it copies (data-copy-target); "Copied" is announced in the
// button's status region and the button is marked for a moment.
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
})();
