// The browser tests' server lives at a set instant (docs/testing.md, « The tests' clock »): what it
// derives from the date (the demo's schedule, « En ce moment », the weeks of /programme) is the same
// on every run, whatever the day, and the screenshots can compare it. Loaded with `--import` by the
// tests' web server (playwright.config.ts); the renderer processes start with the server's preloads
// and these two variables (server/src/site/render/sandbox.ts), so they share the clock.
//
// E2E_CLOCK_START is the instant the server starts at, E2E_CLOCK_EPOCH the real instant it stands
// for (both set once by the config): every process adds the same offset, and time goes on as usual.
const start = Date.parse(process.env.E2E_CLOCK_START ?? '');
const epoch = Number(process.env.E2E_CLOCK_EPOCH ?? '');

if (Number.isFinite(start) && Number.isFinite(epoch)) {
  const offset = start - epoch;
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }

    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
}
