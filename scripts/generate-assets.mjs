// Generates the site's demo artwork and demo audio: deterministic, made here, nothing downloaded.
// Images: every `/assets/images/….webp` path named in a content file, plus residence pictures by id
// and the default cover, at the sizes the pages use. Existing files are kept (same input, same file).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { PACKAGES, PARTS } from '../shared/parts.mjs';
import { pictureCopies } from '../shared/src/pictures.mjs';
import { residencePictureFiles } from '../shared/src/residenceImages.mjs';
import { INSTALL_SCREENSHOTS } from '../server/src/site/published/screenshots.mjs';
import { root } from './parts.mjs';

const OUT = join(root, 'shared', 'assets');
/** The content/ folder of every workspace of the registry (shared/parts.mjs). */
const CONTENT_DIRS = [...PACKAGES, ...PARTS.map((part) => part.folder)].map((folder) => `${folder}/content`);

/** Pixel size by folder; `name-800.webp` style suffixes override the width. */
const SIZES = {
  residences: [800, 800],
  team: [480, 600],
  releases: [600, 600],
  slides: [1600, 900],
  'a-propos': [1200, 800],
  // Events' posters (server/content/demo-events.json), 3:2.
  evenements: [1200, 800],
  covers: [600, 600],
  '': [600, 600],
};

function hash(text) {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

function rng(seed) {
  let s = seed || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 10000) / 10000;
  };
}

/** An abstract poster: gradient, circles and stripes, seeded by the image's path. */
export function artworkSvg(seedText, width, height, label = '') {
  const r = rng(hash(seedText));
  const hue = Math.floor(r() * 360);
  const hue2 = (hue + 40 + Math.floor(r() * 120)) % 360;
  const shapes = [];
  for (let i = 0; i < 7; i += 1) {
    const cx = Math.round(r() * width);
    const cy = Math.round(r() * height);
    const rad = Math.round((0.1 + r() * 0.45) * Math.min(width, height));
    const h = (hue + Math.floor(r() * 90)) % 360;
    shapes.push(
      `<circle cx="${cx}" cy="${cy}" r="${rad}" fill="hsl(${h} 80% ${35 + Math.floor(r() * 35)}%)" opacity="${(0.35 + r() * 0.5).toFixed(2)}"/>`,
    );
  }
  for (let i = 0; i < 5; i += 1) {
    const y = Math.round(r() * height);
    shapes.push(
      `<rect x="0" y="${y}" width="${width}" height="${Math.round(4 + r() * 18)}" fill="hsl(${hue2} 90% 60%)" opacity="0.5" transform="rotate(${Math.round(r() * 40 - 20)} ${width / 2} ${height / 2})"/>`,
    );
  }
  const text = label
    ? `<text x="${Math.round(width * 0.06)}" y="${Math.round(height * 0.92)}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="${Math.round(Math.min(width, height) / 9)}" fill="#fff" opacity="0.9">${label.replace(/[<&>]/g, '')}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 18%)"/><stop offset="1" stop-color="hsl(${hue2} 70% 38%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}${text}</svg>`;
}

async function writeImage(relPath, width, height, label) {
  const file = join(OUT, 'images', relPath);
  if (existsSync(file)) return false;
  mkdirSync(dirname(file), { recursive: true });
  await sharp(Buffer.from(artworkSvg(relPath.replace(/(-\d+)?\.webp$/, ''), width, height, label)))
    .webp({ quality: 72, effort: 4 })
    .toFile(file);
  return true;
}

function sizeFor(relPath) {
  const folder = relPath.includes('/') ? relPath.split('/')[0] : '';
  const [w, h] = SIZES[folder] ?? SIZES[''];
  const suffix = /-(\d+)\.webp$/.exec(relPath);
  if (suffix === null) return [w, h];
  const width = Number(suffix[1]);
  return [width, Math.round((width * h) / w)];
}

/** Every /assets/images/*.webp named in any content JSON file. */
function imagesNamedInContent() {
  const found = new Set();
  const walk = (value) => {
    if (typeof value === 'string') {
      const m = /^\/assets\/images\/(.+\.webp)$/.exec(value);
      if (m) found.add(m[1]);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const dir of CONTENT_DIRS) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const name of readdirSync(abs)) {
      if (name.endsWith('.json') && !name.endsWith('.schema.json'))
        walk(JSON.parse(readFileSync(join(abs, name), 'utf8')));
    }
  }
  return found;
}

function residenceIds() {
  const file = join(root, 'shared', 'content', 'residences.json');
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')).map((r) => r.id);
}

/** The page's colour, as the style sheet's tokens give it (--color-bg). */
export function pageColour() {
  const css = readFileSync(join(root, 'shared', 'src', 'styles', 'tokens.css'), 'utf8');
  return /--color-bg:\s*(#[\da-f]{3,8})\s*;/i.exec(css)?.[1] ?? '#000000';
}

/**
 * A square PNG icon: the logo (an SVG) in the middle 60 % of a square of the page's colour, so that
 * a round or squircle mask never cuts it (`maskable` and `any` alike).
 * @param {Buffer} logoSvg
 * @param {number} size
 * @param {string} background
 */
export async function appIcon(logoSvg, size, background) {
  const inner = Math.round(size * 0.6);
  // Rasterised at the density that gives the size (an SVG's own size is read at 72 dpi), then fitted.
  const { width = inner, height = inner } = await sharp(logoSvg).metadata();
  const density = Math.min(2400, Math.max(72, Math.ceil((72 * inner) / Math.max(1, width, height))));
  const logo = await sharp(logoSvg, { density })
    .resize(inner, inner, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background } })
    .composite([{ input: logo, gravity: 'centre' }])
    .png()
    .toBuffer();
}

/**
 * A smaller copy of a picture, resized from it (shared/src/pictures.mjs names the copies): the same
 * picture at fewer pixels, whether the original is a demo drawing or the collective's own file.
 */
async function writeCopy(fromPath, relPath, width, height) {
  const file = join(OUT, 'images', relPath);
  if (existsSync(file)) return false;
  await sharp(join(OUT, 'images', fromPath))
    .resize(width, height, { fit: 'cover' })
    .webp({ quality: 72, effort: 4 })
    .toFile(file);
  return true;
}

export async function generateImages() {
  const jobs = [];
  for (const rel of imagesNamedInContent()) {
    jobs.push([rel, ...sizeFor(rel)]);
    // Slides also come at 800 px for phones (srcset in the carousel).
    if (rel.startsWith('slides/') && !/-\d+\.webp$/.test(rel))
      jobs.push([rel.replace(/\.webp$/, '-800.webp'), 800, 450]);
  }
  // A residence's pictures are named after its id, not in the content (docs/site.md, « Residents »).
  for (const id of residenceIds()) {
    for (const picture of residencePictureFiles(id)) jobs.push([picture.path, picture.width, picture.height]);
  }
  jobs.push(['default-cover.webp', 600, 600, '']);
  let made = 0;
  for (const [rel, w, h, label] of jobs) if (await writeImage(rel, w, h, label)) made += 1;
  // Then the copies, from the originals just made or already there.
  for (const [rel] of jobs) {
    for (const copy of pictureCopies(rel)) if (await writeCopy(rel, copy.path, copy.width, copy.height)) made += 1;
  }
  const logo = join(OUT, 'images', 'logo.svg');
  if (!existsSync(logo)) {
    mkdirSync(dirname(logo), { recursive: true });
    writeFileSync(
      logo,
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><circle cx="20" cy="20" r="17" fill="none" stroke="#ffcf3f" stroke-width="4"/><circle cx="20" cy="20" r="6" fill="#ffcf3f"/></svg>',
    );
  }
  // The installed site's icons (docs/published.md, « Installable »).
  const background = pageColour();
  const logoSvg = readFileSync(logo);
  for (const size of [192, 512]) {
    const icon = join(OUT, 'images', `icon-${String(size)}.png`);
    if (existsSync(icon)) continue;
    writeFileSync(icon, await appIcon(logoSvg, size, background));
    made += 1;
  }
  made += await installScreenshots();
  return made;
}

/**
 * The manifest's install screenshots (docs/published.md, « Installable »): the browser tests'
 * reviewed baselines, the top screen of each, in WebP. Made again when a baseline is newer.
 */
async function installScreenshots() {
  let made = 0;
  for (const shot of INSTALL_SCREENSHOTS) {
    const baseline = join(root, 'e2e', 'tests', '__screenshots__', 'visual.spec.ts', shot.baseline);
    const file = join(OUT, 'images', shot.file);
    if (!existsSync(baseline)) continue;
    if (existsSync(file) && statSync(file).mtimeMs >= statSync(baseline).mtimeMs) continue;
    await sharp(baseline)
      .extract({ left: 0, top: 0, width: shot.width, height: shot.height })
      .webp({ quality: 80, effort: 4 })
      .toFile(file);
    made += 1;
  }
  return made;
}

export async function generateAssets() {
  const images = await generateImages();
  const audio = await import('../server/scripts/demo-audio.mjs').then((m) => m.generateDemoAudio());
  if (images > 0 || audio > 0)
    console.log(`Ressources de démonstration : ${String(images)} images, ${String(audio)} fichiers audio`);
}
