import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { SLUG } from '@collectif/shared/content-schemas';

/**
 * The programme's slots that name a residence, as the site's own `GET /api/schedule` gives them
 * (through its cache and its thread: docs/schedule.md), for what runs beside the pages: the audience
 * figures' « what is on air » (docs/figures.md) and « Me prévenir »'s starts (docs/follow.md). A
 * whole day is never a slot: it is never « on air ».
 */

export interface ResidenceSlot {
  residence: string;
  /** Instants in ms. */
  start: number;
  end: number;
}

const scheduleEvents = v.object({
  events: v.pipe(
    v.array(
      v.object({
        start: v.string(),
        end: v.string(),
        allDay: v.boolean(),
        // A residence's id as the content has it (upper case allowed: « 130E0A »).
        residence: v.nullable(v.pipe(v.string(), v.maxLength(60), v.regex(SLUG))),
      }),
    ),
    v.maxLength(1000),
  ),
});

/** The slots meeting [from, to), oldest first; none when the programme cannot be read. */
export async function residenceSlots(app: FastifyInstance, from: number, to: number): Promise<ResidenceSlot[]> {
  const query = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
  const answer = await app.inject({ method: 'GET', url: `/api/schedule?${query}` });
  if (answer.statusCode !== 200) throw new Error(`programme : ${String(answer.statusCode)}`);
  const read = v.safeParse(scheduleEvents, answer.json());
  if (!read.success) throw new Error('programme : réponse inattendue');
  return read.output.events.flatMap((event) =>
    event.allDay || event.residence === null
      ? []
      : [{ residence: event.residence, start: Date.parse(event.start), end: Date.parse(event.end) }],
  );
}
