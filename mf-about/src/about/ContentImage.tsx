import { ABOUT_IMAGE_SIZES, pictureSrcSet } from '@collectif/shared/pictures';

/** Images of the About page are 1200 × 800 (scripts/generate-assets.mjs, folder a-propos). */
const WIDTH = 1200;
const HEIGHT = 800;

export function ContentImage({ image, eager = false }: { image: { src: string; alt: string }; eager?: boolean }) {
  return (
    <img
      className="about-image"
      src={image.src}
      srcSet={pictureSrcSet(image.src)}
      sizes={ABOUT_IMAGE_SIZES}
      alt={image.alt}
      width={WIDTH}
      height={HEIGHT}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
    />
  );
}
