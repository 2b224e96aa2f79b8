import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/** sharp (libvips, a native addon) loads with the first image, not when the server starts (decision 023-b). */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
