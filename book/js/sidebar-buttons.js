// The buttons that open the sidebars (loaded on every page, see html_js_files in _config.yml).
//
// A page has two buttons of each kind: the one of pydata-sphinx-theme's top bar (hidden by
// sphinx-book-theme) and the one of sphinx-book-theme's article header, the one a reader sees.
// pydata-sphinx-theme 0.17.1 attaches its handlers (open the table of contents, or the page's
// contents, as a dialog below 992 px) to the first button of each kind only, the hidden one, so
// the visible "Contents" button did nothing on a phone or a tablet (pydata-sphinx-theme issue
// 2451), and sphinx-book-theme's handler that collapses the sidebar on a wide screen is attached
// to that hidden button too. A click on any other button of a kind is passed on to the first,
// which runs the themes' own handlers: the dialog below 992 px, the collapsed sidebar above.
// As sphinx-book-theme does for the first, a button clicked with a mouse or a tap then lets go
// of the focus, so that its tooltip does not stay; one pressed from the keyboard keeps it.
(function () {
  "use strict";
  var KINDS = [".primary-toggle", ".secondary-toggle"];

  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    KINDS.forEach(function (kind) {
      var button = event.target.closest(kind);
      var first = document.querySelector(kind);
      if (!button || !first || button === first) return;
      event.preventDefault();
      first.click();
      if (event.detail > 0) button.blur();
    });
  });
})();
