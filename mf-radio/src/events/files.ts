import { apiUrl } from '@collectif/shared';

/** Every event as a calendar to subscribe to (docs/events.md, « Calendar files »). */
export const eventsIcsHref = () => apiUrl('/events.ics');

/** One event as a calendar file, for « Ajouter à mon agenda ». */
export const eventIcsHref = (slug: string) => apiUrl(`/events/${encodeURIComponent(slug)}.ics`);
