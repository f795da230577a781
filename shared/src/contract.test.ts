// The helpers the singleton still carries for the parts built before 2.5.0 (docs/contract.md,
// « 2.5.0 »): a part built before gets them from the shell's copy, a part built now from their own
// path, and both are the same code.
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
const kept: Record<string, unknown> = singleton;

describe('helpers moved out of the singleton', () => {
  it('are every path the list names', () => {
    expect(Object.keys(helpers).sort()).toEqual(Object.keys(MOVED_TO_HELPERS).sort());
  });

  it.each(Object.entries(MOVED_TO_HELPERS))('%s: each name is the same from the singleton', (path, names) => {
    const helper = helpers[path] ?? {};
    for (const name of names) {
      expect([name, helper[name]]).not.toEqual([name, undefined]);
      expect([name, kept[name]]).toEqual([name, helper[name]]);
    }
  });

  it.each(Object.entries(MOVED_TO_HELPERS))(
    '%s: every name the singleton also exports is listed, so that lint names its path',
    (path, names) => {
      const both = Object.keys(helpers[path] ?? {}).filter((name) => name in kept);
      expect(both.sort()).toEqual([...names].sort());
    },
  );
});
