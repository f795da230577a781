// Reading a Chromium trace of one page visit, shared by bench/main-thread.mjs and
// bench/visitor-tasks.mjs: the page's main thread, its navigation's start, its tasks after the first
// contentful paint, and the browser's own work inside each.

/** The trace's events for the browser's own work on the main thread, and what each is. */
export const BROWSER_WORK = {
  UpdateLayoutTree: 'styles',
  Layout: 'mise en page',
  ParseHTML: 'analyse du HTML',
  ParseAuthorStyleSheet: 'analyse des feuilles de style',
  PrePaint: 'peinture',
  Paint: 'peinture',
  Layerize: 'peinture',
  'Decode Image': 'décodage d’images',
  'v8.compile': 'compilation',
  'v8.compileModule': 'compilation',
  // V8 parses a function again for its source positions when a stack is captured with positions:
  // under DevTools (an Error made, a console call, the trace's stacks), never for a visitor's error.
  'V8.CollectSourcePositions': 'positions des sources (DevTools)',
};

/** The page's main thread in a trace: the one that painted the first content. */
export function mainThread(events) {
  const fcp = events.filter((event) => event.name === 'firstContentfulPaint').sort((x, y) => x.ts - y.ts)[0];
  return fcp === undefined
    ? null
    : { pid: fcp.pid, tid: fcp.tid, fcp: fcp.ts, navigation: fcp.args?.data?.navigationId };
}

/**
 * The navigation's start (µs, the trace's clock): the one the paint names (the page's process makes
 * others, for blank frames); else the last one of the page's address before the paint; else null.
 */
export function navigationStart(events, main, url) {
  const starts = events.filter((event) => event.name === 'navigationStart');
  return (
    starts.find((event) => event.args?.data?.navigationId === main.navigation)?.ts ??
    starts
      .filter((event) => event.args?.data?.documentLoaderURL === url && event.ts <= main.fcp)
      .sort((x, y) => y.ts - x.ts)[0]?.ts ??
    null
  );
}

/**
 * The main thread's tasks longer than `minMs` from `main.fcp` on, outermost only (a task nested in
 * another, a nested run loop, is counted in the outer one), in order.
 */
export function tasksAfterPaint(events, main, minMs) {
  return events
    .filter(
      (event) =>
        event.pid === main.pid &&
        event.tid === main.tid &&
        event.ph === 'X' &&
        (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask') &&
        event.dur > minMs * 1000 &&
        event.ts >= main.fcp,
    )
    .sort((x, y) => x.ts - y.ts)
    .filter((event, i, all) => !all.slice(0, i).some((outer) => outer.ts + outer.dur >= event.ts + event.dur));
}

/** The main thread's events of the browser's own work (BROWSER_WORK), for `browserWorkIn`. */
export function browserWorkEvents(events, main) {
  return events.filter(
    (event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && BROWSER_WORK[event.name],
  );
}

/** The browser's own work inside one task, by kind, in ms (kinds of `minMs` or more), largest first. */
export function browserWorkIn(work, task, minMs = 5) {
  const byKind = new Map();
  for (const event of work) {
    if (event.ts < task.ts || event.ts >= task.ts + task.dur) continue;
    const what = BROWSER_WORK[event.name];
    byKind.set(what, (byKind.get(what) ?? 0) + event.dur / 1000);
  }
  return [...byKind].filter(([, ms]) => ms >= minMs).sort((x, y) => y[1] - x[1]);
}

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
