/** Lower case, no accents, single spaces: how a title and a residence's name are compared. */
export const plain = (text: string) =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The residence a show's title names (docs/schedule.md): a title names a residence when it starts
 * with its artist's name (« Axonberg · Synapses »), the longest name first.
 */
export function residenceMatcher(known: readonly { id: string; artist: string }[]): (title: string) => string | null {
  const residences = known
    .map((residence) => ({ id: residence.id, name: plain(residence.artist) }))
    .filter((residence) => residence.name !== '')
    .sort((a, b) => b.name.length - a.name.length);
  return (title) => {
    const text = plain(title);
    return (
      residences.find(
        (residence) =>
          text === residence.name ||
          (text.startsWith(residence.name) && /^[\s·:–-]/.test(text.slice(residence.name.length))),
      )?.id ?? null
    );
  };
}
