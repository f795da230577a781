// One Lighthouse audit (mobile, simulated throttling) in Debian's Chromium, as every bench reports it.
import { chromiumArgs, chromiumPath } from './browser.mjs';

/**
 * One audit; an audit Lighthouse itself could not finish (`runtimeError`, e.g. NO_NAVSTART when its
 * trace missed the navigation, seen once in twenty runs here) is run again, up to twice, rather than
 * counted as a score of 0.
 */
export async function lighthouseRun(url, { cpuSlowdown = 4 } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouseOnce(url, cpuSlowdown);
    if (result.runtimeError === null || attempt === 3) return result;
  }
}

/**
 * Lighthouse's whole result (its report `lhr` and the run's `artifacts`: trace, requests) for one
 * page, mobile, simulated throttling, in a Chromium of its own. `cpuSlowdown`: how many times slower
 * than this machine the simulated phone's processor is (Lighthouse's 4 by default; a larger one
 * stands for a slower phone, or lifts tasks of a few milliseconds out of the runs' noise).
 * @param {string} url
 * @param {string[]} categories
 * @param {{ cpuSlowdown?: number }} options
 */
export async function lighthouseResult(
  url,
  categories = ['performance', 'accessibility', 'best-practices', 'seo'],
  { cpuSlowdown = 4 } = {},
) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const constants = await import('lighthouse/core/config/constants.js');
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
  try {
    return await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
      formFactor: 'mobile',
      throttlingMethod: 'simulate',
      throttling: { ...constants.throttling.mobileSlow4G, cpuSlowdownMultiplier: cpuSlowdown },
      // Third-party hosts are unreachable here; Lighthouse must not wait on them.
      blockedUrlPatterns: ['*embed.twitch.tv*', '*calendar.google.com*', '*www.google.com*', '*minnit.chat*'],
    });
  } finally {
    await chrome.kill();
  }
}

async function lighthouseOnce(url, cpuSlowdown) {
  const { lhr } = await lighthouseResult(url, undefined, { cpuSlowdown });
  const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const audit = (a) => lhr.audits[a]?.numericValue ?? null;
  return {
    runtimeError: lhr.runtimeError?.code ?? null,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(audit('largest-contentful-paint') ?? 0),
    tbtMs: Math.round(audit('total-blocking-time') ?? 0),
    cls: Math.round((audit('cumulative-layout-shift') ?? 0) * 1000) / 1000,
    fcpMs: Math.round(audit('first-contentful-paint') ?? 0),
    // The main thread's long tasks as Lighthouse simulated them (4× CPU): where TBT comes from, each
    // with the script it is charged to, its start and its length (ms).
    longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).map((task) => ({
      url: String(task.url ?? ''),
      startMs: Math.round(task.startTime ?? 0),
      ms: Math.round(task.duration ?? 0),
    })),
    // What the browser asked for before the LCP, as Lighthouse saw it (its simulated slow 4G shares
    // the bandwidth among them): path, bytes on the wire, priority.
    beforeLcp: beforeLcp(lhr),
    lcpElement: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
    failing: Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          a.scoreDisplayMode !== 'informative' &&
          a.scoreDisplayMode !== 'notApplicable',
      )
      .map((a) => a.id)
      .slice(0, 12),
  };
}

/** The requests that started before the observed LCP (times from the first request, as Lighthouse's). */
function beforeLcp(lhr) {
  const observed = lhr.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint;
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  if (typeof observed !== 'number') return [];
  return items
    .filter((item) => typeof item.networkRequestTime === 'number' && item.networkRequestTime < observed)
    .map((item) => ({
      path: new URL(item.url).pathname,
      bytes: item.transferSize ?? 0,
      priority: item.priority ?? '',
    }));
}
