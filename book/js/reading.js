// Reading on any screen (loaded on every page, see html_js_files in _config.yml):
//
// 1. Figures open at full size. A figure shown smaller than it was drawn (on a phone, a 7-inch
//    figure is shrunk to half its size) opens, on a tap, a click, or Enter/Space once focused,
//    in a view that shows it centred on the screen, whole when it fits: at the size it was
//    drawn at, or smaller to fit the screen, but never so small that its smallest text falls
//    under 9 px (3/4 of the size it was drawn at); a figure that still does not fit scrolls,
//    opened at its middle (its title, centred above it, in view). Escape, a tap on the view or
//    its close button closes it. Chapter figures, the explorers' frames (which explorers.js
//    changes as a slider moves) and the pages' figures all work so.
// 2. Boxes that scroll sideways say so. A table, code cell or text output wider than its box
//    gets the class scroll-cue (a shadow at the edge that hides columns and a "scroll" label,
//    book.css) for as long as it is wider, and is a Tab stop (scrolled with the arrow keys).
// (Punctuation after an in-line formula is kept with it when the book is
// built, in book/_ext/prerender_math.mjs.)
(function () {
  "use strict";
  var FIGURES = "article .cell_output img, article figure img";

  // 1. Figures at full size --------------------------------------------------------------
  // The width a figure was drawn at: the size a 2x PNG declares (Sphinx writes it as the
  // image's style width, or a width attribute), else its width in pixels.
  function drawnWidth(img) {
    var declared = /px$/.test(img.style.width) ? img.style.width : img.getAttribute("width");
    return parseFloat(declared) || img.naturalWidth;
  }

  function markZoomable(img) {
    if (img.classList.contains("zoomable")) return;
    img.classList.add("zoomable");
    img.setAttribute("tabindex", "0");
    img.setAttribute("role", "button");
    var alt = img.getAttribute("alt") || "figure";
    img.setAttribute("aria-label", "Open at full size: " + alt);
    // Sphinx links an image with a declared size to its file: the view replaces that link
    var link = img.closest("a.image-reference");
    if (link) link.setAttribute("tabindex", "-1");
  }

  // The book's figures are drawn with text of at least 9 pt at 96 dpi, 12 px at the size they
  // were drawn at; the view shrinks a figure to fit the screen down to 9 px text, no further.
  var SMALLEST_SCALE = 9 / 12;

  var opener = null; // the figure whose view is open, focused again when it closes

  // Size the figure in the view (width and height, known before the large image loads) and
  // centre the view on it.
  function fitView(view, large, img) {
    var frame = large.parentElement;
    var style = getComputedStyle(frame);
    var roomX = view.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    var roomY = view.clientHeight - parseFloat(style.paddingTop)
      - parseFloat(style.paddingBottom);
    var width = drawnWidth(img);
    var ratio = img.naturalWidth && img.naturalHeight ? img.naturalHeight / img.naturalWidth
      : (large.naturalHeight / large.naturalWidth) || 0;
    var scale = Math.min(1, roomX / width, ratio ? roomY / (width * ratio) : 1);
    scale = Math.max(scale, SMALLEST_SCALE);
    large.style.width = Math.ceil(width * scale) + "px";
    large.style.height = ratio ? Math.ceil(width * scale * ratio) + "px" : "auto";
    view.scrollLeft = Math.max(0, (view.scrollWidth - view.clientWidth) / 2);
    view.scrollTop = 0;
  }

  function refit() {
    var view = document.querySelector(".figure-zoom");
    if (view && opener) fitView(view, view.querySelector("img"), opener);
  }

  function closeView() {
    var view = document.querySelector(".figure-zoom");
    if (view) view.remove();
    window.removeEventListener("resize", refit);
    document.body.classList.remove("figure-zoom-open");
    if (opener) opener.focus();
    opener = null;
  }

  function openView(img) {
    closeView();
    opener = img;
    var view = document.createElement("div");
    view.className = "figure-zoom";
    view.setAttribute("role", "dialog");
    view.setAttribute("aria-modal", "true");
    view.setAttribute("aria-label", "Figure at full size");
    var close = document.createElement("button");
    close.type = "button";
    close.className = "figure-zoom-close";
    close.setAttribute("aria-label", "Close");
    close.textContent = "\u00d7";
    var large = document.createElement("img");
    large.src = img.currentSrc || img.src;
    large.alt = img.getAttribute("alt") || "";
    var frame = document.createElement("div");
    frame.className = "figure-zoom-frame";
    frame.appendChild(large);
    view.appendChild(close);
    view.appendChild(frame);
    view.addEventListener("click", function (event) {
      if (event.target === view || event.target === close || event.target === large) {
        closeView();
      }
    });
    document.body.appendChild(view);
    document.body.classList.add("figure-zoom-open");
    fitView(view, large, img);
    if (!large.complete) large.addEventListener("load", refit);
    window.addEventListener("resize", refit);
    close.focus({preventScroll: true});
  }

  document.addEventListener("click", function (event) {
    var img = event.target.closest && event.target.closest(FIGURES);
    if (img && img.classList.contains("zoomable")) {
      event.preventDefault();
      openView(img);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && document.querySelector(".figure-zoom")) {
      closeView();
      return;
    }
    var img = event.target;
    if (img.matches && img.matches("img.zoomable")
        && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      openView(img);
    }
  });

  // 2. Scroll cues --------------------------------------------------------------------------
  function scrollBoxes() {
    var boxes = [];
    document.querySelectorAll("article pre").forEach(function (pre) { boxes.push(pre); });
    document.querySelectorAll("article table").forEach(function (table) {
      if (!table.closest("mjx-container")) boxes.push(table.parentElement);
    });
    return boxes;
  }

  function wider(box) {
    return box.scrollWidth > box.clientWidth + 1;
  }

  // Every width is read before anything is changed: a change between two reads would make
  // the browser lay out the whole page again for the next one (a page of formulas is
  // tens of thousands of elements; Chapter 4 took 2 s on a phone's CPU).
  function markScrolling() {
    var boxes = scrollBoxes();
    var scrolling = boxes.map(wider);
    // a Library reference signature too long for the column scrolls inside itself (book.css)
    var signatures = Array.prototype.filter.call(
      document.querySelectorAll("article dl.py > dt.sig"), wider);
    boxes.forEach(function (box, index) {
      box.classList.toggle("scroll-cue", scrolling[index]);
      // a box that scrolls is a Tab stop, so that the keyboard can scroll it (the theme's
      // own pass may have made it -1 when the window was wider and the box did not scroll)
      if (scrolling[index] && box.tabIndex < 0) box.setAttribute("tabindex", "0");
    });
    signatures.forEach(function (signature) {
      if (signature.tabIndex < 0) signature.setAttribute("tabindex", "0");
    });
    document.querySelectorAll(FIGURES).forEach(markZoomable);
  }

  // At most one pass every 150 ms, however often the page changes (a page that keeps
  // changing still gets its pass).
  var pending = null;
  function later() {
    if (pending) return;
    pending = setTimeout(function () {
      pending = null;
      markScrolling();
    }, 150);
  }

  // A result table's short cells (numbers, "9 = 9") stay on one line; long text wraps.
  function keepShortCellsWhole() {
    document.querySelectorAll("article table.dataframe td, article table.dataframe th")
      .forEach(function (cell) {
        if (cell.textContent.trim().length <= 24) cell.classList.add("short-cell");
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    keepShortCellsWhole();
    markScrolling();
    window.addEventListener("resize", later);
    window.addEventListener("load", later);
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(later);
    }
    // images load after the page
    document.addEventListener("load", function (event) {
      if (event.target.tagName === "IMG") later();
    }, true);
    // a folded code cell (book/_ext/code_folds.py) shows its code when opened
    document.addEventListener("toggle", later, true);
    new MutationObserver(later).observe(document.querySelector("article") || document.body,
                                        {childList: true, subtree: true});
  });
})();
