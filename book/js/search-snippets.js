// Search results show a snippet of each page's text, which Sphinx's
// searchtools.js takes from the textContent of the page's HTML. The book's
// formulas are typeset when it is built (book/_ext/prerender_math.py): a
// formula's text there is its CHTML glyphs followed by its hidden MathML,
// each letter twice and without sub- or superscripts ("RαRα(P)"). Each
// formula is given instead as a line of text read from its MathML,
// "R_α(P) ≤ min_(P ⪯ T) R_α(T)": sub- and superscripts after "_" and "^"
// (in brackets when longer than a character), fractions with "/", spaces
// around relations and operators. A formula still in TeX (a book built
// with BOOK_MATH=browser) is given as its TeX, without the delimiters.
document.addEventListener("DOMContentLoaded", function () {
  // searchtools.js declares `const Search`, a global binding that is not a
  // window property
  var search = typeof Search === "undefined" ? null : Search;
  if (!search || !search.htmlToText || search.htmlToText.readsMath) return;
  var htmlToText = search.htmlToText;

  var SPACED = /^[=<>≤≥≠≈∼≃≡∈∉⊂⊆⊃⊇⪯≺≼≻→←↦⇒⇔∣+−±∓×·∧∨]$/;
  // an accent over a letter, as the combining character that draws it
  // (T̂, x̄, p̃)
  var ACCENTS = {
    "^": "\u0302", "\u02c6": "\u0302", "~": "\u0303", "\u02dc": "\u0303",
    "\u00af": "\u0304", "\u2015": "\u0304", "\u2012": "\u0304",
    "\u2192": "\u20d7"};

  function linear(node) {
    var kids = Array.prototype.slice.call(node.children);
    var part = function (i) { return kids[i] ? linear(kids[i]) : ""; };
    var group = function (i) {
      var text = part(i).trim();
      return Array.from(text).length > 1 ? "(" + text + ")" : text;
    };
    switch (node.localName) {
      case "mi": case "mn": case "mtext": case "ms":
        return node.textContent.replace(/[\u2061-\u2064]/g, "");
      case "mo":
        var op = node.textContent.replace(/[\u2061-\u2064]/g, "").trim();
        return SPACED.test(op) ? " " + op + " " : op;
      case "mspace":
        return " ";
      case "msub": case "munder":
        return part(0) + "_" + group(1);
      case "msup":
        return part(0) + "^" + group(1);
      case "mover":
        var accent = ACCENTS[part(1).trim()];
        return accent ? part(0) + accent : part(0) + "^" + group(1);
      case "msubsup": case "munderover":
        return part(0) + "_" + group(1) + "^" + group(2);
      case "mfrac":
        return group(0) + "/" + group(1);
      case "msqrt":
        return "√(" + kids.map(linear).join("").trim() + ")";
      case "mroot":
        return group(1) + "√(" + part(0).trim() + ")";
      case "mtable":
        return kids.map(linear).join("; ");
      case "mtd":
        return linearAll(kids) + " ";
      default:
        return linearAll(kids);
    }
  }

  function linearAll(kids) {
    return kids.map(linear).join("");
  }

  // The text a formula's element (span.math or div.math) stands for in a
  // snippet.
  function formulaText(element) {
    // a display drawn twice (for a laptop's column and for a phone's) is
    // read once
    var drawn = element.querySelectorAll(
      ":scope > mjx-container:not(.mjx-narrow)");
    if (!drawn.length) {
      return element.textContent
        .replace(/\\\(|\\\)|\\\[|\\\]|\$\$/g, "").trim();
    }
    return Array.prototype.map.call(drawn, function (container) {
      var math = container.querySelector("mjx-assistive-mml math");
      var punctuation = container.querySelector(":scope > .math-punct");
      var text = math ? linear(math).replace(/\s+/g, " ").trim() : "";
      return text + (punctuation ? punctuation.textContent : "");
    }).join(" ");
  }

  search.htmlToText = function (htmlString, anchor) {
    var page = new DOMParser().parseFromString(htmlString, "text/html");
    var formulas = page.querySelectorAll(".math, script[type^='math/tex']");
    formulas.forEach(function (element) {
      element.replaceWith(page.createTextNode(formulaText(element)));
    });
    return htmlToText(page.documentElement.outerHTML, anchor);
  };
  search.htmlToText.readsMath = true;
});
