// Loaded on pages with Jupyter widgets, after require.js and before the widget manager
// (html-manager/embed-amd.js); see nb_ipywidgets_js in _config.yml.

// 1. The widget manager is a set of AMD modules (@jupyter-widgets/base, .../controls,
//    .../html-manager/dist/libembed-amd, ...) that find their own files (icon fonts) relative to
//    where require.js thinks each module lives: by default a path relative to the page. Map them
//    all onto the copy served with the book, html-manager/ next to this file in _static/.
(function () {
  var here = document.currentScript.src.split("?")[0];
  var widgetsDir = here.slice(0, here.lastIndexOf("/") + 1) + "html-manager";
  window.require.config({
    paths: {
      "@jupyter-widgets": widgetsDir,
      "@jupyter-widgets/html-manager/dist": widgetsDir,
    },
  });
})();

// 2. The widgets typeset their labels with the MathJax 2 call
//    MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]) whenever window.MathJax exists; the book
//    uses MathJax 4, which has no Hub, so that call would throw and break the widget. Forward it
//    to MathJax 4. Widgets are drawn on the window's load event, after MathJax (a deferred
//    script) has replaced window.MathJax.
document.addEventListener("DOMContentLoaded", function () {
  var mathjax = window.MathJax;
  if (!mathjax || mathjax.Hub) return;
  mathjax.Hub = {
    Queue: function () {
      if (!mathjax.startup) return; // MathJax did not load: leave the labels as they are
      Array.prototype.forEach.call(arguments, function (job) {
        if (Array.isArray(job) && job[0] === "Typeset" && job[2]) {
          // Jupyter writes inline math in labels as $...$; MathJax here reads \(...\)
          var element = job[2];
          if (element.children.length === 0 && element.textContent.indexOf("$") >= 0) {
            element.textContent = element.textContent.replace(/\$([^$]+)\$/g, "\\($1\\)");
          }
          mathjax.startup.promise
            .then(function () { return mathjax.typesetPromise([element]); })
            .catch(function (error) { console.error("MathJax:", error); });
        }
      });
    },
  };
});
