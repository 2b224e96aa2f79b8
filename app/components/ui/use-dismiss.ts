import { useEffect, useRef, type MouseEvent, type RefObject } from 'react';

/**
 * Menus and dropdowns close on a pointer-down outside `container` and on Escape. The callback may
 * change between renders; the listeners are attached once.
 */
export function useDismiss(container: RefObject<HTMLElement | null>, onDismiss: (reason: 'outside' | 'escape') => void): void {
  const latest = useRef(onDismiss);
  useEffect(() => {
    latest.current = onDismiss;
  });
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (container.current && !container.current.contains(event.target as Node)) latest.current('outside');
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latest.current('escape');
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [container]);
}

/** True when a click inside a menu landed on a link (menus close when the visitor follows one). */
export function isLinkClick(event: MouseEvent): boolean {
  return Boolean((event.target as HTMLElement).closest('a'));
}
