/** The viewer's zoom: fitted to the window, or a scale of the image's own pixels (1 = 100 %). */
export type Zoom = 'fit' | number;

export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 8;
const STEP = 1.25;

/**
 * The zoom after a step from `scale` (the scale shown now, the fitted one included): in and out by a
 * quarter, within 10 % and 800 %; `fit` goes back to fitting the window.
 */
export function nextZoom(scale: number, direction: 'in' | 'out' | 'fit'): Zoom {
  if (direction === 'fit') return 'fit';
  const stepped = direction === 'in' ? scale * STEP : scale / STEP;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(stepped * 1000) / 1000));
}
