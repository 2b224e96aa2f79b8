import type { SiteImage } from './site-images.ts';

type ResponsiveImageProps = {
  image: SiteImage;
  /** Describe what the picture shows; '' for decorative artwork. */
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn, so the browser picks the right file. */
  sizes: string;
  className?: string;
  /** The page's largest above-the-fold image (its LCP): load it first and eagerly. */
  priority?: boolean;
};

function srcSet(image: SiteImage, extension: 'avif' | 'webp'): string {
  return image.widths.map((width) => `/images/${image.name}-${width}.${extension} ${width}w`).join(', ');
}

/** AVIF with a WebP fallback at responsive widths; explicit width/height so nothing shifts. */
export function ResponsiveImage({ image, alt, sizes, className, priority = false }: ResponsiveImageProps) {
  const fallbackWidth = image.widths[Math.min(1, image.widths.length - 1)];
  return (
    <picture>
      <source type="image/avif" srcSet={srcSet(image, 'avif')} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet(image, 'webp')} sizes={sizes} />
      <img
        src={`/images/${image.name}-${fallbackWidth}.webp`}
        srcSet={srcSet(image, 'webp')}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : undefined}
        className={className}
      />
    </picture>
  );
}
