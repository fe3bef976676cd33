// The chapters' explorers by touch and by ear (loaded on every page by
// book/_ext/explorer_frames.py; the explorers are pdtbook.explorer's sliders over frames drawn
// in advance, which the widget manager draws after the page has loaded):
//
// 1. Each slider's handle is named after the parameter it sets (its description, "α",
//    "scale s") and says the value it shows ("0.0156", not the position on the slider).
// 2. Each slider gets a "−" and a "+" button at its ends, which step it to the previous or
//    next value: a step of a slider over 20 values is 8 px of a phone's screen, which a thumb
//    cannot hit, while a button of 44 px can. They step the slider as its keyboard does (an
//    arrow key on the handle), so that the figure follows as it does for a drag. The slider
//    takes the width of the column on a phone (book.css).
(function () {
  "use strict";
  var SLIDERS = "article .widget-hslider";

  function stepper(handle, key, sign, name) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "explorer-step";
    button.textContent = sign;
    button.setAttribute("aria-label", name + (key === "ArrowLeft" ? ": previous value"
                                             : ": next value"));
    button.addEventListener("click", function () {
      handle.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true,
                                                          cancelable: true}));
    });
    return button;
  }

  function sayValue(handle, readout) {
    if (readout && readout.textContent) {
      handle.setAttribute("aria-valuetext", readout.textContent.trim());
    }
  }

  function equip(slider) {
    var handle = slider.querySelector(".noUi-handle");
    var container = slider.querySelector(".slider-container");
    if (!handle || !container || slider.classList.contains("explorer-slider")) return;
    slider.classList.add("explorer-slider");
    var label = slider.querySelector(".widget-label");
    var name = (label && label.textContent.trim()) || "value";
    handle.setAttribute("aria-label", name);
    var readout = slider.querySelector(".widget-readout");
    sayValue(handle, readout);
    if (readout) {
      new MutationObserver(function () { sayValue(handle, readout); })
        .observe(readout, {childList: true, characterData: true, subtree: true});
      // noUiSlider writes its own value text (the position) when the handle moves
      new MutationObserver(function () {
        if (handle.getAttribute("aria-valuetext") !== readout.textContent.trim()) {
          sayValue(handle, readout);
        }
      }).observe(handle, {attributes: true, attributeFilter: ["aria-valuetext"]});
    }
    container.parentNode.insertBefore(stepper(handle, "ArrowLeft", "\u2212", name), container);
    container.parentNode.insertBefore(stepper(handle, "ArrowRight", "+", name),
                                      container.nextSibling);
  }

  function equipAll() {
    document.querySelectorAll(SLIDERS).forEach(equip);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var article = document.querySelector("article");
    if (!article || !document.querySelector(
      'script[type="application/vnd.jupyter.widget-view+json"]')) return;
    var pending = null;
    new MutationObserver(function () {
      if (pending) return;
      pending = setTimeout(function () { pending = null; equipAll(); }, 50);
    }).observe(article, {childList: true, subtree: true});
    equipAll();
  });
})();
