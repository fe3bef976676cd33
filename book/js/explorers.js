// The chapters' explorers on the web page (loaded, deferred, on the pages that have one:
// book/_ext/static_explorers.py writes each explorer's HTML when the book is built).
//
// An explorer is a <figure class="explorer">: for each slider a range input with its label,
// readout and "−"/"+" buttons, then the text and image of the frame shown. The figure's
// data-frames gives the frame of every combination of the sliders' positions, the first
// slider's outermost, as [uri, width, height]; data-texts, when frames print text, the text
// of each. Each input's data-labels gives the label of each of its positions.
//
// 1. Moving a slider (drag, arrow keys, Home/End, or its "−" and "+" buttons: a step of a
//    slider over 20 values is a few pixels on a phone) shows its label in the readout and as
//    the input's aria-valuetext at once, and the frame once its image has loaded (the text
//    above the figure and the image's alternative text with it).
// 2. Frames are fetched when first needed: the frames next to the one shown (a step of each
//    slider) are fetched ahead once the explorer comes near the screen, and after each move.
(function () {
  "use strict";

  function data(element, name) {
    var value = element.getAttribute(name);
    return value ? JSON.parse(value) : null;
  }

  function equip(figure) {
    var frames = data(figure, "data-frames");
    var texts = data(figure, "data-texts");
    var img = figure.querySelector("img.explorer-frame");
    var pre = figure.querySelector("pre.explorer-text");
    if (!frames || !img) return;
    var sliders = Array.prototype.map.call(
      figure.querySelectorAll(".explorer-slider"), function (box) {
        var input = box.querySelector("input.explorer-range");
        return {box: box, input: input, labels: data(input, "data-labels"),
                readout: box.querySelector(".explorer-readout"),
                name: box.querySelector("label").textContent.trim()};
      });
    var fetched = {};
    var wanted = null;

    function position() {
      return sliders.map(function (slider) { return Number(slider.input.value); });
    }

    function frameIndex(at) {
      return at.reduce(function (index, value, k) {
        return index * sliders[k].labels.length + value;
      }, 0);
    }

    function fetchFrame(uri) {
      if (fetched[uri]) return;
      fetched[uri] = true;
      new Image().src = uri;
    }

    // the frames one step of a slider away
    function fetchNeighbours(at) {
      sliders.forEach(function (slider, k) {
        [-1, 1].forEach(function (step) {
          var next = at.slice();
          next[k] += step;
          if (next[k] >= 0 && next[k] < slider.labels.length) {
            fetchFrame(frames[frameIndex(next)][0]);
          }
        });
      });
    }

    function settings(at) {
      return sliders.map(function (slider, k) {
        return slider.name + " = " + slider.labels[at[k]];
      }).join(", ");
    }

    // The frame at ``at``, once its image has loaded (unless the sliders have moved on)
    function showFrame(at) {
      var index = frameIndex(at);
      var frame = frames[index];
      wanted = index;
      var image = new Image();
      image.onload = image.onerror = function () {
        if (wanted !== index) return;
        img.src = frame[0];
        if (frame[1] && frame[2]) {
          img.width = frame[1];
          img.height = frame[2];
        }
        img.alt = "The explorer's figure at " + settings(at);
        // reading.js names a figure that opens at full size after its alternative text
        if (img.hasAttribute("aria-label")) {
          img.setAttribute("aria-label", "Open at full size: " + img.alt);
        }
        if (pre && texts) {
          pre.textContent = texts[index];
          pre.hidden = !texts[index];
        }
        figure.setAttribute("data-shown", String(index));
      };
      fetched[frame[0]] = true;
      image.src = frame[0];
    }

    function update() {
      var at = position();
      sliders.forEach(function (slider, k) {
        var label = slider.labels[at[k]];
        slider.readout.textContent = label;
        slider.input.setAttribute("aria-valuetext", label);
      });
      showFrame(at);
      fetchNeighbours(at);
    }

    sliders.forEach(function (slider) {
      slider.input.addEventListener("input", update);
      slider.box.querySelectorAll("button.explorer-step").forEach(function (button) {
        button.addEventListener("click", function () {
          var input = slider.input;
          var value = Math.min(Number(input.max), Math.max(Number(input.min),
                               Number(input.value) + Number(button.getAttribute("data-step"))));
          if (value !== Number(input.value)) {
            input.value = String(value);
            update();
          }
        });
      });
    });

    // a page restored from the history may keep the positions the reader left
    var start = frameIndex(position());
    if (sliders.some(function (slider) {
      return slider.input.value !== slider.input.defaultValue;
    })) {
      update();
    } else {
      fetched[frames[start][0]] = true;
      figure.setAttribute("data-shown", String(start));
    }
    if ("IntersectionObserver" in window) {
      var near = new IntersectionObserver(function (entries) {
        if (entries.some(function (entry) { return entry.isIntersecting; })) {
          near.disconnect();
          fetchNeighbours(position());
        }
      }, {rootMargin: "300px 0px"});
      near.observe(figure);
    } else {
      fetchNeighbours(position());
    }
  }

  function equipAll() {
    document.querySelectorAll("figure.explorer").forEach(equip);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", equipAll);
  } else {
    equipAll();
  }
})();
