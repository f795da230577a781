// @ts-check
// The pictures of a residence are named after its id (docs/site.md, « Residents »): the pages, the
// radio's page hints and the asset generator all take their names from here.

/** The folder of residence pictures among the site's images (/assets/images/). */
const FOLDER = 'residences';

/** Each picture: a square card (400 px, and 800 px for dense screens) and a 1600×600 header. */
export const RESIDENCE_PICTURES = /** @type {const} */ ({
  card: { suffix: '-400', width: 400, height: 400 },
  cardLarge: { suffix: '-800', width: 800, height: 800 },
  header: { suffix: '-header', width: 1600, height: 600 },
});

/**
 * The pictures' addresses for an id as it goes in a URL (already encoded).
 * @param {string} urlId
 */
export function residencePictureUrls(urlId) {
  /** @param {{ suffix: string }} picture */
  const url = (picture) => `/assets/images/${FOLDER}/${urlId}${picture.suffix}.webp`;
  const { card, cardLarge, header } = RESIDENCE_PICTURES;
  return {
    card: url(card),
    cardSrcSet: `${url(card)} ${String(card.width)}w, ${url(cardLarge)} ${String(cardLarge.width)}w`,
    header: url(header),
  };
}

/**
 * The pictures of a residence, by its id.
 * @param {string} id
 */
export const residenceImages = (id) => residencePictureUrls(encodeURIComponent(id));

/**
 * The files to generate for a residence, relative to the assets folder's images/ (the id as it is:
 * the server decodes the address).
 * @param {string} id
 */
export function residencePictureFiles(id) {
  return Object.values(RESIDENCE_PICTURES).map(({ suffix, width, height }) => ({
    path: `${FOLDER}/${id}${suffix}.webp`,
    width,
    height,
  }));
}
