// Search results show a snippet of each page's text. Sphinx takes it from the page's HTML,
// where formulas are still TeX source ("\(R_\alpha(P)\)"): show "…" in their place instead.
document.addEventListener("DOMContentLoaded", function () {
  // searchtools.js declares `const Search`, a global binding that is not a window property
  var search = typeof Search === "undefined" ? null : Search;
  if (!search || !search.htmlToText || search.htmlToText.withoutMath) return;
  var htmlToText = search.htmlToText;
  search.htmlToText = function (htmlString, anchor) {
    var page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll(".math, script[type^='math/tex']").forEach(function (element) {
      element.replaceWith(page.createTextNode("…"));
    });
    return htmlToText(page.documentElement.outerHTML, anchor);
  };
  search.htmlToText.withoutMath = true;
});
