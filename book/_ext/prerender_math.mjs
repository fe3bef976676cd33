// Typeset the book's formulas once, when the book is built, instead of in every reader's browser.
//
// Called by book/_ext/prerender_math.py at the end of an HTML build, with a JSON job on stdin:
//
//   {"files": [...HTML files...], "stylesheet": ".../_static/mathjax-chtml.css",
//    "fontURL": "mathjax-fonts/mathjax-newcm-font/chtml/woff2", "mathjax": {...mathjax3_config},
//    "scale": 1.273, "em": 16, "wide": 688, "narrow": 280, "step": 8}
//
// Every <span|div class="math notranslate nohighlight"> that Sphinx wrote with its TeX between
// \( \), \[ \] or $$ $$ gets, in place of the TeX, the CHTML that MathJax 4 draws in a browser,
// with its hidden MathML for screen readers (no tabindex: formulas are not Tab stops). The rest
// of each page is left byte for byte as it was. All pages go through one MathJax document, so
// the stylesheet written at the end (the CSS of every character used, the @font-face rules of
// the woff2 fonts the book serves, and the rules below) serves every page and is cached.
//
// Punctuation right after an in-line formula (",", ".", ";", ":", ")",
// ...) is moved into the formula's mjx-container, after its hidden MathML,
// in a <span class="math-punct"> set in the text's size: a line then never
// starts with it, nor leaves it behind. (The browser may break a line at
// the boundary of an inline-block, which every glyph of a formula is; a
// span with white-space: nowrap around the formula and its comma does not
// hold a formula that MathJax breaks across lines, mjx-break being
// white-space: normal: Chromium then drew the comma at the right edge of
// the formula's first line. Inside the container, which is nowrap, it
// stays with the formula's last line.) When that line is a full line, the
// punctuation hangs past its end: the theme's span.math clips what
// overflows it, so it clips with a margin (overflow: clip,
// overflow-clip-margin) wide enough for two marks ("),") instead of hiding
// them.
//
// A display equation is broken across lines by MathJax for the width of its column. It is drawn
// for the laptop's column (`wide` px, where every display of the book fits as written) and, when
// it is wider than a phone's narrowest box (`narrow` px: a proof's box on a 390 px phone), a
// second time broken for that width; a container query shows the second one when the column
// is narrower than the first.
//
// Prints one line of JSON: the numbers of pages, formulas and displays drawn twice, and the
// formulas MathJax could not typeset (an unknown macro, a TeX error), with their page.

import {readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {init} from 'mathjax';

const job = JSON.parse(readFileSync(0, 'utf8'));
const modules = job.node_modules
  || join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules');

// The browser's configuration (_config.yml, mathjax3_config) minus what only a browser uses:
// the loader's paths (the fonts are read from node_modules here) and the menu's settings.
const config = structuredClone(job.mathjax || {});
const tex = config.tex || {};
const output = {...(config.output || {}), font: 'mathjax-newcm'};
const options = {...(config.options || {})};
delete options.menuOptions;
delete options.processHtmlClass;
delete options.ignoreHtmlClass;

const MathJax = await init({
  loader: {
    load: ['input/tex', 'output/chtml', 'adaptors/liteDOM', 'a11y/assistive-mml'],
    paths: {mathjax: join(modules, 'mathjax'), fonts: join(modules, '@mathjax')},
  },
  tex,
  output,
  chtml: {fontURL: job.fontURL},
  options: {...options, enableAssistiveMml: true},
  startup: {typeset: false},
});
const adaptor = MathJax.startup.adaptor;

// A function and its argument stay on one line: MathJax 4 may break a display (or an
// aligned environment's left-hand side, when it breaks a table's cells to fit a phone) right
// before an argument's opening parenthesis, as in "pen" | "(P) =". TeX never breaks there.
// An opening parenthesis (or \big( and its kin, a TeXAtom around one) right after a name, a
// name with a subscript or an accent, or the invisible function application of
// \operatorname, is marked linebreak="nobreak".
// (A TeXAtom is a name when it is of TeX's class ORD or OP: \mathcal{D}, \operatorname.)
const NAMES = new Set(['mi', 'msub', 'msup', 'msubsup', 'mover', 'munder']);
const APPLY = '\u2061';
const [ORD, OP] = [0, 1];
const isName = node => NAMES.has(node.kind)
  || (node.isKind('TeXAtom') && (node.texClass === ORD || node.texClass === OP))
  || (node.isKind('mo') && node.getText() === APPLY);
MathJax.startup.document.inputJax[0].postFilters.add(({data}) => {
  for (const paren of data.getList('mo')) {
    if (paren.getText() !== '(') continue;
    let node = paren;
    while (node.parent && node.parent.isInferred && node.parent.childNodes.length === 1
           && node.parent.parent && node.parent.parent.isKind('TeXAtom')) {
      node = node.parent.parent;
    }
    if (!node.parent) continue;
    const siblings = node.parent.childNodes;
    const before = siblings[siblings.indexOf(node) - 1];
    if (before && isName(before)) paren.attributes.set('linebreak', 'nobreak');
  }
});

const ENTITIES = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0'};
const unescape = text => text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name) => {
  if (name[0] === '#') {
    return String.fromCodePoint(name[1] === 'x' || name[1] === 'X'
      ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
  }
  return ENTITIES[name] ?? whole;
});

// A formula between its delimiters; Sphinx writes one per element.
const DELIMITED = /\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]|\$\$([\s\S]*?)\$\$/g;
const ELEMENT = /(<(span|div) class="math notranslate nohighlight"[^>]*>)([\s\S]*?)(<\/\2>)/g;
// Tags inside a math element (Sphinx's equation number, <span class="eqno">) are kept as
// they are, before the formula.
const TAG = /<span class="eqno">[\s\S]*?<\/span>/g;

// data-latex on every node of the CHTML and of the MathML doubles the size of a formula; only
// the formula's own (on mjx-math, for the browser test's messages) is kept.
const stripLatex = html => {
  let first = true;
  return html.replace(/ data-latex="[^"]*"/g, whole => {
    if (first) {
      first = false;
      return whole;
    }
    return '';
  });
};

// The text's em in px; the ex of MathJax's own font (its size is then `scale` times the text's,
// as the browser measured it against the book's font).
const ex = job.em * MathJax.startup.output.font.params.x_height;
// (MathJax compares a formula's unscaled width with the container's: a column `width` px wide
// holds `width / scale` px of unscaled formula.)
const metrics = width => ({em: job.em, ex, containerWidth: width / job.scale, scale: job.scale});

async function draw(source, display, width) {
  const node = await MathJax.tex2chtmlPromise(source, {display, ...metrics(width)});
  return adaptor.outerHTML(node);
}

const broken = html => html.includes('<mjx-linebox');

// The narrowest column (a multiple of `step` px) where a display fits unbroken.
async function fitsFrom(source) {
  let low = job.narrow, high = job.wide;
  while (high - low > job.step) {
    const middle = Math.round((low + high) / 2 / job.step) * job.step;
    if (broken(await draw(source, true, middle))) low = middle; else high = middle;
  }
  return high;
}

const mark = (html, classes) => html.replace('class="MathJax"', `class="MathJax ${classes}"`);

const stats = {pages: 0, formulas: 0, twice: 0, errors: []};
const thresholds = new Set();

async function render(source, display, page) {
  stats.formulas += 1;
  let wide = await draw(source, display, job.wide);
  if (/<mjx-merror|data-mjx-error/.test(wide)) {
    stats.errors.push(`${page}: ${source.trim().slice(0, 100)}`);
  }
  if (!display) return stripLatex(wide);
  const narrow = await draw(source, true, job.narrow);
  if (!broken(narrow)) return stripLatex(wide);
  const from = await fitsFrom(source);
  thresholds.add(from);
  stats.twice += 1;
  return stripLatex(mark(wide, `mjx-wide mjx-upto-${from}`))
    + stripLatex(mark(narrow, `mjx-narrow mjx-upto-${from}`));
}

async function renderElement(page, open, inner) {
  const display = open.startsWith('<div');
  const kept = (inner.match(TAG) || []).join('');
  const text = inner.replace(TAG, '');
  const found = [...text.matchAll(DELIMITED)];
  if (found.length === 0) return null;
  let out = kept;
  for (const match of found) {
    const body = match[1] ?? match[2] ?? match[3];
    out += await render(unescape(body), display || match[1] === undefined, page);
  }
  return out;
}

// Punctuation that must not start a line, right after an in-line formula.
const PUNCTUATION = /^[.,;:!?)\]]+/;

// An in-line formula's container with the punctuation after it inside
// (see above).
const withPunctuation = (drawn, punctuation) => {
  const end = drawn.lastIndexOf('</mjx-container>');
  return drawn.slice(0, end) + `<span class="math-punct">${punctuation}</span>`
    + drawn.slice(end);
};

for (const file of job.files) {
  const source = readFileSync(file, 'utf8');
  const parts = [];
  let last = 0;
  for (const match of source.matchAll(ELEMENT)) {
    const [whole, open, , inner, close] = match;
    let drawn = await renderElement(file, open, inner);
    if (drawn === null) continue;
    let end = match.index + whole.length;
    const punctuation = open.startsWith('<span')
      && PUNCTUATION.exec(source.slice(end, end + 8));
    if (punctuation) {
      drawn = withPunctuation(drawn, punctuation[0]);
      end += punctuation[0].length;
    }
    parts.push(source.slice(last, match.index), open, drawn, close);
    last = end;
  }
  if (parts.length === 0) continue;
  parts.push(source.slice(last));
  writeFileSync(file, parts.join(''));
  stats.pages += 1;
}

// The top-level blocks of a stylesheet (a rule, an @font-face, an @container with its rules).
function blocks(css) {
  const found = [];
  let depth = 0, start = 0;
  for (let i = 0; i < css.length; i++) {
    if (css[i] === '{') depth += 1;
    if (css[i] === '}' && --depth === 0) {
      found.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return found;
}

// A build that rewrites only some pages (Sphinx writes the pages whose source changed) keeps
// the rules the other pages need: the new stylesheet is the old one's blocks and then any new.
function merged(css) {
  let old = '';
  try {
    old = readFileSync(job.stylesheet, 'utf8');
  } catch {
    return css;
  }
  const all = blocks(old);
  const seen = new Set(all);
  for (const block of blocks(css)) {
    if (!seen.has(block)) {
      seen.add(block);
      all.push(block);
    }
  }
  return all.join('\n\n');
}

// A display drawn twice: the one broken for a phone is shown where the column is narrower
// than the unbroken one (each display's column is its query container).
const switches = [...thresholds].sort((a, b) => a - b).map(from => [
  `@container (max-width: ${from - 0.02}px) {`,
  `  div.math > mjx-container.mjx-wide.mjx-upto-${from} { display: none; }`,
  `  div.math > mjx-container.mjx-narrow.mjx-upto-${from} { display: block; }`,
  '}',
].join('\n'));
const css = [
  adaptor.textContent(MathJax.chtmlStylesheet()),
  'div.math { container-type: inline-size; }',
  // the punctuation moved into a formula's container, in the text's size
  // (the container's is the formula's, `scale` times the text's)
  'mjx-container > span.math-punct { font-size: '
    + `${(100 / job.scale).toFixed(2)}%; }`,
  // ... and shown when it hangs past the end of a full line (the theme's
  // span.math is overflow: hidden)
  'span.math { overflow: clip; overflow-clip-margin: 0.75em; }',
  'div.math > mjx-container.mjx-narrow { display: none; }',
  ...switches,
].join('\n');
writeFileSync(job.stylesheet, merged(css) + '\n');
console.log(JSON.stringify(stats));
