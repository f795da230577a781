import { inlineHash } from '../headers';

/**
 * Scripts after the first paint (docs/rendering.md, « Scripts after the paint »). A page rendered on
 * the server is readable before any script runs; its scripts (the shell's entry, the remote entries,
 * the page's and the player's chunks, the manifests) would otherwise share the phone's bandwidth
 * with the page's image and run before the first paint, since a deferred script runs as soon as the
 * document is parsed. A page rendered on the server therefore names them in a JSON element and
 * loads, instead of the shell's entry, this small loader, which fetches them once the page is
 * painted: one frame and one task after the document is parsed, or after `BOOT_FALLBACK_MS` when no
 * frame comes (a tab in the background).
 */

/** The element that lists what the loader fetches (`{ preloads: [{ href, as, crossorigin? }] }`). */
export const BOOT_ID = 'boot';

/** A tab in the background paints no frame: the scripts start anyway after this. */
export const BOOT_FALLBACK_MS = 3000;

/** How often a tap kept before the page was interactive is tried again, and for how long. */
export const EARLY_TAP_POLL_MS = 100;
export const EARLY_TAP_MAX_MS = 20_000;

export interface BootPreload {
  href: string;
  as: 'script' | 'fetch';
  crossorigin?: 'anonymous';
}

/**
 * What every rendered page carries: the source without its comments, blank lines and indentation
 * (3.6 KB → 2.5 KB, 1.24 → 0.88 KB compressed, in every page's HTML). Each line stays a line, so no
 * statement changes meaning; the source writes its comments on lines of their own for this.
 */
function compact(source: string): string {
  return source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
}

/**
 * The loader, as the browser runs it (ES5, no module: it is the one script every rendered page
 * starts with). `data-src` on its own element names the shell's entry.
 */
export const BOOT_SOURCE = compact(`(function () {
  var me = document.currentScript;
  var main = me && me.getAttribute('data-src');
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var preloads = [];
    try {
      preloads = JSON.parse(document.getElementById('${BOOT_ID}').textContent).preloads || [];
    } catch (error) {
      preloads = [];
    }
    // One insertion into the head, not one per file.
    var batch = document.createDocumentFragment();
    for (var i = 0; i < preloads.length; i += 1) {
      var link = document.createElement('link');
      link.setAttribute('rel', 'preload');
      link.setAttribute('as', preloads[i].as);
      link.setAttribute('href', preloads[i].href);
      if (preloads[i].crossorigin) link.setAttribute('crossorigin', preloads[i].crossorigin);
      batch.appendChild(link);
    }
    if (main) {
      var script = document.createElement('script');
      script.setAttribute('src', main);
      batch.appendChild(script);
    }
    document.head.appendChild(batch);
  }
  // After the first contentful paint as the browser reports it: a frame's callbacks run before
  // that frame is on the screen, and a phone's screen can show it tens of milliseconds later.
  var observing = false;
  try {
    var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
    if (types && types.indexOf('paint') >= 0) {
      var observer = new PerformanceObserver(function (list) {
        var entries = list.getEntries();
        for (var i = 0; i < entries.length; i += 1) {
          if (entries[i].name !== 'first-contentful-paint') continue;
          observer.disconnect();
          setTimeout(start, 0);
        }
      });
      observer.observe({ type: 'paint', buffered: true });
      observing = true;
    }
  } catch (error) {
    observing = false;
  }
  // A browser that does not report its paints: one frame and one task.
  if (!observing)
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  setTimeout(start, ${String(BOOT_FALLBACK_MS)});

  // Taps before the page is interactive: a button of the page does nothing until its area's script
  // has taken it over (React hydrating it). Such a tap is kept aside, and the button pressed again
  // once its area is interactive; a button that is gone by then is forgotten. Links and submit
  // buttons work without scripts and are left alone.
  var root = document.getElementById('root');
  var kept = [];
  var since = 0;
  function interactive(control) {
    var keys = Object.keys(control);
    for (var i = 0; i < keys.length; i += 1) if (keys[i].indexOf('__reactProps') === 0) return true;
    return false;
  }
  function press() {
    var waiting = [];
    for (var i = 0; i < kept.length; i += 1) {
      var control = kept[i];
      if (!control.isConnected) continue;
      if (interactive(control)) control.click();
      else waiting.push(control);
    }
    kept = waiting;
    if (kept.length > 0 && Date.now() - since < ${String(EARLY_TAP_MAX_MS)}) setTimeout(press, ${String(EARLY_TAP_POLL_MS)});
    else kept = [];
  }
  document.addEventListener(
    'click',
    function (event) {
      var target = event.target;
      var control = target && target.closest ? target.closest('button, [role="button"]') : null;
      if (!control || !root || !root.contains(control) || control.disabled) return;
      if ((control.type === 'submit' && control.form) || interactive(control)) return;
      event.stopPropagation();
      if (kept.indexOf(control) >= 0) return;
      kept.push(control);
      if (kept.length === 1) {
        since = Date.now();
        setTimeout(press, ${String(EARLY_TAP_POLL_MS)});
      }
    },
    true,
  );
})();
`);

/**
 * The loader is written into the page (render/document.ts), allowed by this hash in the page's
 * `script-src`: a file of its own was one more request before the first paint.
 */
export const BOOT_HASH = inlineHash(BOOT_SOURCE);
