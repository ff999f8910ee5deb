// The drawer's Read and Get (views/drawer_resources.templ,
// drawer_prompts.templ, drawer_read.templ): a failed read answers with its
// status and a message fragment marked X-Switchboard-Caps, swapped in
// where the answer would have gone; Close empties an answer's panel and
// gives focus back to the button that opened it; an argument form takes
// focus when it opens.
(function () {
  'use strict';

  document.addEventListener('htmx:beforeSwap', function (e) {
    var xhr = e.detail.xhr;
    if (xhr && xhr.status >= 400 && xhr.getResponseHeader('X-Switchboard-Caps') === 'failure') {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  document.addEventListener('click', function (e) {
    var close = e.target.closest('[data-caps-close]');
    if (!close) return;
    var panel = close.closest('[data-caps-panel], .resource-preview');
    if (!panel) return;
    var opener = panel.id ? document.querySelector('[aria-controls="' + CSS.escape(panel.id) + '"]') : null;
    panel.replaceChildren();
    if (opener) opener.focus();
  });

  document.addEventListener('htmx:afterSettle', function (e) {
    var target = e.detail.target;
    if (!target || !target.matches || !target.matches('[data-caps-panel]')) return;
    var field = target.querySelector('.prompt-form input');
    if (field) field.focus();
  });
})();
