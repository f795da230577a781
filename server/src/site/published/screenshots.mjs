// @ts-check
/**
 * The install screenshots of the web app manifest (docs/published.md, « Installable »): the screens
 * the browser tests' baselines show (e2e/tests/__screenshots__/visual.spec.ts, reviewed by eye when
 * they change), cut to one screen and written as WebP by the asset generator
 * (scripts/generate-assets.mjs) into the generated pictures. Read by the manifest (manifest.ts).
 */

/**
 * @typedef {{ file: string, baseline: string, width: number, height: number,
 *   form_factor: 'narrow' | 'wide', label: string }} InstallScreenshot
 */

/** @type {readonly InstallScreenshot[]} */
export const INSTALL_SCREENSHOTS = [
  {
    file: 'capture-accueil-390.webp',
    baseline: 'accueil-390.png',
    width: 390,
    height: 844,
    form_factor: 'narrow',
    label: 'L’accueil sur un téléphone : à la une et le direct',
  },
  {
    file: 'capture-direct-390.webp',
    baseline: 'lecteur-direct-390.png',
    width: 390,
    height: 844,
    form_factor: 'narrow',
    label: 'Le lecteur en direct sur un téléphone',
  },
  {
    file: 'capture-accueil-1280.webp',
    baseline: 'accueil-1280.png',
    width: 1280,
    height: 800,
    form_factor: 'wide',
    label: 'L’accueil sur un ordinateur : à la une et le direct',
  },
  {
    file: 'capture-direct-1280.webp',
    baseline: 'lecteur-direct-1280.png',
    width: 1280,
    height: 800,
    form_factor: 'wide',
    label: 'Le lecteur en direct sur un ordinateur',
  },
];
