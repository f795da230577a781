import type { FastifyInstance } from 'fastify';
import { buildApi, manualClock, testConfig } from '../api/testing/fixtures';
import { residenceSlots } from './slots';

// The programme's slots as the figures and « Me prévenir » read them: every residence's, the ids of
// the content in upper case included (the demo's « 130E0A »), whose one slot once made the whole
// answer unreadable, and with it every other slot of the window.

let app: FastifyInstance;
const clock = manualClock(Date.UTC(2026, 10, 23, 12));

beforeAll(async () => {
  app = await buildApi({ config: testConfig(), now: clock.now });
});
afterAll(async () => {
  await app.close();
});

it('gives every slot naming a residence, upper-case ids too, and no whole day', async () => {
  const from = clock.now();
  const slots = await residenceSlots(app, from, from + 35 * 24 * 3600_000);
  const ids = new Set(slots.map((slot) => slot.residence));
  expect(ids.has('130E0A')).toBe(true);
  expect(ids.has('axonberg')).toBe(true);
  for (const slot of slots) {
    expect(slot.end).toBeGreaterThan(slot.start);
    expect(slot.end - slot.start).toBeLessThan(24 * 3600_000);
  }
});
