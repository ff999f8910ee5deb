// elicitation.js: focus after a person answers a server's question.
// The form they were in goes away with the card's next redraw, so focus
// moves to the card that asked (or to the drawer's list of questions)
// and stays there across the redraws that follow: the page stream
// replaces the card by id, and a replaced node loses focus. The answer's
// response says the outcome through the page's live region itself. An
// answer the server-side checks warn about comes back as the form drawn
// again, which would drop focus to the page: it goes to the first field
// marked invalid, else to "send this answer anyway".
(function () {
  'use strict';

  var ANSWERED = 'elicitation-answered';

  // held is the id of the card focus was moved to; it is forgotten once
  // the person moves focus elsewhere.
  var held = '';

  function focusOn(el) {
    if (!el.hasAttribute('tabindex')) { el.setAttribute('tabindex', '-1'); }
    el.focus();
  }

  // Where focus goes is taken from the form as the answer leaves, and
  // acted on when the request loads: by then the stream may have redrawn
  // the card and dropped the form, and htmx reports nothing on a form
  // that is no longer on the page.
  document.addEventListener('htmx:beforeRequest', function (e) {
    var elt = e.detail && e.detail.elt, xhr = e.detail && e.detail.xhr;
    if (!xhr || !elt || !elt.closest || !elt.closest('[data-testid="elicitation-form"]')) { return; }
    var card = elt.closest('[data-testid="invocation-card"]');
    var cardID = card ? card.id : '';
    var list = card ? null : elt.closest('[data-testid="drawer-elicitations"]');
    xhr.addEventListener('load', function () {
      if (xhr.status !== 200 || xhr.getResponseHeader('HX-Trigger') !== ANSWERED) { return; }
      var to = cardID ? document.getElementById(cardID) : list;
      if (!to || !document.body.contains(to)) { return; }
      held = cardID;
      focusOn(to);
    });
  });

  // The form came back with warnings, under the same id: focus what the
  // person is to look at next.
  document.addEventListener('htmx:afterSettle', function (e) {
    var target = e.detail && e.detail.target;
    if (!target || !target.id) { return; }
    var form = document.getElementById(target.id);
    if (!form || form.getAttribute('data-testid') !== 'elicitation-form') { return; }
    var next = form.querySelector('[aria-invalid="true"]') || form.querySelector('[data-testid="elicitation-anyway"]');
    if (next) { next.focus(); }
  });

  document.addEventListener('focusin', function (e) {
    if (held && e.target.id !== held) { held = ''; }
  });

  // A redraw of the held card put a new node in its place: focus it.
  document.addEventListener('htmx:oobAfterSwap', function () {
    if (!held) { return; }
    var a = document.activeElement;
    if (a && a !== document.body && a.id === held) { return; }
    var card = document.getElementById(held);
    if (card) { focusOn(card); } else { held = ''; }
  });
})();
