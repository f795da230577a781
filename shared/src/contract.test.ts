// What the singleton no longer carries since contract 3.0.0 (docs/contract.md, « 3.0.0 »): the
// helpers it kept for the parts built before 2.5.0, now only by their own paths (the list, and the
// path lint names for each: MOVED_TO_HELPERS), and the deprecated exports those parts called. A
// part that still calls one finds it undefined in the shell's copy.
import { MOVED_TO_HELPERS } from '../build/contract.mjs';
import * as singleton from '@collectif/shared';
import * as addresses from '@collectif/shared/addresses';
import * as pictures from '@collectif/shared/pictures';
import * as resume from '@collectif/shared/resume';
import * as schedule from '@collectif/shared/schedule';
import * as time from '@collectif/shared/time';
import * as tokens from '@collectif/shared/tokens';
import * as ui from '@collectif/shared/ui';

const helpers: Record<string, Record<string, unknown>> = {
  '@collectif/shared/addresses': addresses,
  '@collectif/shared/pictures': pictures,
  '@collectif/shared/resume': resume,
  '@collectif/shared/schedule': schedule,
  '@collectif/shared/time': time,
  '@collectif/shared/tokens': tokens,
  '@collectif/shared/ui': ui,
};
const exported: Record<string, unknown> = singleton;

describe('the singleton since contract 3.0.0', () => {
  it('lists every path the helpers moved to', () => {
    expect(Object.keys(helpers).sort()).toEqual(Object.keys(MOVED_TO_HELPERS).sort());
  });

  it.each(Object.entries(MOVED_TO_HELPERS))('%s: each name is there, and no longer in the singleton', (path, names) => {
    const helper = helpers[path] ?? {};
    for (const name of names) {
      expect([name, helper[name]]).not.toEqual([name, undefined]);
      expect([name, exported[name]]).toEqual([name, undefined]);
    }
  });

  it('has none of the deprecated exports the parts built before 2.5.0 called', () => {
    for (const name of ['usePageMeta', 'useDocumentWindow', 'href']) {
      expect([name, exported[name]]).toEqual([name, undefined]);
    }
  });
});
