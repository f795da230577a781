import type { SupportReturnQuery } from '@collectif/shared/schemas/support';

/** The longest value of HelloAsso's query the page passes on. */
const VALUE_MAX = 200;

/** HelloAsso's query, passed on to the site as it came: only its four names, each bounded. */
export function returnQuery(query: URLSearchParams): SupportReturnQuery {
  const kept: SupportReturnQuery = {};
  for (const name of ['checkoutIntentId', 'code', 'orderId', 'error'] as const) {
    const value = query.get(name);
    if (value !== null && value !== '' && value.length <= VALUE_MAX) kept[name] = value;
  }
  return kept;
}
