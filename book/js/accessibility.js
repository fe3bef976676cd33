// Names and landmarks for what the themes write (loaded on every page by
// book/_ext/accessibility.py, which mends the pages' own HTML; the browser test runs axe-core
// on every page, tests/browser/accessibility_checks.py):
//
// 1. The search field's button is named by what it shows ("Search Ctrl+K"): its aria-label
//    "Search" left out the shortcut that a reader who speaks the name sees.
// 2. The colour-mode button is named after the mode it shows ("Color mode: Dark"), kept in
//    step when a click changes the mode; its icons, whose titles gave another name, are hidden
//    from assistive technology.
// 3. Each solution's toggle button is named after its exercise ("Solution of Exercise 2.3",
//    whether it is open is its aria-expanded), not "Toggle hidden content" as every other.
//    A code cell's "Show code cell source" is named by what it shows, not "Toggle hidden
//    content" (whether it is open is its details' state).
// 4. The primary sidebar (the book's title, the search field and the table of contents) is a
//    navigation landmark, so that no content of the page lies outside a landmark.
(function () {
  "use strict";
  var MODES = {light: "Light", dark: "Dark", auto: "System Settings"};

  function nameSearchButtons() {
    document.querySelectorAll(".search-button-field").forEach(function (button) {
      button.removeAttribute("aria-label");
      button.setAttribute("aria-keyshortcuts", "Control+K Meta+K");
    });
  }

  function nameModeButtons() {
    var mode = document.documentElement.dataset.mode || "auto";
    document.querySelectorAll(".theme-switch-button").forEach(function (button) {
      button.setAttribute("aria-label", "Color mode: " + (MODES[mode] || mode));
      button.querySelectorAll("i").forEach(function (icon) {
        icon.setAttribute("aria-hidden", "true");
      });
    });
  }

  // "Solution to Exercise 2.3 (title)" -> "Solution of Exercise 2.3"
  var EXERCISE = /Exercise\s+((?:[A-Z]|[0-9]+)(?:\.[0-9]+)+)/;

  function nameSolutionButtons() {
    document.querySelectorAll(".solution > .admonition-title .toggle-button")
      .forEach(function (button) {
        var title = button.closest(".admonition-title").textContent.replace(/\s+/g, " ");
        var found = EXERCISE.exec(title);
        button.setAttribute("aria-label", found ? "Solution of Exercise " + found[1]
          : title.trim());
      });
  }

  function nameCodeToggles() {
    document.querySelectorAll("details.hide > summary[aria-label]").forEach(function (summary) {
      if (summary.textContent.trim()) summary.removeAttribute("aria-label");
    });
  }

  function landmarkSidebar() {
    var sidebar = document.getElementById("pst-primary-sidebar");
    if (sidebar && !sidebar.hasAttribute("role")) {
      sidebar.setAttribute("role", "navigation");
      sidebar.setAttribute("aria-label", "Book");
    }
  }

  function nameAll() {
    nameSearchButtons();
    nameModeButtons();
    nameSolutionButtons();
    nameCodeToggles();
    landmarkSidebar();
  }

  // The themes add their buttons' handlers, and sphinx-togglebutton its buttons, when the
  // document is loaded: name them once they are there.
  document.addEventListener("DOMContentLoaded", function () {
    setTimeout(nameAll, 0);
    new MutationObserver(nameModeButtons).observe(document.documentElement,
      {attributes: true, attributeFilter: ["data-mode"]});
  });
  window.addEventListener("load", nameAll);
})();
