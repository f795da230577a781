/** A residence's id as its page's address has it: lower-case words and digits, joined by hyphens. */
const RESIDENCE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/i;

/**
 * The residence `?residence=` names (« Soutenir Axonberg »), or null: anything that cannot be a
 * residence's id (too long, other characters) names none, and is not asked of the site.
 */
export function residenceParam(query: URLSearchParams): string | null {
  const value = query.get('residence');
  if (value === null || value.length > 60 || !RESIDENCE_ID.test(value)) return null;
  return value;
}
